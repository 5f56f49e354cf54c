import { ApiObject } from 'cdk8s';
import { IConstruct } from 'constructs';
import { measureReleaseRepos, ReleaseRepoLoad } from './release-repo-load';
import { measureWarehouseHosts, HostLoad } from './warehouse-requests';
import { PlatformLabels } from '../contracts/labels';
import { PlatformSynthApp } from '../synth-app/platform-synth-app';
import { clusterSecrets, modelApplications, secretData } from '../testkit/model/argocd-applications';

/**
 * What the synthesized objects ask of the live controllers, counted from the objects themselves
 * (not from the definitions), so that it also holds for objects a platform adds by hand.
 * @internal
 */
export interface ControllerLoad {
  readonly argoCds: ArgoCdLoad[];
  readonly kargoShards: KargoShardLoad[];
  readonly hosts: HostLoad[];
  readonly releaseRepos: ReleaseRepoLoad[];
  readonly analysisTemplates: AnalysisTemplateLoad;
}

/** One Argo CD instance: the hub (per namespace of its ApplicationSets) or one cluster's own. @internal */
export interface ArgoCdLoad {
  /** `hub (argocd)` or `cluster <name>` */
  readonly instance: string;
  readonly applicationSets: number;
  /** Applications the instance's application controller reconciles (generated and written directly). */
  readonly applications: number;
  /**
   * ApplicationSets with a `clusters` generator: the ApplicationSet controller requeues every
   * one of them on any change of any cluster Secret (argo-cd v3.5.1
   * `applicationset/controllers/clustereventhandler.go` `queueRelatedAppGenerators`).
   */
  readonly requeuedPerClusterSecretChange: number;
  /** Applications those requeued ApplicationSets render again on one cluster Secret change. */
  readonly renderedPerClusterSecretChange: number;
  readonly clusters: number;
  /** Per application-controller shard (the cluster Secret's `shard`; `-` for unset). */
  readonly shards: { readonly shard: string; readonly applications: number; readonly clusters: number }[];
}

/** One Kargo controller shard (`spec.shard`; `''` for the default controller). @internal */
export interface KargoShardLoad {
  readonly shard: string;
  readonly stages: number;
  readonly warehouses: number;
  /** AnalysisTemplate references of its Stages' verification: templates read per verification round. */
  readonly templateReferences: number;
}

/** AnalysisTemplates, and how many are the same as another of their namespace but for name, labels and delays. @internal */
export interface AnalysisTemplateLoad {
  readonly total: number;
  /**
   * Templates equal to another one of the same namespace except for their name, their labels and
   * the metrics' `initialDelay` (a soak): one template per namespace with the delay as an
   * argument would hold them.
   */
  readonly sameButDelay: number;
  /**
   * Stages whose verification references AnalysisTemplates of the objects: Kargo merges every
   * template of a Stage into one AnalysisRun (Kargo v1.11.2 `pkg/controller/stages/regular_stages.go`
   * `startVerification`, `pkg/rollouts/analysis_run_builder.go` and `analysis_template.go`
   * `flattenTemplates`), so one template per Stage holds the same metrics, as the library's
   * own output does (`verification/render.ts`).
   */
  readonly stagesWithTemplates: number;
}

const IN_CLUSTER = 'https://kubernetes.default.svc';

/** Measures the load of a list of synthesized objects (plain JSON, as in the YAML). @internal */
export function measureControllerLoad(objects: any[]): ControllerLoad {
  return {
    argoCds: measureArgoCds(objects),
    kargoShards: measureKargoShards(objects),
    hosts: measureWarehouseHosts(objects),
    releaseRepos: measureReleaseRepos(objects),
    analysisTemplates: measureTemplates(objects),
  };
}

const cache = new WeakMap<IConstruct, { count: number; load: ControllerLoad }>();

/** The kinds the load is counted from: rendering the others again would cost time for nothing. */
const MEASURED_KINDS = new Set(['Secret', 'ApplicationSet', 'Application', 'Stage', 'Warehouse', 'PromotionTask', 'AnalysisTemplate']);

/**
 * The load of every ApiObject under `root`; rendered once and kept for the root (the standards
 * and the report of one synthesis ask for it both).
 * @internal
 */
