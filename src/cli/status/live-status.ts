import { ReleaseReads } from './fleet-status';
import { KubeApi } from './kube-api';
import { BranchCommit, HistoryOptions, readCommit } from './release-history';
import { normalizeRepo } from './status-filters';
import { versionText } from './status-markdown';
import { AppStatus, ArtifactOutput, ClusterStatus, clustersOf, LiveCluster } from './status-model';
import { PlatformLabels } from '../../contracts/labels';
import { ReleaseRecord } from '../../contracts/release-record';
import { describe } from '../../util/errors';
import { UsageError } from '../synth-tree';

// `status --live`: what the hub runs, next to what Git records. Argo CD v3.5.1 Applications
// (`pkg/apis/application/v1alpha1/types.go`: `status.sync.status` and `.revision`, the revision
// compared; `status.operationState.syncResult.revision` and `status.history[].revision`, what
// was deployed; `status.health.status`) and Kargo v1.11.2 Stages (`api/v1alpha1/stage_types.go`:
// `status.freightHistory[0].items`, the current Freight by origin; `status.lastPromotion` with
// its `stepExecutionMetadata`).

const ARGO = '/apis/argoproj.io/v1alpha1';
const KARGO = '/apis/kargo.akuity.io/v1alpha1';
/** The alias of the promotion step that commits (kargo/promotion-steps.ts): Skipped when the render changed nothing. */
const COMMIT_STEP = 'commit';

/** The objects of a resource the selected apps need, by `namespace/name`. */
async function listAll(api: KubeApi, base: string, resource: string, namespaces: string[], selector: string): Promise<Map<string, any>> {
  let { items, status } = await api.list(`${base}/${resource}`, selector);
  if (status === 404) {
    throw new UsageError(describe('the API server', `${resource}.${base.slice(6)}`, 'serves no such resource',
      `pass the hub's context (--context), where ${base === ARGO ? 'Argo CD' : 'Kargo'} runs`, String));
  }
  if (status === 403) {
    // not allowed to list across namespaces: list each namespace the apps use
    items = [];
    for (const ns of namespaces) {
      const page = await api.list(`${base}/namespaces/${ns}/${resource}`, selector);
      if (page.status === 403) throw new UsageError(describe(`listing ${resource} in namespace`, ns, 'is forbidden', `grant get and list on ${resource} (read only)`, String));
      items.push(...page.items);
    }
  }
  return new Map(items.map((o) => [`${o.metadata?.namespace}/${o.metadata?.name}`, o]));
}

/** Adds the live state to every selected cluster. */
export async function addLive(apps: AppStatus[], api: KubeApi, reads: ReleaseReads, history: HistoryOptions): Promise<AppStatus[]> {
  const names = apps.map((a) => a.name);
  const selector = names.length <= 50 ? `${PlatformLabels.APP} in (${names.join(',')})` : PlatformLabels.APP;
  const clusters = apps.flatMap(clustersOf);
  const hubNamespaces = [...new Set(clusters.filter((c) => !c.ownArgoCd).map((c) => c.applicationNamespace))].sort();
  const applications = hubNamespaces.length > 0 ? await listAll(api, ARGO, 'applications', hubNamespaces, selector) : new Map();
  const stages = await listAll(api, KARGO, 'stages', [...new Set(apps.map((a) => a.project))].sort(), selector);
  const out: AppStatus[] = [];
  for (const app of apps) {
    const lookup = commitLookup(app, reads, history);
    const live = async (c: ClusterStatus) => ({ ...c, live: await liveOf(app, c, { applications, stages }, lookup) });
    const waves = async (s: AppStatus['stages'][number]) => Promise.all(s.waves.map(async (w) => ({ ...w, clusters: await Promise.all(w.clusters.map(live)) })));
    out.push({ ...app, stages: await Promise.all(app.stages.map(async (s) => ({ ...s, waves: await waves(s) }))) });
  }
  return out;
}

type Lookup = (c: ClusterStatus, id: string) => Promise<BranchCommit | undefined>;

/** A commit of a cluster's branch: from the history read, else read from the repository. */
function commitLookup(app: AppStatus, reads: ReleaseReads, options: HistoryOptions): Lookup {
  return async (c, id) => {
    const repo = app.releaseRepos.map((r) => reads.get(normalizeRepo(r))).find((r) => r?.histories.has(c.branch));
    if (!repo) return undefined;
    const known = repo.histories.get(c.branch)!.commits.find((x) => x.id === id);
    return known ?? readCommit(repo.objects, id, c.branch, options);
  };
}

