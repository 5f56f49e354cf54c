import { compare, FLEET_GROUP, ManifestObject, ManifestSet } from './manifest-set';
import { WindowTarget } from './sync-windows';
import { autoPromotedStages } from '../contracts/auto-promotion';
import { PlatformLabels } from '../contracts/labels';
import { VERIFICATION_CHECKS_ANNOTATION } from '../contracts/release-names';
import { ApplicationsSyncPolicy } from '../testkit/model/applicationset-ownership';
import { modelApplications } from '../testkit/model/argocd-applications';

/**
 * How an app is released, read back from synthesized objects only (never from the constructs),
 * so that two synthesized trees can be compared whatever version of the library produced them.
 */
export interface AppModel {
  readonly name: string;
  /** Pipeline stages in promotion order. */
  readonly stages: StageModel[];
  /** What the Warehouse(s) subscribe to. */
  readonly artifacts: ArtifactModel[];
  /** Every cluster the app deploys to, sorted. */
  readonly clusters: string[];
  /** The lead time the Kargo Project records (`gitops-platform.io/lead-time`), if it records one. */
  readonly leadTime?: string;
  /** The Kargo Project (the namespace of the app's Stages). */
  readonly project?: string;
}

/** A pipeline stage (the `gitops-platform.io/pipeline-stage` label of its Kargo Stages). */
export interface StageModel {
  readonly name: string;
  /** Whether the stage serves production (see `ModelOptions`). */
  readonly production: boolean;
  /** Waves in promotion order. */
  readonly waves: WaveModel[];
}

/**
 * A wave: the Kargo Stages of one pipeline stage that are promoted from the same upstreams (the
 * wave's central Stage and the per-cluster Stages of clusters with their own Argo CD).
 */
export interface WaveModel {
  readonly name: string;
  readonly kargoStages: string[];
  readonly clusters: string[];
  /** `automatic` or `manual`, with ` + pull request` when a step opens one; sorted, unique. */
  readonly gates: string[];
  /** Soaks: the Stage's soak annotation and `requiredSoakTime` values, sorted, unique. */
  readonly soak: string[];
  /** Verification AnalysisTemplates, named without the Kargo Stage prefix; sorted, unique. */
  readonly checks: string[];
  /** `targetRevision` of the wave's Applications; sorted, unique. */
  readonly releaseBranches: string[];
  /** The Argo CD Applications the wave updates (for sync windows). */
  readonly targets: WindowTarget[];
  /** Where each cluster's release is rendered and which Application deploys it, by cluster. */
  readonly releases: ReleaseTarget[];
}

/**
 * One cluster of a wave: the Kargo Stage that renders its release, the release branch and folder
 * it is rendered into, and the Argo CD Application that deploys it (what `status` reads back).
 */
export interface ReleaseTarget {
  readonly cluster: string;
  readonly kargoStage: string;
  /** The release repository. */
  readonly repoUrl: string;
  /** `rendered/<app>/<Kargo Stage>`. */
  readonly branch: string;
  /** The cluster's folder on the branch. */
  readonly path: string;
  readonly application: string;
  /** The namespace of the Application (Argo CD's). */
  readonly applicationNamespace: string;
  /** Whether the Application is in the cluster's own Argo CD (a per-cluster file), not the hub's. */
  readonly ownArgoCd: boolean;
}

/** One Warehouse subscription. */
export interface ArtifactModel {
  /** `image <repo>`, `chart <repo> <name>` or `git <repo>`. */
  readonly id: string;
  /** How the version is chosen, e.g. `SemVer ^1.0.0`. */
  readonly versioning: string;
}

/** Which stages count as production. */
export interface ModelOptions {
  /**
   * Pipeline stages that are production, by name.
   * @default - stages whose clusters all carry a production tier label; by name (`prod*`) when the clusters are unknown
   */
  readonly productionStages?: string[];
  /**
   * Values of the `gitops-platform.io/tier` cluster label that mean production.
   * @default ['prod', 'production']
   */
  readonly productionTiers?: string[];
  /**
   * The central Argo CD ApplicationSet controller's `--policy`: what the plan says a change does to
   * the Applications (moved, left behind, blocked).
   * @default 'sync'
   */
  readonly applicationSetPolicy?: ApplicationsSyncPolicy;
}

const uniqueSorted = (values: Iterable<string>): string[] => [...new Set(values)].sort(compare);