export function controllerLoadOf(root: IConstruct): ControllerLoad {
  const objects = root.node.findAll().filter((c): c is ApiObject => c instanceof ApiObject);
  const cached = cache.get(root);
  if (cached && cached.count === objects.length) return cached.load;
  // after synthesis, the documents PlatformSynthApp wrote: rendering them again costs as much
  const measured = objects.filter(o => MEASURED_KINDS.has(o.kind));
  const load = measureControllerLoad(measured.map(o => PlatformSynthApp._synthesizedJson(root, o) ?? o.toJson()));
  cache.set(root, { count: objects.length, load });
  return load;
}

function measureArgoCds(objects: any[]): ArgoCdLoad[] {
  const secrets = clusterSecrets(objects);
  const byServer = new Map<string, { name: string; shard: string; namespace: string }>();
  const byName = new Map<string, { name: string; shard: string; namespace: string }>();
  for (const s of secrets) {
    const data = secretData(s);
    const entry = { name: data.name ?? '', shard: data.shard ?? '-', namespace: s.metadata?.namespace ?? 'argocd' };
    byServer.set(data.server ?? '', entry);
    byName.set(entry.name, entry);
  }
  const instances = new Map<string, Instance>();
  const instance = (key: string) => {
    let found = instances.get(key);
    if (!found) {
      found = { appSets: [], shards: new Map(), applications: 0, clusters: new Set() };
      instances.set(key, found);
    }
    return found;
  };
  for (const s of secrets) instance(hub(s.metadata?.namespace)).clusters.add(secretData(s).name ?? '');
  for (const a of objects.filter(o => o?.kind === 'ApplicationSet')) instance(hub(a.metadata?.namespace)).appSets.push(a);
  const generated = new Map<any, number>();
  for (const app of modelApplications(objects, { placementOnly: true })) {
    if (app.origin.obj?.kind === 'ApplicationSet') generated.set(app.origin.obj, (generated.get(app.origin.obj) ?? 0) + 1);
    const dest = app.destination as { server?: string; name?: string };
    const cluster = dest.name ? byName.get(dest.name) : byServer.get(dest.server ?? '');
    const own = app.origin.obj?.kind === 'Application' && (dest.server === IN_CLUSTER || dest.name === 'in-cluster') && app.labels[PlatformLabels.CLUSTER];
    const target = instance(own ? `cluster ${app.labels[PlatformLabels.CLUSTER]}` : hub(app.namespace));
    target.applications++;
    const shardKey = own ? '-' : cluster?.shard ?? '-';
    const clusterName = own ? app.labels[PlatformLabels.CLUSTER] : cluster?.name ?? dest.name ?? dest.server ?? '';
    target.clusters.add(clusterName);
    const shard = target.shards.get(shardKey) ?? { applications: 0, clusters: new Set<string>() };
    shard.applications++;
    shard.clusters.add(clusterName);
    target.shards.set(shardKey, shard);
  }
  return [...instances.entries()].sort(([a], [b]) => instanceOrder(a, b)).map(([key, i]) => {
    const requeued = i.appSets.filter(hasClusterGenerator);
    return {
      instance: key,
      applicationSets: i.appSets.length,
      applications: i.applications,
      requeuedPerClusterSecretChange: requeued.length,
      renderedPerClusterSecretChange: requeued.reduce((n, a) => n + (generated.get(a) ?? 0), 0),
      clusters: i.clusters.size,
      shards: [...i.shards.entries()].sort(([a], [b]) => shardOrder(a, b))
        .map(([shard, s]) => ({ shard, applications: s.applications, clusters: s.clusters.size })),
    };
  });
}

interface Instance {
  readonly appSets: any[];
  readonly shards: Map<string, { applications: number; clusters: Set<string> }>;
  applications: number;
  readonly clusters: Set<string>;
}

function hub(namespace: string | undefined): string {
  return `hub (${namespace ?? 'argocd'})`;
}

/**
 * Whether the ApplicationSet controller requeues the ApplicationSet on a cluster Secret event:
 * a `clusters` generator at the top or nested in a matrix or merge generator
 * (`clustereventhandler.go` `queueRelatedAppGenerators`, `nestedGeneratorsHaveClusterGenerator`).
 */
