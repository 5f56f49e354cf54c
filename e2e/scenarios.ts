import { join } from 'path';
import { ARGOCD_NAMESPACE } from './lib/argocd';
import { E2eCluster } from './lib/clusters';
import { GitRepos } from './lib/gitrepos';
import { KargoInstall } from './lib/kargo';
import { Kube, Obj, Settled, waitFor } from './lib/kube';
import { log } from './lib/log';
import { Pki } from './lib/pki';
import { synthPlatform } from './lib/platform-repo';
import { Processes } from './lib/procs';
import { MetricEndpoint, pushImage } from './lib/services';
import { clusterOf, clustersOf, recordedTag, runStatus, StatusRun } from './lib/status';
import { E2eEnvironment } from './platform/platform';
import { ReleaseTiming, StageTiming } from './report';

const KARGO = 'kargo.akuity.io/v1alpha1';

/** Everything a scenario can reach. */
export interface World {
  readonly root: string;
  readonly dir: string;
  readonly bin: string;
  readonly hub: Kube;
  /** The workload clusters (not the hub). */
  readonly clusters: E2eCluster[];
  readonly allClusters: E2eCluster[];
  readonly pki: Pki;
  readonly procs: Processes;
  readonly repos: GitRepos;
  readonly registry: string;
  readonly gitBase: string;
  readonly metrics: MetricEndpoint;
  readonly env: E2eEnvironment;
  readonly kargo: KargoInstall;
  readonly craneEnv: Record<string, string>;
  readonly platformCommit: string;
  /** The synthesized platform the hub runs now (a platform change synthesizes a new one). */
  synthDir: string;
}

/**
 * The Stages of each app, in promotion order, and the clusters each deploys to; web's production
 * rings follow the environment (a fleet change moves them): `pipelineOf` adds them.
 */
const PIPELINES: Record<string, Array<{ stage: string; clusters: string[] }>> = {
  web: [
    { stage: 'dev', clusters: ['e2e-dev-1'] },
    { stage: 'staging', clusters: ['e2e-staging-1'] },
  ],
  api: [
    { stage: 'dev', clusters: ['e2e-dev-1'] },
    { stage: 'staging', clusters: ['e2e-staging-1'] },
    { stage: 'prod', clusters: ['e2e-prod-1', 'e2e-prod-2'] },
  ],
};

/** The Stages of an app and the clusters each deploys to now: web's rings are the environment's (a fleet change moves them). */
export function pipelineOf(w: World, app: string): Array<{ stage: string; clusters: string[] }> {
  if (app !== 'web') return PIPELINES[app];
  const ring = (name: string) => Object.keys(w.env.rings).filter(c => w.env.rings[c] === name).sort();
  return [...PIPELINES.web, { stage: 'prod-canary', clusters: ring('canary') }, { stage: 'prod-broad', clusters: ring('broad') }];
}

export interface Scenario {
  readonly name: string;
  readonly title: string;
  readonly run: (w: World, timings: ReleaseTiming[]) => Promise<void>;
}

export const SCENARIOS: Scenario[] = [
  { name: 'release', title: 'a new tag reaches every production cluster', run: scenarioRelease },
  { name: 'failed-verification', title: 'a failed verification stops the release before production', run: scenarioFailedVerification },
  { name: 'approval', title: 'a manual approval holds the release until a promoter the library allowed promotes it', run: scenarioApproval },
  { name: 'freeze', title: 'an active freeze holds the release; it proceeds after the window', run: scenarioFreeze },
  { name: 'rollback', title: 'a rollback to the previous Freight puts the old image back', run: scenarioRollback },
  { name: 'wave-move', title: 'a cluster moving to another wave keeps running and ends on its new wave\'s release', run: scenarioWaveMove },
];

/** Pushes a tag and asks the Warehouse to look at once (what a registry webhook receiver does). */
async function pushRelease(w: World, app: string, version: string): Promise<number> {
  const t0 = Date.now();
  pushImage(w.bin, join(w.dir, 'images'), `${w.registry}/e2e/${app}:${version}`, w.craneEnv);
  await w.hub.mergePatch(KARGO, 'Warehouse', app, app, { metadata: { annotations: { 'kargo.akuity.io/refresh': `${t0}` } } });
  log(`pushed ${w.registry}/e2e/${app}:${version}`);
  return t0;
}

/** The Freight of an app that carries an image version. */
async function freightOf(w: World, app: string, version: string): Promise<Obj> {
  return waitFor(`Freight of ${app}:${version}`, 120_000, async () => {
    const all = await w.hub.list(KARGO, 'Freight', app);
    return all.find(f => (f.images ?? []).some((i: any) => i.tag === version));
  }, 500);
}

/** The app's Deployment on a workload cluster, or undefined. */
async function deploymentOf(w: World, cluster: string, app: string): Promise<Obj | undefined> {
  const c = w.clusters.find(x => x.name === cluster)!;
  return c.admin.get('apps/v1', 'Deployment', app, app);
}