/** Reads the release model of every app in a synthesized set (groups with a Kargo Project or Stage). */
export function readModels(set: ManifestSet, options: ModelOptions = {}): Map<string, AppModel> {
  const clusterSecrets = set.ofGroup(FLEET_GROUP).filter((o) => o.obj?.kind === 'Secret');
  const tierOf = new Map<string, string>();
  const serverOf = new Map<string, string>();
  for (const { obj } of clusterSecrets) {
    const name = obj.metadata?.labels?.[PlatformLabels.CLUSTER] ?? obj.stringData?.name;
    if (typeof name !== 'string') continue;
    tierOf.set(name, obj.metadata?.labels?.[PlatformLabels.TIER] ?? '');
    if (typeof obj.stringData?.server === 'string') serverOf.set(name, obj.stringData.server);
  }
  const models = new Map<string, AppModel>();
  for (const group of set.groups()) {
    const objects = set.ofGroup(group);
    if (group === FLEET_GROUP || !objects.some((o) => isKargo(o, 'Project') || isKargo(o, 'Stage'))) continue;
    models.set(group, readApp(group, objects, { clusterSecrets: clusterSecrets.map((o) => o.obj), tierOf, serverOf, options }));
  }
  return models;
}

interface FleetFacts {
  /** The fleet's cluster Secrets, which ApplicationSet cluster generators select from. */
  readonly clusterSecrets: any[];
  readonly tierOf: Map<string, string>;
  readonly serverOf: Map<string, string>;
  readonly options: ModelOptions;
}

function isKargo(o: ManifestObject, kind: string): boolean {
  return o.obj?.kind === kind && String(o.obj?.apiVersion ?? '').startsWith('kargo.akuity.io/');
}

function isArgo(o: ManifestObject, kind: string): boolean {
  return o.obj?.kind === kind && String(o.obj?.apiVersion ?? '').startsWith('argoproj.io/');
}

interface KargoStageFacts {
  readonly name: string;
  readonly pipelineStage: string;
  readonly upstreams: string[];
  readonly soak: string[];
  readonly gates: string[];
  readonly checks: string[];
  readonly clusters: string[];
  readonly releaseBranches: string[];
  readonly targets: WindowTarget[];
  readonly releases: ReleaseTarget[];
  /** Whether all its Applications are in per-cluster files. */
  readonly perCluster: boolean;
}

function readApp(name: string, objects: ManifestObject[], fleet: FleetFacts): AppModel {
  const autoPromoted = autoPromotedStagesOf(objects);
  const tasks = new Map<string, any[]>(objects.filter((x) => isKargo(x, 'PromotionTask')).map((x) => [x.obj.metadata?.name, x.obj.spec?.steps ?? []]));
  const argoByStage = argoEntriesByStage(objects, fleet);
  const templateChecks = new Map<string, string>(objects.filter((x) => x.obj?.kind === 'AnalysisTemplate')
    .flatMap((x) => { const held = x.obj.metadata?.annotations?.[VERIFICATION_CHECKS_ANNOTATION]; return typeof held === 'string' ? [[String(x.obj.metadata?.name), held]] : []; }));
  const stages = objects.filter((x) => isKargo(x, 'Stage')).map((o) => kargoStageFacts(o, { tasks, autoPromoted, argoByStage, fleet, templateChecks }));
  const stageModels = stageModelsOf(stages, fleet);
  const artifacts: ArtifactModel[] = objects.filter((x) => isKargo(x, 'Warehouse'))
    .flatMap((o) => (o.obj.spec?.subscriptions ?? []).map(artifactOf))
    .sort((a, b) => compare(a.id, b.id));

  return {
    name,
    stages: stageModels,
    artifacts,
    clusters: uniqueSorted(stageModels.flatMap((s) => s.waves.flatMap((w) => w.clusters))),
    leadTime: leadTimeOf(objects),
    project: objects.find((x) => isKargo(x, 'Project'))?.obj.metadata?.name ?? objects.find((x) => isKargo(x, 'Stage'))?.obj.metadata?.namespace,
  };
}

function leadTimeOf(objects: ManifestObject[]): string | undefined {
  const value = objects.find((x) => isKargo(x, 'Project'))?.obj.metadata?.annotations?.[PlatformLabels.LEAD_TIME];
  return typeof value === 'string' ? value : undefined;
}

