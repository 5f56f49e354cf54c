import { execFileSync } from 'child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'fs';
import { join, resolve } from 'path';
import { installArgoCd, installRollouts, ARGOCD_NAMESPACE } from './lib/argocd';
import { buildBinaries } from './lib/build';
import { startClusters, E2eCluster } from './lib/clusters';
import { diagnose } from './lib/diagnose';
import { appSource, GitRepos } from './lib/gitrepos';
import { installKargo } from './lib/kargo';
import { Kube, waitFor } from './lib/kube';
import { elapsed, log } from './lib/log';
import { Pki } from './lib/pki';
import { bootstrapApplication, DEFAULT_APP_PROJECT, synthPlatform } from './lib/platform-repo';
import { Processes } from './lib/procs';
import { gitWrapper, MetricEndpoint, pushImage, startGitServer, startRegistry } from './lib/services';
import { E2eEnvironment } from './platform/platform';
import { World } from './scenarios';
import { runScenarios } from './suite';

const ROOT = resolve(__dirname, '..');

interface Options {
  readonly build: boolean;
  readonly keep: boolean;
  readonly scenarios?: string[];
  /** Whether each scenario's broken variant runs after it (e2e/broken.ts). */
  readonly broken: boolean;
}

function parseArgs(argv: string[]): Options {
  const scenarios = argv.find(a => a.startsWith('--scenarios='))?.slice('--scenarios='.length).split(',');
  return { build: !argv.includes('--no-build'), keep: argv.includes('--keep'), scenarios, broken: !argv.includes('--no-broken') };
}