/** The image of a Deployment on a workload cluster, or undefined. */
async function deployedImage(w: World, cluster: string, app: string): Promise<string | undefined> {
  return (await deploymentOf(w, cluster, app))?.spec?.template?.spec?.containers?.[0]?.image;
}

/** Waits until every Stage of the app's pipeline has the Freight and each cluster runs the version, recording the times. */
export async function followRelease(w: World, app: string, version: string, t0: number, timeoutMs: number,
  stages = pipelineOf(w, app)): Promise<ReleaseTiming> {
  const freight = await freightOf(w, app, version);
  const discovered = Date.parse(freight.metadata.creationTimestamp);
  log(`  ${app}:${version}: Freight ${freight.metadata.name} after ${((discovered - t0) / 1000).toFixed(1)}s`);
  const timing: ReleaseTiming = { release: `${app}:${version}`, pushedAt: t0, discoverySeconds: (discovered - t0) / 1000, stages: [] };
  for (const { stage, clusters } of stages) {
    const reached: Record<string, number> = {};
    await waitFor(`${app}:${version} on ${clusters.join(', ')} (Stage ${stage})`, timeoutMs, async () => {
      for (const c of clusters) {
        if (reached[c] === undefined && (await deployedImage(w, c, app))?.endsWith(`:${version}`)) reached[c] = Date.now();
      }
      return clusters.every(c => reached[c] !== undefined);
    }, 500);
    const st = await stageTiming(w, app, stage, freight.metadata.name, t0);
    for (const c of clusters) st.clusters[c] = (reached[c] - t0) / 1000;
    timing.stages.push(st);
    log(`  ${app}:${version} on ${clusters.join(', ')} (${stage}) ${Math.max(...clusters.map(c => reached[c] - t0)) / 1000}s after the push`);
  }
  return timing;
}

/** Times of the Promotion of a Freight into a Stage: created, its steps, finished, and the Freight's verification there. */
async function stageTiming(w: World, app: string, stage: string, freight: string, t0: number): Promise<StageTiming> {
  const promotions = (await w.hub.list(KARGO, 'Promotion', app)).filter(p => p.spec.stage === stage && p.spec.freight === freight);
  const p = promotions.sort((a, b) => Date.parse(b.metadata.creationTimestamp) - Date.parse(a.metadata.creationTimestamp))[0];
  const s = (t?: string) => t ? (Date.parse(t) - t0) / 1000 : undefined;
  const steps = (p?.status?.stepExecutionMetadata ?? []) as any[];
  const sync = steps.find(x => x.alias === 'sync');
  return {
    stage,
    promotion: p?.metadata.name,
    outcome: p?.status?.phase ?? 'none',
    created: s(p?.metadata.creationTimestamp),
    renderedAt: s(steps.find(x => x.alias === 'push')?.finishedAt),
    syncStarted: s(sync?.startedAt),
    finished: s(p?.status?.finishedAt),
    clusters: {},
  };
}

/** Scenario 1: a new tag becomes Freight and reaches every production cluster through every Stage. */
async function scenarioRelease(w: World, timings: ReleaseTiming[]): Promise<void> {
  // the first release (1.0.0, pushed before the platform was applied) goes all the way first
  timings.push(await followRelease(w, 'web', '1.0.0', Date.now(), 300_000));
  await release(w, timings, '1.1.0');
  await statusAfterRelease(w, await freightOf(w, 'web', '1.1.0'));
}

/**
 * A new tag of web through every Stage: on every cluster, with its release record on each
 * Stage's branch, and every Application Synced and Healthy within `healthTimeoutMs`.
 */
export async function release(w: World, timings: ReleaseTiming[], version: string, healthTimeoutMs = 90_000): Promise<void> {
  const t0 = await pushRelease(w, 'web', version);
  const timing = await followRelease(w, 'web', version, t0, 240_000);
  timings.push(timing);
  // the release record: each Stage's branch holds the rendered manifests of the new version
  for (const { stage, clusters } of pipelineOf(w, 'web')) {
    for (const c of clusters) {
      const manifest = w.repos.show('releases', `rendered/web/${stage}`, `${c}/manifests.yaml`);
      if (!manifest?.includes(`e2e/web:${version}`)) throw new Error(`release branch rendered/web/${stage} has no ${c}/manifests.yaml with e2e/web:${version}`);
    }
  }
  const total = Math.max(...timing.stages.flatMap(s => Object.values(s.clusters)));
  log(`  web:${version} reached every production cluster ${total.toFixed(1)}s after the push`);
  // the Argo CD Applications report the release synced and healthy (a rollout that reached the
  // cluster may still be replacing its last old pod)
  for (const { clusters } of pipelineOf(w, 'web')) {
    for (const c of clusters) await applicationHealthy(w, 'web', c, healthTimeoutMs);
  }
}

/**
 * `status` reads back what Kargo wrote (over https, the URL the apps deploy from): every web
 * cluster of every Stage renders Freight 1.1.0 with its tag, `--has web@1.1.0` says yes for
 * production, and `--live` as a read-only user finds each Application Synced and Healthy at the
 * branch head and each Stage on that Freight: no drift.
 */