/** The Kargo Stages the app's ProjectConfig auto-promotes into (the one reading of `autoPromotedStages`). */
function autoPromotedStagesOf(objects: ManifestObject[]): Set<string> {
  return new Set(objects.filter((x) => isKargo(x, 'ProjectConfig')).flatMap((o) => [...autoPromotedStages(o.obj.spec)]));
}

/**
 * One Application as its Kargo Stage sees it: the Stage label it carries, where it deploys and
 * from which branch; `perCluster` when it is an Application object of a per-cluster file.
 */
interface ArgoEntry {
  readonly stage: string;
  readonly cluster?: string;
  readonly branches: string[];
  readonly target: WindowTarget;
  readonly perCluster: boolean;
  /** Where it deploys from, and its own namespace. */
  readonly release?: Pick<ReleaseTarget, 'repoUrl' | 'branch' | 'path' | 'applicationNamespace'>;
}

/**
 * The Applications of an app by the Kargo Stage label they carry: Application objects as they
 * are, and every Application an ApplicationSet's generators give (see `applicationSetEntries`),
 * so one ApplicationSet may serve several Stages; an ApplicationSet's own Stage label applies to
 * templates without one (ApplicationSets of one wave each).
 */
function argoEntriesByStage(objects: ManifestObject[], fleet: FleetFacts): Map<string, ArgoEntry[]> {
  const byStage = new Map<string, ArgoEntry[]>();
  const add = (e: ArgoEntry) => byStage.set(e.stage, [...(byStage.get(e.stage) ?? []), e]);
  for (const o of objects.filter((x) => isArgo(x, 'Application') || isArgo(x, 'ApplicationSet'))) {
    if (o.obj.kind === 'ApplicationSet') {
      applicationSetEntries(o.obj, fleet).forEach(add);
      continue;
    }
    const stage = o.obj.metadata?.labels?.[PlatformLabels.STAGE];
    if (typeof stage !== 'string') continue;
    const cluster = o.obj.metadata?.labels?.[PlatformLabels.CLUSTER] ?? o.cluster;
    const destination = o.obj.spec?.destination ?? {};
    add({
      stage,
      cluster: cluster || undefined,
      branches: revisionsOf(o.obj.spec),
      target: {
        application: String(o.obj.metadata?.name ?? ''),
        namespace: String(destination.namespace ?? ''),
        clusters: uniqueSorted([cluster, destination.name, destination.server].filter((c): c is string => typeof c === 'string' && c !== '')),
      },
      perCluster: o.cluster !== '',
      release: releaseSource([o.obj.spec?.source, ...(o.obj.spec?.sources ?? [])], o.obj.metadata?.namespace),
    });
  }
  return byStage;
}

/**
 * The Applications an ApplicationSet generates, expanded by the test kit as Argo CD would
 * (`modelApplications`: the cluster Secrets its generators select, their params and `values`),
 * so the command line and the controller model cannot disagree on which Applications exist.
 */
function applicationSetEntries(appSet: any, fleet: FleetFacts): ArgoEntry[] {
  const ownStage = appSet.metadata?.labels?.[PlatformLabels.STAGE];
  const entries: ArgoEntry[] = [];
  for (const app of modelApplications([...fleet.clusterSecrets, appSet])) {
    const stage = app.labels[PlatformLabels.STAGE] ?? ownStage;
    const cluster = app.labels[PlatformLabels.CLUSTER] ?? app.destination.name;
    if (typeof stage !== 'string' || typeof cluster !== 'string') continue;
    entries.push({
      stage,
      cluster,
      branches: app.sources.map((s) => s.targetRevision).filter((r): r is string => typeof r === 'string'),
      target: {
        application: app.name,
        namespace: String(app.destination.namespace ?? ''),
        clusters: uniqueSorted([cluster, fleet.serverOf.get(cluster) ?? cluster]),
      },
      perCluster: false,
      release: releaseSource(app.sources, app.namespace),
    });
  }
  return entries;
}

interface StageReadContext {
  readonly tasks: Map<string, any[]>;
  readonly autoPromoted: Set<string>;
  readonly argoByStage: Map<string, ArgoEntry[]>;
  readonly fleet: FleetFacts;
  /** The checks a generated AnalysisTemplate holds (its annotation), by template name. */
  readonly templateChecks: Map<string, string>;
}

/**
 * The checks of a Stage's verification: those a generated template holds, else (a template of
 * the platform's own, or output from before one template per Stage) the template's name without
 * the Stage's prefix.
 */