/** Runs a shell helper of the project and returns its last line of output (a directory). */
function helper(script: string, env: Record<string, string> = {}): string {
  const out = execFileSync(join(ROOT, 'scripts', script), { encoding: 'utf8', env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  return out.trim().split('\n').pop()!;
}

/** A Go module's directory in the module cache, as the e2e module that requires it resolves it. */
function moduleDir(module: string, path: string): string {
  return execFileSync('go', ['list', '-m', '-f', '{{.Dir}}', path], { cwd: join(ROOT, 'e2e', module), encoding: 'utf8' }).trim();
}

async function main(): Promise<number> {
  const opts = parseArgs(process.argv.slice(2));
  const bin = resolve(process.env.E2E_BIN ?? join(ROOT, '.e2e', 'bin'));
  const dir = resolve(process.env.E2E_DIR ?? join(ROOT, '.e2e', 'run'));
  if (existsSync(dir)) Processes.stopLeftovers(dir);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(join(dir, 'logs'), { recursive: true });
  mkdirSync(bin, { recursive: true });

  helper('upstream-go.sh', {});
  const realGit = helper('git-for-kargo.sh');
  if (opts.build) await buildBinaries(ROOT, bin);
  const buildSeconds = elapsed();

  const pki = new Pki(join(dir, 'pki'));
  const procs = new Processes(dir, {
    PATH: process.env.PATH ?? '',
    HOME: join(dir, 'home'),
    // every Go process trusts the suite's CA (the registry, the Git server, the webhooks)
    SSL_CERT_FILE: pki.ca.cert,
    TZ: 'UTC',
  });
  mkdirSync(join(dir, 'home'), { recursive: true });
  const gitPath = gitWrapper(dir, realGit, pki);
  let hub: Kube | undefined;
  try {
    const metrics = new MetricEndpoint();
    await metrics.start();
    const kwokConfig = writeKwokConfig(dir);
    const argocdToken = `e2e${Date.now().toString(36)}${Math.random().toString(36).slice(2)}`;
    const clusters = await startClusters({
      dir,
      bin,
      pki,
      procs,
      kwokConfig,
      argocdToken,
      names: ['hub', 'e2e-dev-1', 'e2e-staging-1', 'e2e-prod-1', 'e2e-prod-2'],
    });
    hub = clusters[0].admin;
    // the credential reaches Argo CD as a file, never through the platform's manifests
    const tokenFile = join(dir, 'argocd-cluster-token');
    writeFileSync(tokenFile, `${argocdToken}\n`, { mode: 0o600 });

    const registry = await startRegistry(dir, pki, procs);
    const gitBase = await startGitServer(dir, bin, gitPath, pki, procs);
    const craneEnv = { SSL_CERT_FILE: pki.ca.cert, HOME: join(dir, 'home') };
    for (const app of ['web', 'api']) pushImage(bin, join(dir, 'images'), `${registry}/e2e/${app}:1.0.0`, craneEnv);
    pushImage(bin, join(dir, 'images'), `${registry}/e2e/smoke:1.0.0`, craneEnv);
    log(`registry ${registry}: pushed e2e/web:1.0.0, e2e/api:1.0.0, e2e/smoke:1.0.0`);

    await installRollouts({ dir, bin, pki, procs, hub, installYaml: join(moduleDir('k8s', 'github.com/argoproj/argo-rollouts'), 'manifests', 'install.yaml') });
    // what every installer gets: the run's directory, binaries, PKI, processes, hub and git
    const install = { dir, bin, pki, procs, hub, gitPath };
    await installArgoCd({
      ...install,
      reconciliationSeconds: 30,
      installYaml: join(moduleDir('argocd', 'github.com/argoproj/argo-cd/v3'), 'manifests', 'install.yaml'),
    });
    const kargo = await installKargo({
      ...install,
      argocdNamespace: ARGOCD_NAMESPACE,
      chartDir: join(moduleDir('k8s', 'github.com/akuity/kargo'), 'charts', 'kargo'),
    });

    const repos = new GitRepos(dir, join(gitPath, 'git'));
    const workloads = clusters.slice(1);
    const env: E2eEnvironment = {
      clusters: Object.fromEntries(workloads.map(c => [c.name, c.server])),
      caData: Buffer.from(readFileSync(pki.ca.cert)).toString('base64'),
      tokenFile,
      registry,
      gitBase,
      metricsBase: metrics.base,
      rings: { 'e2e-prod-1': 'canary', 'e2e-prod-2': 'broad' },
      soakSeconds: Number(process.env.E2E_SOAK_SECONDS ?? '0'),
    };
    repos.create('source', { ...appSource('web', `${registry}/e2e/web`), ...appSource('api', `${registry}/e2e/api`) }, 'the apps\' manifests');
    repos.create('releases', { 'README.md': 'rendered releases, written by Kargo\n' }, 'release repository');
    const synthOut = join(dir, 'synth');
    synthPlatform(ROOT, env, dir, synthOut);
    repos.create('platform', {}, 'empty platform');
    const platformCommit = repos.commitDir('platform', 'manifests', synthOut, 'platform: e2e fleet, pipelines and apps');
    log(`platform repository ${gitBase}/platform.git at ${platformCommit.slice(0, 8)}`);

    await hub.apply(DEFAULT_APP_PROJECT as any);
    await hub.apply(bootstrapApplication(`${gitBase}/platform.git`));
    log('applied the bootstrap Application "platform" over manifests/');
    const world: World = {
      root: ROOT,
      dir,
      bin,
      hub,
      clusters: workloads,
      allClusters: clusters,
      pki,
      procs,
      repos,
      registry,
      gitBase,
      metrics,
      env,
      kargo,
      craneEnv,
      platformCommit,
      synthDir: synthOut,
    };
    await waitForPlatform(world);
    const code = await runScenarios(world, opts.scenarios, buildSeconds, opts.broken);
    if (opts.keep) {
      log(`--keep: leaving ${procs.all.length} processes running; stop them with: kill $(cut -d' ' -f1 ${join(dir, 'pids')})`);
      await new Promise(() => undefined);
    }
    await procs.stopAll();
    metrics.stop();
    return code;
  } catch (e) {
    log(`FAILED: ${(e as Error).message}`);
    log(await diagnose(hub, procs));
    await procs.stopAll();
    return 1;
  }
}

/** The platform Application synced in one pass, and what it carries accepted by Kargo and Argo CD. */
async function waitForPlatform(w: World): Promise<void> {
  const app = await waitFor('the platform Application to be Synced and Healthy', 300_000, async () => {
    const a = await w.hub.get('argoproj.io/v1alpha1', 'Application', ARGOCD_NAMESPACE, 'platform');
    const s = a?.status;
    return s?.sync?.status === 'Synced' && s?.health?.status === 'Healthy' && s.operationState?.phase === 'Succeeded' ? a : undefined;
  }, 1000);
  const attempts = app!.status.operationState.retryCount ?? 0;
  log(`platform Application: Synced and Healthy at ${app!.status.sync.revision.slice(0, 8)} (sync retries: ${attempts})`);
  if (attempts > 0) throw new Error(`the platform needed ${attempts} sync retries: it must apply in one pass`);
  for (const project of ['web', 'api']) {
    await waitFor(`Kargo Project ${project} Ready`, 120_000, async () => {
      const p = await w.hub.get('kargo.akuity.io/v1alpha1', 'Project', undefined, project);
      return p?.status?.conditions?.some((c: any) => c.type === 'Ready' && c.status === 'True');
    }, 1000);
  }
  log('Kargo Projects web and api Ready');
}

function writeKwokConfig(dir: string): string {
  const kwok = execFileSync('go', ['list', '-m', '-f', '{{.Dir}}', 'sigs.k8s.io/kwok'], { cwd: join(ROOT, 'e2e', 'argocd'), encoding: 'utf8' }).trim();
  const stages = [
    'kustomize/stage/node/fast/node-initialize.yaml',
    'kustomize/stage/node/heartbeat-with-lease/node-heartbeat-with-lease.yaml',
    'kustomize/stage/pod/fast/pod-ready.yaml',
    'kustomize/stage/pod/fast/pod-complete.yaml',
    'kustomize/stage/pod/fast/pod-delete.yaml',
  ].map(p => readFileSync(join(kwok, p), 'utf8'));
  const file = join(dir, 'kwok.yaml');
  writeFileSync(file, stages.join('\n---\n'));
  return file;
}

export type { E2eCluster };

main().then(code => process.exit(code), (e) => {
  log(`FAILED: ${(e as Error).stack}`);
  process.exit(1);
});