async function statusAfterRelease(w: World, freight: Obj): Promise<void> {
  const all = runStatus(statusContext(w), 'after web 1.1.0', ['--app', 'web']);
  expectExit(all, 0, 'status --app web after web:1.1.0 reached production');
  for (const { stage, clusters } of pipelineOf(w, 'web')) {
    for (const name of clusters) {
      const c = clusterOf(all.output, 'web', stage, name);
      if (c.state !== 'rendered' || recordedTag(c) !== '1.1.0' || c.release?.freight !== freight.metadata.name) {
        throw new Error(`status says ${name} in Stage web/${stage} is ${c.state} with web ${recordedTag(c)} (Freight ${c.release?.freight}); `
          + `Kargo rendered web:1.1.0 (Freight ${freight.metadata.name}) there`);
      }
    }
  }
  const has = runStatus(statusContext(w), 'has web 1.1.0 in production', ['--app', 'web', '--stage', 'prod-canary,prod-broad', '--has', 'web@1.1.0']);
  expectExit(has, 0, 'status --has web@1.1.0 for web\'s production');
  if (has.output.query?.having !== 2) throw new Error(`status --has web@1.1.0 counts ${has.output.query?.having} production clusters with it, not 2`);
  const live = runStatus(statusContext(w), 'live after web 1.1.0', ['--app', 'web', '--live', '--kubeconfig', await statusReader(w)]);
  expectExit(live, 0, 'status --live after web:1.1.0 reached production');
  for (const c of clustersOf(live.output, 'web')) {
    if (c.live?.sync !== 'Synced' || c.live.health !== 'Healthy' || c.live.syncedRevision !== c.head || c.live.stageFreight !== freight.metadata.name) {
      throw new Error(`status --live says Application ${c.live?.namespace}/${c.live?.application} is ${c.live?.sync}/${c.live?.health} at ${c.live?.syncedRevision?.slice(0, 8)} `
        + `with Stage ${c.kargoStage} on ${c.live?.stageFreight?.slice(0, 8)}; the branch head is ${c.head?.slice(0, 8)}, the Freight ${freight.metadata.name.slice(0, 8)}`);
    }
  }
  log(`  status: ${all.output.summary.rendered} web clusters render 1.1.0; --has in production: yes; --live: Synced, Healthy, no drift`);
}

function statusContext(w: World) {
  return { root: w.root, dir: w.dir, synthDir: w.synthDir, caFile: w.pki.ca.cert };
}

function expectExit(run: StatusRun, code: number, what: string): void {
  if (run.code !== code) throw new Error(`${what}: status exited ${run.code}, expected ${code}:\n${run.markdown}`);
}

let readerKubeconfig: string | undefined;

/**
 * A kubeconfig of a user who may only get and list Argo CD Applications and Kargo Stages on the
 * hub: what the docs say `status --live` needs (it reads, never writes).
 */
async function statusReader(w: World): Promise<string> {
  if (readerKubeconfig) return readerKubeconfig;
  await w.hub.apply({
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRole',
    metadata: { name: 'e2e-status-reader' },
    rules: [
      { apiGroups: ['argoproj.io'], resources: ['applications'], verbs: ['get', 'list'] },
      { apiGroups: ['kargo.akuity.io'], resources: ['stages'], verbs: ['get', 'list'] },
    ],
  });
  await w.hub.apply({
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRoleBinding',
    metadata: { name: 'e2e-status-reader' },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'e2e-status-reader' },
    subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'status-reader' }],
  });
  readerKubeconfig = userClient(w, 'status-reader', 'status-reader', []).writeKubeconfig(join(w.dir, 'status-reader.kubeconfig'));
  return readerKubeconfig;
}

/** Waits for the app's Application on a cluster to be Synced and Healthy; says what its Deployment reports when it is not. */
export async function applicationHealthy(w: World, app: string, cluster: string, timeoutMs: number): Promise<void> {
  let last: any;
  try {
    await waitFor(`Application ${app}-${cluster} Synced and Healthy`, timeoutMs, async () => {
      last = (await w.hub.get('argoproj.io/v1alpha1', 'Application', ARGOCD_NAMESPACE, `${app}-${cluster}`))?.status;
      return last?.sync?.status === 'Synced' && last?.health?.status === 'Healthy';
    }, 1000);
  } catch (e) {
    const c = w.clusters.find(x => x.name === cluster)!;
    const d = await c.admin.get('apps/v1', 'Deployment', app, app).catch(() => undefined);
    const pods = await c.admin.list('v1', 'Pod', app).catch(() => []);
    const podStates = pods.map(p => `${p.metadata.name} ${p.status?.phase}${p.metadata.deletionTimestamp ? ' (terminating)' : ''} ready=${p.status?.conditions?.find((x: any) => x.type === 'Ready')?.status}`);
    throw new Error(`${(e as Error).message}: Application ${app}-${cluster} is ${last?.sync?.status}/${last?.health?.status}; Deployment ${app}/${app} on ${cluster}: ${JSON.stringify(d?.status ?? 'missing')}; pods: ${podStates.join(', ')}`);
  }
}