function stageChecks(stage: any, stageName: string, templateChecks: Map<string, string>): string[] {
  return uniqueSorted((stage.spec?.verification?.analysisTemplates ?? []).flatMap((t: any) => {
    const name = String(t?.name ?? '');
    const held = (t?.kind ?? 'AnalysisTemplate') === 'AnalysisTemplate' ? templateChecks.get(name) : undefined;
    return held !== undefined ? held.split(',') : [name.replace(`${stageName}-`, '')];
  }));
}

function kargoStageFacts(o: ManifestObject, ctx: StageReadContext): KargoStageFacts {
  const stage = o.obj;
  const stageName: string = stage.metadata?.name ?? '';
  const steps: any[] = stage.spec?.promotionTemplate?.spec?.steps ?? [];
  const usesOf = (list: any[]): string[] => list.flatMap((s) => (s?.task?.name ? usesOf(ctx.tasks.get(s.task.name) ?? []) : [String(s?.uses ?? '')]));
  const gates = [ctx.autoPromoted.has(stageName) ? 'automatic' : 'manual'];
  if (usesOf(steps).includes('git-open-pr')) gates.push('pull request');
  const freight: any[] = stage.spec?.requestedFreight ?? [];
  const argo = ctx.argoByStage.get(stageName) ?? [];
  return {
    name: stageName,
    pipelineStage: stage.metadata?.labels?.[PlatformLabels.PIPELINE_STAGE] ?? stageName,
    upstreams: uniqueSorted(freight.flatMap((f) => f?.sources?.stages ?? [])),
    // the soak this library writes (an annotation, waited in the upstreams' checks) or Kargo's own
    soak: uniqueSorted([stage.metadata?.annotations?.[PlatformLabels.SOAK], ...freight.map((f) => f?.sources?.requiredSoakTime)]
      .filter((s): s is string => typeof s === 'string')),
    gates,
    checks: stageChecks(stage, stageName, ctx.templateChecks),
    clusters: uniqueSorted(argo.flatMap((a) => (a.cluster ? [a.cluster] : []))),
    releaseBranches: uniqueSorted(argo.flatMap((a) => a.branches)),
    targets: argo.map((a) => a.target),
    releases: argo.flatMap((a) => (a.cluster && a.release
      ? [{ cluster: a.cluster, kargoStage: stageName, application: a.target.application, ownArgoCd: a.perCluster, ...a.release }] : [])),
    perCluster: argo.length > 0 && argo.every((a) => a.perCluster),
  };
}

/** Promotion depth of every Kargo Stage: Stages fed by the Warehouse only are at depth 0. */
function promotionDepths(stages: KargoStageFacts[]): Map<string, number> {
  const byName = new Map(stages.map((s) => [s.name, s]));
  const depth = new Map<string, number>();
  const depthOf = (s: KargoStageFacts, seen: Set<string>): number => {
    if (depth.has(s.name)) return depth.get(s.name)!;
    if (seen.has(s.name)) return 0; // a cycle is the validator's business, not the diff's
    seen.add(s.name);
    const ups = s.upstreams.map((u) => byName.get(u)).filter((u): u is KargoStageFacts => u !== undefined);
    const d = ups.length === 0 ? 0 : 1 + Math.max(...ups.map((u) => depthOf(u, seen)));
    depth.set(s.name, d);
    return d;
  };
  stages.forEach((s) => depthOf(s, new Set()));
  return depth;
}

/** One wave: the Kargo Stages of a pipeline stage that share their upstreams. */
function waveOf(members: KargoStageFacts[], depth: Map<string, number>): { depth: number; wave: WaveModel } {
  const names = members.map((m) => (m.perCluster && m.clusters.length === 1 && m.name.endsWith(`-${m.clusters[0]}`)
    ? m.name.slice(0, -(m.clusters[0].length + 1)) : m.name));
  const waveName = [...names].sort((a, b) => a.length - b.length || compare(a, b))[0];
  return {
    depth: Math.min(...members.map((m) => depth.get(m.name) ?? 0)),
    wave: {
      name: waveName,
      kargoStages: uniqueSorted(members.map((m) => m.name)),
      clusters: uniqueSorted(members.flatMap((m) => m.clusters)),
      gates: uniqueSorted(members.map((m) => m.gates.join(' + '))),
      soak: uniqueSorted(members.flatMap((m) => m.soak)),
      checks: uniqueSorted(members.flatMap((m) => m.checks)),
      releaseBranches: uniqueSorted(members.flatMap((m) => m.releaseBranches)),
      targets: members.flatMap((m) => m.targets),
      releases: members.flatMap((m) => m.releases).sort((a, b) => compare(a.cluster, b.cluster) || compare(a.kargoStage, b.kargoStage)),
    } as WaveModel,
  };
}

