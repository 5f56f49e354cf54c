import { spawn, spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as YAML from 'yaml';

/**
 * An error meant for the user: the CLI prints its message and exits 2, without a stack trace.
 * @internal
 */
export class UsageError extends Error {}

/** Runs git; returns stdout, throws a `UsageError` with git's message on failure. */
export function git(cwd: string, args: string[]): string {
  const result = spawnSync('git', args, { cwd, encoding: 'utf8' });
  if (result.error) throw new UsageError(`git ${args.join(' ')} failed: ${result.error.message}`);
  if (result.status !== 0) throw new UsageError(`git ${args.join(' ')} failed: ${result.stderr.trim().split('\n').pop()}`);
  return result.stdout.trim();
}

/** The top of the git working tree containing `cwd`. */
export function repoRoot(cwd: string): string {
  return git(cwd, ['rev-parse', '--show-toplevel']);
}

/**
 * The merge base of HEAD with the default branch: `origin/HEAD` when the remote names one, else the
 * first of origin/main, origin/master, main, master that exists.
 */
export function defaultBase(root: string): { ref: string; label: string } {
  const exists = (ref: string) => spawnSync('git', ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`], { cwd: root }).status === 0;
  const remoteHead = spawnSync('git', ['symbolic-ref', '--quiet', '--short', 'refs/remotes/origin/HEAD'], { cwd: root, encoding: 'utf8' });
  const candidates = [remoteHead.status === 0 ? remoteHead.stdout.trim() : '', 'origin/main', 'origin/master', 'main', 'master'].filter(Boolean);
  const branch = candidates.find(exists);
  if (!branch) throw new UsageError('cannot find the default branch (origin/HEAD, main or master); pass --base <git ref>');
  return { ref: git(root, ['merge-base', 'HEAD', branch]), label: `merge base with ${branch}` };
}

/** Resolves a ref to a commit, or fails with a usage error naming it. */
export function resolveCommit(root: string, ref: string): string {
  const result = spawnSync('git', ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`], { cwd: root, encoding: 'utf8' });
  if (result.status !== 0) throw new UsageError(`--base "${ref}" is not a commit in ${root}`);
  return result.stdout.trim();
}

/**
 * Synthesizes the tree at `dir` (a directory with `cdk8s.yaml`) into `outDir`: with the project's
 * `cdk8s` CLI when `node_modules/.bin/cdk8s` exists (honours the validations and plugins of
 * cdk8s.yaml), else by running cdk8s.yaml's `app` command with CDK8S_OUTDIR set, as cdk8s does.
 */
export async function synthesize(dir: string, outDir: string, nodeModules: string): Promise<void> {
  const configFile = path.join(dir, 'cdk8s.yaml');
  if (!fs.existsSync(configFile)) throw new UsageError(`no cdk8s.yaml in ${dir}`);
  const config = YAML.parse(fs.readFileSync(configFile, 'utf8')) ?? {};
  if (typeof config.app !== 'string' || config.app.trim() === '') throw new UsageError(`${configFile} has no "app:" command`);
  const bin = path.join(nodeModules, '.bin');
  const cdk8s = path.join(bin, 'cdk8s');
  const command = fs.existsSync(cdk8s) ? `"${cdk8s}" synth --no-check-upgrade --output "${outDir}"` : config.app;
  const env = { ...process.env, CDK8S_OUTDIR: outDir, PATH: `${bin}${path.delimiter}${process.env.PATH ?? ''}` };
  const stderr: string[] = [];
  const status = await new Promise<number>((resolve, reject) => {
    const child = spawn(command, { cwd: dir, env, shell: true, stdio: ['ignore', 'ignore', 'pipe'] });
    child.stderr.on('data', (chunk) => stderr.push(String(chunk)));
    child.on('error', reject);
    child.on('close', (code) => resolve(code ?? 1));
  });
  if (status !== 0) {
    const tail = stderr.join('').trim().split('\n').slice(-10).join('\n');
    throw new UsageError(`synth of ${dir} failed (exit ${status}):\n${tail}`);
  }
}

/**
 * A temporary directory, removed by `cleanup` (call it in `finally`).
 * @internal
 */
export class Scratch {
  public readonly dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gitops-platform-plan-'));
  private readonly worktrees: Array<{ root: string; dir: string }> = [];

  /** Checks out `commit` of the repository at `root` into a detached worktree under the scratch dir. */
  public checkout(root: string, commit: string): string {
    const dir = path.join(this.dir, 'base');
    git(root, ['worktree', 'add', '--detach', '--quiet', dir, commit]);
    this.worktrees.push({ root, dir });
    return dir;
  }

  public cleanup(): void {
    for (const w of this.worktrees) {
      spawnSync('git', ['worktree', 'remove', '--force', w.dir], { cwd: w.root });
    }
    fs.rmSync(this.dir, { recursive: true, force: true });
    for (const w of this.worktrees) spawnSync('git', ['worktree', 'prune'], { cwd: w.root });
  }
}

/**
 * Synthesizes the working tree and a base commit (in parallel) into `<scratch>/head` and
 * `<scratch>/base-out`. The base checkout reuses the working tree's node_modules (a symlink), so
 * no install is needed.
 */
export async function synthesizeBoth(
  root: string, cwdInRepo: string, commit: string, scratch: Scratch,
): Promise<{ baseDir: string; headDir: string }> {
  // cdk8s.yaml may live in a subdirectory of the repository: use the same one in the base
  const sub = path.relative(root, cwdInRepo);
  const headTree = cwdInRepo;
  const nodeModules = path.join(headTree, 'node_modules');
  const baseCheckout = scratch.checkout(root, commit);
  const baseTree = path.join(baseCheckout, sub);
  if (fs.existsSync(nodeModules) && !fs.existsSync(path.join(baseTree, 'node_modules'))) {
    fs.symlinkSync(fs.realpathSync(nodeModules), path.join(baseTree, 'node_modules'), 'dir');
  }
  const headDir = path.join(scratch.dir, 'head-out');
  const baseDir = path.join(scratch.dir, 'base-out');
  await Promise.all([synthesize(headTree, headDir, nodeModules), synthesize(baseTree, baseDir, nodeModules)]);
  return { baseDir, headDir };
}