function hasClusterGenerator(appSet: any): boolean {
  const nested = (generators: any[] | undefined): boolean => (generators ?? []).some(g =>
    g?.clusters !== undefined || nested(g?.matrix?.generators) || nested(g?.merge?.generators));
  return nested(appSet.spec?.generators);
}

function instanceOrder(a: string, b: string): number {
  const rank = (k: string) => k.startsWith('hub') ? 0 : 1;
  return rank(a) - rank(b) || a.localeCompare(b);
}

/** Numbered shards in order, then named ones, then `-` (unset). */
function shardOrder(a: string, b: string): number {
  if (a === '-' || b === '-') return Number(a === '-') - Number(b === '-');
  const na = Number(a);
  const nb = Number(b);
  if (Number.isInteger(na) && Number.isInteger(nb)) return na - nb;
  return a.localeCompare(b);
}

function measureKargoShards(objects: any[]): KargoShardLoad[] {
  const shards = new Map<string, { stages: number; warehouses: number; templateReferences: number }>();
  const shard = (name: string) => {
    const found = shards.get(name) ?? { stages: 0, warehouses: 0, templateReferences: 0 };
    shards.set(name, found);
    return found;
  };
  for (const o of objects) {
    // the defaulting webhooks sync spec.shard with the kargo.akuity.io/shard label, the field winning
    // (pkg/webhook/kubernetes/stage/webhook.go and warehouse/webhook.go, Default)
    const name = o?.spec?.shard ?? o?.metadata?.labels?.['kargo.akuity.io/shard'] ?? '';
    if (o?.kind === 'Stage') {
      const s = shard(name);
      s.stages++;
      s.templateReferences += (o.spec?.verification?.analysisTemplates ?? []).length;
    } else if (o?.kind === 'Warehouse') {
      shard(name).warehouses++;
    }
  }
  return [...shards.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([name, s]) => ({ shard: name, ...s }));
}

function measureTemplates(objects: any[]): AnalysisTemplateLoad {
  const templates = objects.filter(o => o?.kind === 'AnalysisTemplate');
  // two templates can only be the same but for labels and delays with the same namespace and
  // metric names (part of what withoutDelays keeps): spell out only the templates that share them
  const candidates = new Map<string, any[]>();
  for (const t of templates) {
    const key = JSON.stringify([t.metadata?.namespace, (t.spec?.metrics ?? []).map((m: any) => m?.name)]);
    const same = candidates.get(key);
    if (same) same.push(t);
    else candidates.set(key, [t]);
  }
  const groups = new Map<string, number>();
  for (const same of candidates.values()) {
    if (same.length < 2) continue;
    for (const t of same) {
      const key = withoutDelays(t.metadata?.namespace, t.spec);
      groups.set(key, (groups.get(key) ?? 0) + 1);
    }
  }
  const names = new Set(templates.map(t => `${t.metadata?.namespace}/${t.metadata?.name}`));
  const stagesWithTemplates = objects.filter(o => o?.kind === 'Stage' && (o.spec?.verification?.analysisTemplates ?? [])
    .some((r: any) => (r.kind ?? 'AnalysisTemplate') === 'AnalysisTemplate' && names.has(`${o.metadata?.namespace}/${r.name}`))).length;
  return { total: templates.length, sameButDelay: [...groups.values()].reduce((n, count) => n + count - 1, 0), stagesWithTemplates };
}

/**
 * A template's namespace and spec as JSON, with every label (they name the stage) and the
 * metrics' `initialDelay` dropped; JSON.stringify drops the labels as it writes, instead of
 * copying every template first. Only templates that share namespace and metric names get here
 * (at 100 clusters × 1000 apps, none of 7,000).
 */
function withoutDelays(namespace: string | undefined, spec: any): string {
  const metrics = (spec?.metrics ?? []).map((m: any) => Object.fromEntries(Object.entries(m).filter(([k]) => k !== 'initialDelay')));
  return JSON.stringify([namespace, { ...spec, metrics }], (k, v) => k === 'labels' ? undefined : v);
}