/** The phase of the last verification of a Freight in a Stage (Successful, Failed, Error, ...), or undefined. */
async function verificationPhase(w: World, app: string, stage: string, freight: string): Promise<string | undefined> {
  const st = await w.hub.get(KARGO, 'Stage', app, stage);
  for (const entry of st?.status?.freightHistory ?? []) {
    const names = Object.values(entry.items ?? {}).map((i: any) => i.name);
    if (!names.includes(freight)) continue;
    return entry.verificationHistory?.[0]?.phase;
  }
  return undefined;
}

/** Scenario 2: the staging verification fails (the endpoint answers 503): production keeps the previous release. */
export async function scenarioFailedVerification(w: World, timings: ReleaseTiming[], version = '1.2.0'): Promise<void> {
  const before = await Promise.all(['e2e-prod-1', 'e2e-prod-2'].map(c => deployedImage(w, c, 'web')));
  w.metrics.failing.add('e2e-staging-1');
  try {
    const t0 = await pushRelease(w, 'web', version);
    const timing = await followRelease(w, 'web', version, t0, 180_000, PIPELINES.web);
    const freight = (await freightOf(w, 'web', version)).metadata.name;
    const ended = async () => {
      const p = await verificationPhase(w, 'web', 'staging', freight);
      return p && p !== 'Running' && p !== 'Pending' ? p : undefined;
    };
    // Seen once at load average 13: the AnalysisRun ended (Error) within seconds, but Kargo's Stage
    // kept "Freight is pending verification" for minutes, its last reconcile having run just
    // before. Then the Stage is refreshed as a person would (kargo.akuity.io/refresh) and the
    // delay reported, not hidden
    const phase = await waitFor(`the verification of web:${version} in staging to end`, 120_000, ended, 1000).catch(async () => {
      log('  Kargo has not recorded the end of the staging verification after 120s: refreshing Stage web/staging');
      await w.hub.mergePatch(KARGO, 'Stage', 'web', 'staging', { metadata: { annotations: { 'kargo.akuity.io/refresh': `${Date.now()}` } } });
      return waitFor(`the verification of web:${version} in staging to end after a refresh`, 120_000, ended, 1000);
    });
    if (phase === 'Successful') throw new Error(`Stage web/staging verified web:${version} (Freight ${freight}) although e2e-staging-1 was failing`);
    log(`  Stage web/staging: verification of web:${version} ended ${phase}`);
    timings.push({ ...timing, stages: timing.stages.map(s => s.stage === 'staging' ? { ...s, outcome: `verification ${phase}` } : s) });
    // give auto-promotion time it would take to move on, then production must still run what it ran
    await new Promise(r => setTimeout(r, 20_000));
    const after = await Promise.all(['e2e-prod-1', 'e2e-prod-2'].map(c => deployedImage(w, c, 'web')));
    for (const [i, c] of ['e2e-prod-1', 'e2e-prod-2'].entries()) {
      if (after[i] !== before[i]) throw new Error(`Deployment web/web on ${c} changed from ${before[i]} to ${after[i]} after a failed verification`);
    }
    const promotions = (await w.hub.list(KARGO, 'Promotion', 'web')).filter(p => p.spec.freight === freight && p.spec.stage.startsWith('prod'));
    if (promotions.length > 0) throw new Error(`Promotion ${promotions[0].metadata.name} took unverified web:${version} to ${promotions[0].spec.stage}`);
    log(`  production kept ${after.join(', ')}`);
  } finally {
    w.metrics.failing.delete('e2e-staging-1');
  }
}

/** A client of the hub as a user of a client certificate (CN the user name, O its groups). */
function userClient(w: World, name: string, user: string, groups: string[]): Kube {
  return w.hub.as(name, w.pki.client(name, user, groups));
}

/** A Promotion of a Freight into a Stage, as `kargo promote` creates it. */
function promotion(app: string, stage: string, freight: string): Obj {
  return { apiVersion: KARGO, kind: 'Promotion', metadata: { name: `${stage}-${freight.slice(0, 8)}-${Date.now().toString(36)}`, namespace: app }, spec: { stage, freight } } as Obj;
}

/**
 * Scenario 3: api's production is promoted by hand. Its first release waits at prod; a user
 * without the library's Role is refused by the API server, the promoter identity the library
 * wrote is refused for a Stage it was not allowed (Kargo's webhook checks the `promote` verb) and
 * allowed for prod; then api:1.0.0 runs on both production clusters.
 */
