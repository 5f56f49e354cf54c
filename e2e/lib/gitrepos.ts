import { execFileSync } from 'child_process';
import { cpSync, mkdirSync, rmSync, writeFileSync } from 'fs';
import { dirname, join } from 'path';

/**
 * The suite's Git repositories, bare under `<dir>/git` (served by git-https), each with a work
 * tree under `<dir>/work` that the suite commits from as the people of the scenarios would.
 */
export class GitRepos {
  constructor(private readonly dir: string, private readonly git: string) {}

  private run(cwd: string, ...args: string[]): string {
    return execFileSync(this.git, args, {
      cwd,
      encoding: 'utf8',
      env: {
        ...process.env,
        GIT_AUTHOR_NAME: 'e2e', GIT_AUTHOR_EMAIL: 'e2e@example.invalid', GIT_COMMITTER_NAME: 'e2e', GIT_COMMITTER_EMAIL: 'e2e@example.invalid',
        GIT_CONFIG_NOSYSTEM: '1', HOME: this.dir, PATH: `${dirname(this.git)}:${process.env.PATH}`,
      },
    }).trim();
  }

  public work(name: string): string {
    return join(this.dir, 'work', name);
  }

  /** Creates the bare repository `<name>.git` and its work tree with one commit on main. */
  public create(name: string, files: Record<string, string>, message: string): string {
    const bare = join(this.dir, 'git', `${name}.git`);
    mkdirSync(bare, { recursive: true });
    this.run(bare, 'init', '-q', '--bare', '-b', 'main');
    this.run(bare, 'config', 'http.receivepack', 'true');
    const work = this.work(name);
    mkdirSync(work, { recursive: true });
    this.run(work, 'init', '-q', '-b', 'main');
    this.run(work, 'remote', 'add', 'origin', bare);
    return this.commit(name, files, message);
  }

  /** Writes files (a null content deletes one), commits and pushes to main; returns the commit. */
  public commit(name: string, files: Record<string, string | null>, message: string): string {
    const work = this.work(name);
    for (const [path, content] of Object.entries(files)) {
      const file = join(work, path);
      if (content === null) {
        rmSync(file, { force: true, recursive: true });
      } else {
        mkdirSync(dirname(file), { recursive: true });
        writeFileSync(file, content);
      }
    }
    this.run(work, 'add', '-A');
    this.run(work, 'commit', '-q', '--allow-empty', '-m', message);
    this.run(work, 'push', '-q', 'origin', 'main');
    return this.run(work, 'rev-parse', 'HEAD');
  }

  /** Replaces a directory of the work tree with a copy of another, then commits and pushes. */
  public commitDir(name: string, path: string, from: string, message: string): string {
    const target = join(this.work(name), path);
    rmSync(target, { recursive: true, force: true });
    cpSync(from, target, { recursive: true });
    return this.commit(name, {}, message);
  }

  /** A file on a branch of the bare repository, or undefined. */
  public show(name: string, branch: string, path: string): string | undefined {
    try {
      return this.run(join(this.dir, 'git', `${name}.git`), 'show', `${branch}:${path}`);
    } catch {
      return undefined;
    }
  }

  /** The commit subjects and bodies of a branch, newest first. */
  public log(name: string, branch: string): string {
    try {
      return this.run(join(this.dir, 'git', `${name}.git`), 'log', '--format=%H %s%n%b', branch);
    } catch {
      return '';
    }
  }
}

/** A kustomize base of one app: a Deployment of the app's image, which Kargo's kustomize-set-image pins. */
export function appSource(app: string, image: string): Record<string, string> {
  return {
    [`${app}/kustomization.yaml`]: [
      'apiVersion: kustomize.config.k8s.io/v1beta1',
      'kind: Kustomization',
      'resources:',
      '- deployment.yaml',
      'images:',
      `- name: ${image}`,
      '  newTag: 0.0.0',
      '',
    ].join('\n'),
    [`${app}/deployment.yaml`]: [
      'apiVersion: apps/v1',
      'kind: Deployment',
      'metadata:',
      `  name: ${app}`,
      '  labels:',
      `    app: ${app}`,
      'spec:',
      '  replicas: 2',
      '  selector:',
      '    matchLabels:',
      `      app: ${app}`,
      '  template:',
      '    metadata:',
      '      labels:',
      `        app: ${app}`,
      '    spec:',
      '      containers:',
      `      - name: ${app}`,
      `        image: ${image}`,
      '',
    ].join('\n'),
  };
}