/** The revision whose manifests the cluster runs: the one compared when Synced, else the last one synced. */
export function syncedRevision(application: any): string | undefined {
  const s = application?.status ?? {};
  if (s.sync?.status === 'Synced' && s.sync?.revision) return s.sync.revision;
  const history: any[] = s.history ?? [];
  return s.operationState?.syncResult?.revision || history[history.length - 1]?.revision || undefined;
}

/** The Stage's current Freight (its newest successful promotion's): the first item of `freightHistory[0]`. */
export function currentFreight(stage: any): { name: string } | undefined {
  const items = stage?.status?.freightHistory?.[0]?.items ?? {};
  const first: any = Object.values(items)[0];
  return first?.name ? { name: String(first.name) } : undefined;
}

/** Whether the Stage's last promotion was of `freight` and committed nothing (its render equalled the branch). */
function committedNothing(stage: any, freight: string): boolean {
  const last = stage?.status?.lastPromotion;
  if (last?.freight?.name !== freight) return false;
  return (last.status?.stepExecutionMetadata ?? []).some((s: any) => s?.alias === COMMIT_STEP && s?.status === 'Skipped');
}

/** The hub's Applications and Stages, by `namespace/name`. */
interface Hub {
  readonly applications: Map<string, any>;
  readonly stages: Map<string, any>;
}

async function liveOf(app: AppStatus, c: ClusterStatus, { applications, stages }: Hub, lookup: Lookup): Promise<LiveCluster> {
  const drift: string[] = [];
  const base = { application: c.application, namespace: c.applicationNamespace };
  const stage = stages.get(`${app.project}/${c.kargoStage}`);
  const freight = currentFreight(stage);
  if (!stage) {drift.push(`the hub has no Kargo Stage ${app.project}/${c.kargoStage}`);} else if (c.release && !freight) {drift.push(`Stage ${c.kargoStage} has no Freight, the branch says ${freightName(c.release)}`);} else if (c.release && freight && freight.name !== c.release.freight && !committedNothing(stage, freight.name)) {
    drift.push(`Stage ${c.kargoStage} says Freight ${freight.name.slice(0, 7)}, the branch says ${freightName(c.release)}`);
  }
  const stageFreight = freight ? { stageFreight: freight.name } : {};
  if (c.ownArgoCd) return { ...base, argoCd: 'own-argo-cd', ...stageFreight, drift };
  const a = applications.get(`${c.applicationNamespace}/${c.application}`);
  if (!a) return { ...base, argoCd: 'missing', ...stageFreight, drift: [`the hub has no Application ${c.applicationNamespace}/${c.application}`, ...drift] };
  const synced = syncedRevision(a);
  if (c.state === 'rendered' && c.head && synced && synced !== c.head) {
    const message = await revisionDrift(app.artifacts, c, synced, lookup);
    if (message) drift.unshift(message);
  }
  return { ...base, argoCd: 'found', sync: a.status?.sync?.status, health: a.status?.health?.status, syncedRevision: synced, ...stageFreight, drift };
}

/** Why the revision Argo CD synced is not what the branch records, if its manifests for the cluster differ. */
async function revisionDrift(artifacts: ArtifactOutput[], c: ClusterStatus, synced: string, lookup: Lookup): Promise<string | undefined> {
  const [head, deployed] = await Promise.all([lookup(c, c.head!), lookup(c, synced)]);
  if (!deployed) return `Argo CD has synced ${synced.slice(0, 7)}, which is not on the part of ${c.branch} read`;
  if (head && deployed.folders.get(c.path) === head.folders.get(c.path)) return undefined;
  const since = c.release ? ` since ${c.release.promotedAt.replace('T', ' ').replace(/:\d\dZ$/, 'Z')}` : '';
  return `Git records ${versions(artifacts, c.release, deployed.record)}${since}, Argo CD has synced ${versions(artifacts, deployed.record, c.release)} (${synced.slice(0, 7)})`;
}

function freightName(r: { freight: string; freightAlias?: string }): string {
  return r.freightAlias ? `${r.freight.slice(0, 7)} (${r.freightAlias})` : r.freight.slice(0, 7);
}

type Versioned = Pick<ReleaseRecord, 'freight' | 'freightAlias' | 'artifacts'>;

/** The versions of `r` that differ from `other`'s, or (none differ) its Freight. */
function versions(artifacts: ArtifactOutput[], r: Versioned | undefined, other: Versioned | undefined): string {
  if (!r) return 'no release record';
  const differing = artifacts.filter((a) => versionText(a, r) !== '' && versionText(a, r) !== versionText(a, other));
  return differing.length > 0 ? differing.map((a) => `${a.label} ${versionText(a, r)}`).join(', ') : `Freight ${freightName(r)}`;
}