export async function scenarioApproval(w: World, timings: ReleaseTiming[], version = '1.0.0'): Promise<void> {
  // api's first release was pushed before the platform was applied; a later one is pushed now
  const t0 = version === '1.0.0' ? Date.now() : await pushRelease(w, 'api', version);
  const timing = await followRelease(w, 'api', version, t0, 300_000, PIPELINES.api.slice(0, 2));
  const freight = (await freightOf(w, 'api', version)).metadata.name;
  await waitFor(`api:${version} verified in staging`, 180_000, async () => (await verificationPhase(w, 'api', 'staging', freight)) === 'Successful', 1000);
  await new Promise(r => setTimeout(r, 10_000));
  for (const c of ['e2e-prod-1', 'e2e-prod-2']) {
    const image = await deployedImage(w, c, 'api');
    if (image?.endsWith(`:${version}`)) throw new Error(`Deployment api/api on ${c} runs ${image} before anyone promoted it: the manual approval did not hold`);
  }
  const outsider = userClient(w, 'bob', 'bob', ['developers']);
  await expectRefused(() => outsider.create(promotion('api', 'prod', freight)), 'user bob (group developers) creating a Promotion to api/prod');
  const promoter = userClient(w, 'promoter-prod', 'system:serviceaccount:api:promoter-prod', ['system:serviceaccounts', 'system:serviceaccounts:api']);
  // Kargo's Promotion webhook answers a missing promote verb with an internal error around the
  // Forbidden (Kargo v1.11.2 pkg/webhook/kubernetes/promotion/webhook.go ValidateCreate:
  // apierrors.NewInternalError(w.authorizeFn(...))), so the API server says 500, not 403
  await expectRefused(() => promoter.create(promotion('api', 'staging', freight)), 'ServiceAccount api/promoter-prod promoting into api/staging',
    /is not permitted to create Promotions for Stage "staging"/);
  const approvedAt = Date.now();
  const created = await promoter.create(promotion('api', 'prod', freight)).catch(e => {
    throw new Error(`ServiceAccount api/promoter-prod, the promoter the library allowed for Stage api/prod, could not promote api:${version}: ${e.message}`);
  });
  log(`  ServiceAccount api/promoter-prod created Promotion ${created.metadata.name} into api/prod`);
  const prod = await followRelease(w, 'api', version, approvedAt, 180_000, PIPELINES.api.slice(2));
  timings.push({ ...timing, stages: [...timing.stages, ...prod.stages.map(s => ({ ...s, outcome: `${s.outcome} (approved ${((approvedAt - t0) / 1000).toFixed(0)}s after discovery wait)` }))] });
}

/** The action is refused: 401 or 403, or a webhook's denial whose message matches `denial`. */
async function expectRefused(action: () => Promise<unknown>, what: string, denial?: RegExp): Promise<void> {
  try {
    await action();
  } catch (e: any) {
    if (e?.status === 403 || e?.status === 401 || (denial && e?.status === 500 && denial.test(e.message))) {
      log(`  refused as expected: ${what}: ${e.message.slice(0, 200)}`);
      return;
    }
    throw new Error(`${what} failed, but not as refused: ${e?.message}`);
  }
  throw new Error(`${what} was allowed`);
}

/** Synthesizes the platform for a changed environment, commits it, and waits until Argo CD has synced that commit. */
export async function changePlatform(w: World, env: E2eEnvironment, message: string, edit?: (dir: string) => void): Promise<void> {
  const out = join(w.dir, 'synth-change');
  synthPlatform(w.root, env, w.dir, out);
  edit?.(out);
  const commit = w.repos.commitDir('platform', 'manifests', out, message);
  // what Argo CD's Git webhook does on a push: refresh the Application now
  await w.hub.mergePatch('argoproj.io/v1alpha1', 'Application', ARGOCD_NAMESPACE, 'platform', { metadata: { annotations: { 'argocd.argoproj.io/refresh': 'normal' } } });
  await waitFor(`the platform Application to sync ${commit.slice(0, 8)} (${message})`, 180_000, async () => {
    const a = await w.hub.get('argoproj.io/v1alpha1', 'Application', ARGOCD_NAMESPACE, 'platform');
    return a?.status?.sync?.revision === commit && a.status.sync.status === 'Synced' && a.status.operationState?.phase === 'Succeeded';
  }, 1000);
  log(`  platform at ${commit.slice(0, 8)}: ${message}`);
  Object.assign(w.env, env);
  w.synthDir = out;
}

/** The Promotions of a Freight into a Stage, newest first. */
async function promotionsOf(w: World, app: string, stage: string, freight: string): Promise<Obj[]> {
  return (await w.hub.list(KARGO, 'Promotion', app)).filter(p => p.spec.stage === stage && p.spec.freight === freight)
    .sort((a, b) => Date.parse(b.metadata.creationTimestamp) - Date.parse(a.metadata.creationTimestamp));
}

/**
 * Scenario 4: a freeze of web's production, open now for two minutes, declared through the
 * public API and applied as a platform change. A new tag reaches staging; its promotion into
 * production fails at the freeze step and the clusters keep their release; after the window a
 * person promotes it again (the library's documented way) and it reaches every production cluster.
 */