function stageModelsOf(stages: KargoStageFacts[], fleet: FleetFacts): StageModel[] {
  const depth = promotionDepths(stages);
  const wavesByStage = new Map<string, Map<string, KargoStageFacts[]>>();
  for (const s of stages) {
    const waves = wavesByStage.get(s.pipelineStage) ?? new Map<string, KargoStageFacts[]>();
    const key = s.upstreams.join(',');
    waves.set(key, [...(waves.get(key) ?? []), s]);
    wavesByStage.set(s.pipelineStage, waves);
  }
  const stageModels: Array<StageModel & { depth: number }> = [...wavesByStage.entries()].map(([stageName, groups]) => {
    const waves = [...groups.values()].map((members) => waveOf(members, depth))
      .sort((a, b) => a.depth - b.depth || compare(a.wave.name, b.wave.name));
    const clusters = uniqueSorted(waves.flatMap((w) => w.wave.clusters));
    return {
      name: stageName,
      production: isProduction(stageName, clusters, fleet),
      waves: waves.map((w) => w.wave),
      depth: waves[0]?.depth ?? 0,
    };
  }).sort((a, b) => a.depth - b.depth || compare(a.name, b.name));
  return stageModels.map(({ depth: _depth, ...s }) => s);
}

function isProduction(stage: string, clusters: string[], fleet: FleetFacts): boolean {
  if (fleet.options.productionStages) return fleet.options.productionStages.includes(stage);
  const tiers = fleet.options.productionTiers ?? ['prod', 'production'];
  const known = clusters.filter((c) => fleet.tierOf.has(c));
  if (clusters.length > 0 && known.length === clusters.length) return known.every((c) => tiers.includes(fleet.tierOf.get(c)!));
  return /^prod/.test(stage);
}

/** The first source that deploys a branch of a repository. */
function releaseSource(sources: any[], namespace: unknown): ArgoEntry['release'] {
  const source = sources.find((s) => typeof s?.repoURL === 'string' && typeof s?.targetRevision === 'string');
  if (!source) return undefined;
  return { repoUrl: source.repoURL, branch: source.targetRevision, path: String(source.path ?? ''), applicationNamespace: String(namespace ?? '') };
}

function revisionsOf(spec: any): string[] {
  const sources: any[] = [spec?.source, ...(spec?.sources ?? [])].filter((s) => s && typeof s.targetRevision === 'string');
  return sources.map((s) => s.targetRevision);
}

function artifactOf(subscription: any): ArtifactModel {
  const describe = (fields: Array<[string, unknown]>) => fields
    .filter(([, v]) => v !== undefined && v !== '' && !(Array.isArray(v) && v.length === 0))
    .map(([k, v]) => `${k} ${Array.isArray(v) ? v.join(' ') : String(v)}`).join(', ');
  if (subscription?.image) {
    const s = subscription.image;
    return {
      id: `image ${s.repoURL}`,
      versioning: describe([
        ['strategy', s.imageSelectionStrategy ?? 'SemVer'], ['constraint', s.constraint ?? s.semverConstraint],
        ['tags', s.allowTagsRegexes ?? s.allowTags], ['ignoring', s.ignoreTagsRegexes ?? s.ignoreTags], ['platform', s.platform],
      ]),
    };
  }
  if (subscription?.chart) {
    const s = subscription.chart;
    return { id: `chart ${s.repoURL}${s.name ? ` ${s.name}` : ''}`, versioning: describe([['constraint', s.semverConstraint]]) };
  }
  if (subscription?.git) {
    const s = subscription.git;
    return {
      id: `git ${s.repoURL}`,
      versioning: describe([
        ['strategy', s.commitSelectionStrategy ?? 'NewestFromBranch'], ['branch', s.branch], ['constraint', s.semverConstraint],
        ['tags', s.allowTagsRegexes ?? s.allowTags], ['paths', s.includePaths], ['excluding', s.excludePaths],
      ]),
    };
  }
  const kind = Object.keys(subscription ?? {})[0] ?? 'unknown';
  return { id: `${kind} ${JSON.stringify(subscription?.[kind] ?? {})}`, versioning: '' };
}
