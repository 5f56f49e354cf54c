import { spawn, spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';

// End to end: the command as a user runs it (`tsx src/cli/main.ts`, a separate process) in a
// throw-away git repository holding a tiny cdk8s project built on this worktree's library.
const ROOT = path.join(__dirname, '..', '..');
const MAIN = path.join(ROOT, 'src', 'cli', 'main.ts');
const TSX = path.join(ROOT, 'node_modules', '.bin', 'tsx');
const temps: string[] = [];

function tempDir(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  temps.push(dir);
  return dir;
}

afterAll(() => temps.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

function cli(cwd: string, args: string[], env: NodeJS.ProcessEnv = process.env) {
  const result = spawnSync(TSX, [MAIN, ...args], { cwd, encoding: 'utf8', timeout: 240_000, env });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

function git(cwd: string, ...args: string[]): string {
  const result = spawnSync('git', ['-c', 'user.name=test', '-c', 'user.email=test@example.com', '-c', 'init.defaultBranch=main', ...args], { cwd, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`git ${args.join(' ')}: ${result.stderr}`);
  return result.stdout.trim();
}

/** A tiny project: a 6-cluster fleet, one pipeline, three apps; `apiTargets` is what the second commit changes. */
function mainTs(apiTargets: string): string {
  // the library by absolute path, computed now: never committed to this repository
  const lib = JSON.stringify(path.join(ROOT, 'src', 'index.ts'));
  return `import { App } from 'cdk8s';
import {
  Accelerator, Approval, Artifact, ClusterAuth, ClusterFleet, ClusterSelector, CloudProvider, ManifestSource, PlatformApp, PromotionPipeline, Tier, Waves,
} from ${lib};

const app = new App();
const cluster = (name: string, tier: Tier, ring: string, accelerator?: Accelerator) => ({
  name, server: \`https://\${name}.example.com\`, provider: CloudProvider.AWS, region: 'us-east-1', tier, kubernetesVersion: '1.31',
  auth: ClusterAuth.eks({ clusterName: name }, { caData: 'LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCg==' }),
  labels: { ring }, ...(accelerator ? { accelerator, acceleratorCount: 8 } : {}),
});
const fleet = new ClusterFleet(app, 'fleet', {
  clusters: [
    cluster('dev-cpu', Tier.DEV, 'canary'), cluster('dev-gpu', Tier.DEV, 'canary', Accelerator.NVIDIA_H100),
    cluster('prod-cpu-1', Tier.PROD, 'canary'), cluster('prod-cpu-2', Tier.PROD, 'broad'),
    cluster('prod-gpu-1', Tier.PROD, 'canary', Accelerator.NVIDIA_H100), cluster('prod-gpu-2', Tier.PROD, 'broad', Accelerator.NVIDIA_H100),
  ],
});
const pipeline = new PromotionPipeline(app, 'standard', {
  stages: [
    { name: 'dev', clusters: ClusterSelector.tier(Tier.DEV), approval: Approval.automatic() },
    { name: 'prod', clusters: ClusterSelector.tier(Tier.PROD), approval: Approval.manual(), waves: Waves.byLabel('ring', ['canary', 'broad']) },
  ],
});
for (const name of ['api', 'web', 'worker']) {
  new PlatformApp(app, name, {
    owner: { team: name, contact: '#' + name },
    fleet,
    pipeline,
    artifacts: [Artifact.image('ghcr.io/acme/' + name)],
    source: ManifestSource.helm({ repoUrl: 'https://github.com/acme/' + name + '.git', path: 'chart' }),
    releaseRepo: 'https://github.com/acme/releases.git',
    ...(name === 'api' ? { targets: ${apiTargets} } : { targets: ClusterSelector.accelerator(Accelerator.NONE) }),
  });
}
app.synth();
`;
}

describe('plan on a git repository', () => {
  let repo: string;

  beforeAll(() => {
    repo = tempDir('gitops-platform-e2e-');
    fs.writeFileSync(path.join(repo, 'cdk8s.yaml'), 'language: typescript\napp: npx tsx apps/main.ts\noutput: manifests\n');
    fs.writeFileSync(path.join(repo, '.gitignore'), 'node_modules\nmanifests\n');
    // what `npm install` would give a user's project
    fs.symlinkSync(fs.realpathSync(path.join(ROOT, 'node_modules')), path.join(repo, 'node_modules'), 'dir');
    fs.mkdirSync(path.join(repo, 'apps'));
    fs.writeFileSync(path.join(repo, 'apps', 'main.ts'), mainTs('ClusterSelector.accelerator(Accelerator.NONE)'));
    git(repo, 'init', '--quiet');
    git(repo, 'add', '-A');
    git(repo, 'commit', '--quiet', '-m', 'three apps on CPU clusters');
    fs.writeFileSync(path.join(repo, 'apps', 'main.ts'), mainTs('ClusterSelector.all()'));
    git(repo, 'commit', '--quiet', '-am', 'api on GPU clusters too');
  });

  test('--base HEAD~1 prints the changed app and names every other app as unaffected', () => {
    const { status, stdout, stderr } = cli(repo, ['plan', '--base', 'HEAD~1']);
    expect(stderr).toBe('');
    expect(status).toBe(0);
    expect(stdout).toContain('## Release plan against `HEAD~1`');
    expect(stdout).toContain('- **api: +3 clusters; objects: ');
    expect(stdout).toContain('  - wave `dev`: 1 → 2 clusters (+dev-gpu)');
    expect(stdout).toContain('  - wave `prod-canary`: 1 → 2 clusters (+prod-gpu-1)');
    expect(stdout).toContain('  - wave `prod-broad`: 1 → 2 clusters (+prod-gpu-2)');
    expect(stdout).toContain('Unaffected: web, worker; the fleet is unchanged.');
    expect(stdout).not.toContain('### web');
    // the base checkout is gone again
    expect(git(repo, 'worktree', 'list').split('\n')).toHaveLength(1);
  }, 300_000);

  test('an unknown base exits 2 with one line', () => {
    const { status, stdout, stderr } = cli(repo, ['plan', '--base', 'no-such-ref']);
    expect(status).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toBe(`error: --base is not a commit in ${fs.realpathSync(repo)}, got "no-such-ref"; pass a branch, tag or commit of the repository\n`);
  });
});

/** A repository with the tiny project's cdk8s.yaml, .gitignore and node_modules, not yet committed. */
function project(): string {
  const repo = tempDir('gitops-platform-e2e-');
  fs.writeFileSync(path.join(repo, 'cdk8s.yaml'), 'language: typescript\napp: npx tsx apps/main.ts\noutput: manifests\n');
  fs.writeFileSync(path.join(repo, '.gitignore'), 'node_modules\nmanifests\n');
  fs.symlinkSync(fs.realpathSync(path.join(ROOT, 'node_modules')), path.join(repo, 'node_modules'), 'dir');
  fs.mkdirSync(path.join(repo, 'apps'));
  fs.writeFileSync(path.join(repo, 'apps', 'main.ts'), mainTs('ClusterSelector.all()'));
  return repo;
}

describe('the first pull request, a broken branch, signals', () => {
  test('a base without cdk8s.yaml plans as everything added', () => {
    const repo = tempDir('gitops-platform-e2e-first-');
    fs.writeFileSync(path.join(repo, 'README.md'), '# platform\n');
    git(repo, 'init', '--quiet');
    git(repo, 'add', '-A');
    git(repo, 'commit', '--quiet', '-m', 'empty repository');
    const withProject = project();
    for (const entry of ['cdk8s.yaml', '.gitignore', 'apps']) fs.renameSync(path.join(withProject, entry), path.join(repo, entry));
    fs.symlinkSync(fs.realpathSync(path.join(ROOT, 'node_modules')), path.join(repo, 'node_modules'), 'dir');
    git(repo, 'add', '-A');
    git(repo, 'commit', '--quiet', '-m', 'the platform');
    const { status, stdout, stderr } = cli(repo, ['plan', '--base', 'HEAD~1']);
    expect(stderr).toBe('');
    expect(stdout).toContain('The base has no platform (no cdk8s.yaml): everything is added.');
    expect(stdout).toContain('- **api: new app (6 clusters, ');
    expect(stdout).toContain('- **fleet: +6 clusters**');
    expect(status).toBe(0);
    expect(git(repo, 'worktree', 'list').split('\n')).toHaveLength(1);
  }, 300_000);

  test('a repository without a commit plans as everything added', () => {
    const repo = project();
    git(repo, 'init', '--quiet');
    const { status, stdout, stderr } = cli(repo, ['plan', '--detailed-exitcode']);
    expect(stderr).toBe('');
    expect(stdout).toContain('## Release plan against `an empty repository`');
    expect(stdout).toContain('The repository has no commit yet: everything is added.');
    expect(status).toBe(2);
    const json = cli(repo, ['plan', '--json']);
    expect(JSON.parse(json.stdout)).toMatchObject({ base: 'an empty repository', note: 'The repository has no commit yet: everything is added.', changed: true });
  }, 300_000);

  test('a broken branch: the synth\'s one-line message, no stack trace', () => {
    const repo = project();
    git(repo, 'init', '--quiet');
    git(repo, 'add', '-A');
    git(repo, 'commit', '--quiet', '-m', 'three apps');
    fs.writeFileSync(path.join(repo, 'apps', 'main.ts'), mainTs('ClusterSelector.all()').replace('const app = new App();', 'throw new Error(\'api: targets select no cluster\');\nconst app = new App();'));
    const { status, stdout, stderr } = cli(repo, ['plan', '--base', 'HEAD']);
    expect(stdout).toBe('');
    expect(stderr).toBe(`error: synth of ${fs.realpathSync(repo)} failed (exit 1), got Error: api: targets select no cluster\n`);
    expect(status).toBe(2);
  }, 300_000);

  test('a branch with three problems in one app: every problem and the app, as npm run synth prints them', () => {
    const repo = project();
    git(repo, 'init', '--quiet');
    git(repo, 'add', '-A');
    git(repo, 'commit', '--quiet', '-m', 'three apps');
    fs.writeFileSync(path.join(repo, 'apps', 'main.ts'), mainTs('ClusterSelector.all()')
      .replace("owner: { team: name, contact: '#' + name },", "owner: name === 'api' ? { team: '', contact: '' } : { team: name, contact: '#' + name },")
      .replace("releaseRepo: 'https://github.com/acme/releases.git',", "releaseRepo: name === 'api' ? 'http://github.com/acme/releases.git' : 'https://github.com/acme/releases.git',"));
    const { status, stdout, stderr } = cli(repo, ['plan', '--base', 'HEAD']);
    expect(stdout).toBe('');
    expect(stderr).toMatch(new RegExp(`^error: synth of ${fs.realpathSync(repo)} failed \\(exit 1\\), got Error: PlatformApp 'api': 3 problems\n`));
    expect(stderr.match(/^ {2}- /gm)).toHaveLength(3);
    for (const problem of ['owner.team must not be empty', 'owner.contact must not be empty', 'releaseRepo must use https']) expect(stderr).toContain(problem);
    expect(stderr).not.toMatch(/^\s+at /m);
    expect(status).toBe(2);
  }, 300_000);

  test('SIGINT while the base synthesizes: no scratch directory, no registered worktree left', async () => {
    const repo = project();
    git(repo, 'init', '--quiet');
    git(repo, 'add', '-A');
    git(repo, 'commit', '--quiet', '-m', 'three apps');
    // a private TMPDIR: the scratch directories of this run only
    const tmp = tempDir('gitops-platform-e2e-tmp-');
    // node with tsx's loader, not the tsx command: on a loaded machine tsx SIGKILLs a child that
    // has not acknowledged a relayed signal within 30 ms (tsx dist/cli.mjs relaySignalToChild),
    // before the CLI's own handler has removed its scratch directory
    const child = spawn(process.execPath, ['--import', 'tsx', MAIN, 'plan', '--base', 'HEAD'],
      { cwd: repo, env: { ...process.env, TMPDIR: tmp }, stdio: 'ignore' });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code, signal) => resolve(code ?? (signal ? -1 : null))));
    const scratch = () => fs.readdirSync(tmp).filter((d) => d.startsWith('gitops-platform-plan-'));
    const deadline = Date.now() + 120_000;
    // wait for the base checkout (a registered worktree), then for its synth to be under way
    while (Date.now() < deadline && !(scratch().length && fs.existsSync(path.join(tmp, scratch()[0], 'base', 'node_modules')))) {
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(git(repo, 'worktree', 'list').split('\n')).toHaveLength(2);
    await new Promise((r) => setTimeout(r, 1500));
    child.kill('SIGINT');
    expect(await exited).toBe(130);
    expect(scratch()).toEqual([]);
    expect(git(repo, 'worktree', 'list').split('\n')).toHaveLength(1);
  }, 300_000);
});

describe('validate', () => {
  test('a broken directory: one line per problem, exit 1', () => {
    const dir = tempDir('gitops-platform-validate-');
    fs.writeFileSync(path.join(dir, 'a.k8s.yaml'), [
      'apiVersion: kargo.akuity.io/v1alpha1',
      'kind: Warehouse',
      'metadata:',
      '  name: api',
      '  namespace: api',
      'spec:',
      '  subscriptions: []',
      '  colour: blue',
      '---',
      'kind: [unclosed',
    ].join('\n'));
    fs.mkdirSync(path.join(dir, 'nested'));
    fs.writeFileSync(path.join(dir, 'nested', 'b.yml'), 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: Not_Valid\n');
    const { status, stdout, stderr } = cli(ROOT, ['validate', dir]);
    expect(status).toBe(1);
    const lines = stdout.trim().split('\n');
    expect(lines.length).toBeGreaterThanOrEqual(3);
    const rel = path.relative(ROOT, dir);
    for (const line of lines) expect(line).toMatch(new RegExp(`^${rel.replace(/[.]/g, '\\.')}/(a\\.k8s\\.yaml|nested/b\\.yml) \\S+ \\S+: .+$`));
    expect(stdout).toContain(`${rel}/a.k8s.yaml Warehouse/api/api /spec/colour: `);
    expect(stdout).toContain(`${rel}/a.k8s.yaml - /: yaml document 2 does not parse`);
    expect(stdout).toContain(`${rel}/nested/b.yml ConfigMap/Not_Valid /metadata/name: `);
    expect(stderr).toBe(`${lines.length} problem(s) in 2 file(s) below ${rel}\n`);
  }, 120_000);

  test('schema-valid files the live controllers would refuse: the model\'s finding, exit 1', () => {
    const dir = tempDir('gitops-platform-validate-model-');
    fs.copyFileSync(path.join(ROOT, 'manifests', 'fleet.k8s.yaml'), path.join(dir, 'fleet.k8s.yaml'));
    // the project permits another Namespace than the one the Applications create
    const app = fs.readFileSync(path.join(ROOT, 'manifests', 'docs-preview.k8s.yaml'), 'utf8');
    const broken = app.replace('      kind: Namespace\n      name: docs-preview\n', '      kind: Namespace\n      name: docs-preview-old\n');
    expect(broken).not.toBe(app);
    fs.writeFileSync(path.join(dir, 'docs-preview.k8s.yaml'), broken);
    const { status, stdout, stderr } = cli(ROOT, ['validate', dir]);
    const rel = path.relative(ROOT, dir);
    expect(stdout.trim().split('\n').map(l => l.replace(/: .*\(live: /, ': … (live: '))).toEqual([
      `${rel}/docs-preview.k8s.yaml ApplicationSet/argocd/docs-preview /spec/template/spec/syncPolicy/syncOptions: … (live: namespace-not-permitted)`,
    ]);
    expect(stdout).toContain('CreateNamespace=true makes Argo CD create Namespace "docs-preview", but AppProject docs-preview has no clusterResourceWhitelist entry');
    expect(stderr).toBe(`1 problem(s) in 1 file(s) below ${rel}\n`);
    expect(status).toBe(1);
  }, 120_000);

  test('the example manifests: exit 0', () => {
    const { status, stdout, stderr } = cli(ROOT, ['validate', 'manifests']);
    expect(stdout).toBe('');
    expect(stderr).toBe('no problems below manifests\n');
    expect(status).toBe(0);
  }, 120_000);
});