export async function scenarioFreeze(w: World, timings: ReleaseTiming[], version = '1.3.0', timeZone = 'UTC'): Promise<void> {
  // the window opens at the start of this minute, so it is active before the platform change
  // lands, and stays open for at least three minutes after it: a verification in staging (about
  // a minute on a quiet machine, more under load) comes before the frozen promotion, and a
  // window that ends first lets the promotion through (seen with a two-minute window)
  const windowStart = new Date();
  windowStart.setUTCSeconds(0, 0);
  const minutes = 4;
  // the cron is this minute in UTC: the freeze is active now when declared in UTC
  const freeze = { cron: `${windowStart.getUTCMinutes()} ${windowStart.getUTCHours()} * * *`, minutes, timeZone };
  const windowEnd = windowStart.getTime() + minutes * 60_000;
  await changePlatform(w, { ...w.env, freeze }, `freeze web's production ${freeze.cron} (${timeZone}) for ${minutes}m`);
  try {
    await frozenRelease(w, timings, version, windowStart.getTime(), windowEnd);
  } finally {
    await changePlatform(w, { ...w.env, freeze: undefined }, 'lift the e2e freeze');
  }
}

/** A release during the freeze: it stops before production, and a person promotes it again after the window. */
async function frozenRelease(w: World, timings: ReleaseTiming[], version: string, windowStart: number, windowEnd: number): Promise<void> {
  const canary = pipelineOf(w, 'web')[2].clusters[0];
  const before = await deployedImage(w, canary, 'web');
  const t0 = await pushRelease(w, 'web', version);
  const timing = await followRelease(w, 'web', version, t0, 180_000, PIPELINES.web);
  const freight = (await freightOf(w, 'web', version)).metadata.name;
  const failed = await waitFor(`the frozen promotion of web:${version} into prod-canary to fail`, 240_000, async () => {
    const p = (await promotionsOf(w, 'web', 'prod-canary', freight))[0];
    return p?.status?.phase === 'Failed' || p?.status?.phase === 'Errored' ? p : p?.status?.phase === 'Succeeded' ? Promise.reject(new Settled(`Promotion ${p.metadata.name} into web/prod-canary (created ${p.metadata.creationTimestamp}) succeeded; `
      + `the freeze window was ${new Date(windowStart).toISOString()} to ${new Date(windowEnd).toISOString()}`)) : undefined;
  }, 1000);
  if (!/freeze/.test(failed.status.message ?? '')) throw new Error(`Promotion ${failed.metadata.name} failed, but not at the freeze: ${failed.status.message}`);
  log(`  Promotion ${failed.metadata.name} into web/prod-canary ${failed.status.phase}: ${failed.status.message}`);
  const during = await deployedImage(w, canary, 'web');
  if (during !== before) throw new Error(`Deployment web/web on ${canary} changed to ${during} during the freeze`);
  const wait = windowEnd - Date.now() + 5_000;
  if (wait > 0) {
    log(`  waiting ${(wait / 1000).toFixed(0)}s for the window to end`);
    await new Promise(r => setTimeout(r, wait));
  }
  const resumedAt = Date.now();
  await w.hub.create(promotion('web', 'prod-canary', freight));
  const prod = await followRelease(w, 'web', version, resumedAt, 240_000, pipelineOf(w, 'web').slice(2));
  timings.push({ ...timing, release: `web:${version} (freeze)`, stages: [...timing.stages, ...prod.stages.map(s => ({ ...s, outcome: `${s.outcome} (promoted again ${((resumedAt - t0) / 1000).toFixed(0)}s after the push)` }))] });
}

/** Scenario 5: promoting the previous Freight into production puts the previous image back, with a release record. */
export async function scenarioRollback(w: World, timings: ReleaseTiming[], to = '1.1.0'): Promise<void> {
  const [canary, broad] = pipelineOf(w, 'web').slice(2).map(s => s.clusters[0]);
  const current = await deployedImage(w, canary, 'web');
  const previous = await freightOf(w, 'web', to);
  const t0 = Date.now();
  for (const { stage } of pipelineOf(w, 'web').slice(2)) {
    // the second ring's rollback is pushed while Argo CD's application controller is paused (as
    // when it falls behind): status --live must flag the cluster whose branch moved on
    const resume = stage === 'prod-broad' ? w.procs.pause('argocd-application-controller') : undefined;
    try {
      await w.hub.create(promotion('web', stage, previous.metadata.name)).catch(e => {
        throw new Error(`Promotion of web:${to} (Freight ${previous.metadata.name}) into web/${stage} refused: ${e.message}`);
      });
      if (resume) await driftWhileUnsynced(w, stage, broad, current, to);
    } finally {
      resume?.();
    }
    await waitFor(`the rollback Promotion into web/${stage}`, 180_000, async () => {
      const p = (await promotionsOf(w, 'web', stage, previous.metadata.name))[0];
      if (p?.status?.phase === 'Failed' || p?.status?.phase === 'Errored') {
        throw new Settled(`Promotion ${p.metadata.name} of web:${to} into web/${stage} ${p.status.phase}: ${p.status.message}`);
      }
      return p?.status?.phase === 'Succeeded';
    }, 1000);
    if (stage === 'prod-canary') await statusHalfRolledBack(w, canary, broad, to);
  }
  const timing = await followRelease(w, 'web', to, t0, 120_000, pipelineOf(w, 'web').slice(2));
  timings.push({ ...timing, release: `web:${to} (rollback)`, discoverySeconds: 0 });
  const record = w.repos.log('releases', 'rendered/web/prod-broad').split('\n').slice(0, 4).join(' ');
  if (!record.includes(previous.metadata.name)) throw new Error(`the release branch rendered/web/prod-broad has no commit naming Freight ${previous.metadata.name}: ${record}`);
  log(`  rolled back from ${current} to web:${to} on both production clusters; release record: ${record.slice(0, 120)}`);
  await rollForward(w);
}

/**
 * A person's promotion of older Freight holds auto-promotion of the Stage (Kargo v1.11.2
 * pkg/webhook/kubernetes/promotion/webhook.go syncHoldAnnotations: the Freight is not the
 * auto-promotion candidate), so a rollback sticks; promoting the candidate again resumes it.
 * Rolls web's production forward to the newest release, as a person ends a rollback.
 */
export async function rollForward(w: World): Promise<void> {
  const forward = await newestFreight(w, 'web');
  for (const { stage } of pipelineOf(w, 'web').slice(2)) {
    const hold = (await w.hub.get(KARGO, 'Stage', 'web', stage))?.status?.autoPromotionHolds;
    log(`  Stage web/${stage} after the rollback: auto-promotion holds ${JSON.stringify(hold ?? {})}`);
    await w.hub.create(promotion('web', stage, forward.metadata.name));
    await waitFor(`the roll-forward Promotion into web/${stage}`, 180_000, async () => {
      const p = (await promotionsOf(w, 'web', stage, forward.metadata.name))[0];
      if (p?.status?.phase === 'Failed' || p?.status?.phase === 'Errored') throw new Settled(`Promotion ${p.metadata.name} ${p.status.phase}: ${p.status.message}`);
      return p?.status?.phase === 'Succeeded';
    }, 1000);
    await waitFor(`Stage web/${stage} without an auto-promotion hold`, 60_000, async () => {
      const st = await w.hub.get(KARGO, 'Stage', 'web', stage);
      return Object.keys(st?.status?.autoPromotionHolds ?? {}).length === 0;
    }, 1000);
  }
  log(`  promoted ${forward.images?.[0]?.tag ?? forward.metadata.name} again: auto-promotion of both production Stages resumed`);
}

/**
 * Right after the ring swap, before a release is promoted into the new rings: `status` on the
 * new plan lists each moved cluster as not rendered yet in its new ring (with the branch it is
 * still rendered on) and its folder on the old ring's branch as one the app no longer targets.
 */
function statusAfterMove(w: World, moves: Array<[cluster: string, now: string, before: string]>): void {
  const run = runStatus(statusContext(w), 'after the ring swap', ['--app', 'web', '--stage', 'prod-canary,prod-broad']);
  expectExit(run, 0, 'status after the ring swap');
  const orphans = run.output.apps.find(a => a.name === 'web')!.orphans;
  for (const [cluster, now, before] of moves) {
    const c = clusterOf(run.output, 'web', now, cluster);
    if (c.state !== 'not-rendered' || !c.renderedOn?.includes(`rendered/web/${before}`)) {
      throw new Error(`status says ${cluster}, moved to Stage web/${now}, is ${c.state} (rendered on ${JSON.stringify(c.renderedOn)}); expected not rendered yet, still rendered on rendered/web/${before}`);
    }
    if (!orphans.some(o => o.branch === `rendered/web/${before}` && o.cluster === cluster && o.targetedOn.includes(`rendered/web/${now}`))) {
      throw new Error(`status does not list ${cluster}'s folder on rendered/web/${before} as no longer targeted there: orphans ${JSON.stringify(orphans)}`);
    }
  }
  log(`  status after the swap: ${moves.map(m => m[0]).join(' and ')} not rendered yet in their new rings, their old folders listed`);
}

/** Between the two rings' rollbacks, `status --has web@<to>` for production: the canary cluster has it, the broad one not (exit 1). */
async function statusHalfRolledBack(w: World, canary: string, broad: string, to: string): Promise<void> {
  await applicationHealthy(w, 'web', canary, 90_000);
  const has = runStatus(statusContext(w), `has web ${to} half rolled back`, ['--app', 'web', '--stage', 'prod-canary,prod-broad', '--has', `web@${to}`]);
  expectExit(has, 1, `status --has web@${to} with only the canary ring rolled back`);
  const answer = Object.fromEntries(clustersOf(has.output, 'web').map(c => [c.cluster, c.has]));
  if (answer[canary] !== true || answer[broad] !== false || has.output.query?.lacking !== 1) {
    throw new Error(`status --has web@${to} answered ${JSON.stringify(answer)} (lacking ${has.output.query?.lacking}); the canary ring ${canary} was rolled back to it, ${broad} not`);
  }
  log(`  status --has web@${to}: ${canary} has it, ${broad} lacks it (exit 1)`);
}

/** The app's newest Freight: what Kargo auto-promotes. */
async function newestFreight(w: World, app: string): Promise<Obj> {
  const all = await w.hub.list(KARGO, 'Freight', app);
  return all.sort((a, b) => Date.parse(b.metadata.creationTimestamp) - Date.parse(a.metadata.creationTimestamp))[0];
}

/**
 * With Argo CD's application controller paused, Kargo pushes the rollback of a Stage to its
 * branch but Argo CD cannot sync it: `status --live` must say the cluster drifts (Git records
 * 1.1.0, Argo CD has synced what ran before) and exit 1.
 */
async function driftWhileUnsynced(w: World, stage: string, cluster: string, running: string | undefined, to: string): Promise<void> {
  await waitFor(`Kargo to push web:${to} to rendered/web/${stage}`, 120_000, async () =>
    w.repos.show('releases', `rendered/web/${stage}`, `${cluster}/manifests.yaml`)?.includes(`e2e/web:${to}`), 1000);
  const live = runStatus(statusContext(w), 'live while Argo CD is paused', ['--app', 'web', '--stage', stage, '--live', '--kubeconfig', await statusReader(w)]);
  expectExit(live, 1, `status --live with rendered/web/${stage} ahead of Argo CD`);
  const c = clusterOf(live.output, 'web', stage, cluster);
  const was = running?.split(':').pop();
  const drift = c.live?.drift ?? [];
  if (!drift.some(d => d.includes(`Git records web ${to}`) && d.includes(`Argo CD has synced web ${was}`))) {
    throw new Error(`status --live did not flag ${cluster} (Git records web ${to}, Argo CD has synced web ${was}); its drift: ${JSON.stringify(drift)}`);
  }
  log(`  status --live flags ${cluster}: ${drift.join('; ')}`);
}

/**
 * Scenario 6: the two production clusters swap rings (a fleet change: a label in the platform
 * definition). Both keep running what they ran through the change; the next release reaches
 * the new canary first (e2e-prod-2 the first time), then the other. `during` runs right after
 * the change lands.
 */
export async function scenarioWaveMove(w: World, timings: ReleaseTiming[], version = '1.4.0', during?: (moved: string[]) => Promise<void>): Promise<void> {
  const images = await Promise.all(['e2e-prod-1', 'e2e-prod-2'].map(c => deployedImage(w, c, 'web')));
  // running through the move: the same Deployment (Argo CD's self-heal recreates a deleted one
  // within a second, its pods anew), with an available replica, at every sample
  const prod = ['e2e-prod-1', 'e2e-prod-2'];
  const uids = await Promise.all(prod.map(async c => (await deploymentOf(w, c, 'web'))?.metadata.uid));
  let watching = true;
  const gaps: string[] = [];
  const watcher = (async () => {
    while (watching) {
      for (const [i, c] of prod.entries()) {
        const d = await deploymentOf(w, c, 'web').catch(() => undefined);
        const at = new Date().toISOString();
        if (!d) gaps.push(`${c}: no Deployment web/web at ${at}`);
        else if (d.metadata.uid !== uids[i]) gaps.push(`${c}: Deployment web/web was replaced (uid ${uids[i]}, now ${d.metadata.uid}) at ${at}`);
        else if (!((d.status?.availableReplicas ?? 0) >= 1)) gaps.push(`${c}: Deployment web/web has no available replica at ${at}`);
      }
      await new Promise(r => setTimeout(r, 500));
    }
  })();
  const swap = (ring: string) => ring === 'canary' ? 'broad' : 'canary';
  const rings = Object.fromEntries(Object.entries(w.env.rings).map(([c, r]) => [c, swap(r)]));
  const moves = Object.keys(rings).sort().map(c => [c, `prod-${rings[c]}`, `prod-${w.env.rings[c]}`] as [string, string, string]);
  try {
    await changePlatform(w, { ...w.env, rings }, moves.map(([c, now]) => `${c} to ${now}`).join(', '));
    await during?.(moves.map(m => m[0]));
    statusAfterMove(w, moves);
    // Argo CD reconciles the moved Applications (new branch and Stage labels)
    await new Promise(r => setTimeout(r, 15_000));
    const t0 = await pushRelease(w, 'web', version);
    timings.push({ ...await followRelease(w, 'web', version, t0, 300_000), release: `web:${version} (after the ring swap)` });
  } finally {
    watching = false;
    await watcher;
  }
  if (gaps.length > 0) throw new Error(`a moved cluster stopped running web: ${gaps.slice(0, 3).join('; ')}`);
  log(`  both clusters kept running (${images.join(', ')}) through the move and ended on web:${version} in their new rings`);
}
