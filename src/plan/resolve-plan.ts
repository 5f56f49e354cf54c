import { applicationsByCluster, DEFAULT_SYNC_TIMEOUT, hasOwnNamespace, ReleasePlan, stageApplicationName, StagePlan, WavePlan } from './release-plan';
import { placeSoaks } from './soak-plan';
import { splitIntoWaves } from './wave-split';
import { applicationSetName, perClusterChartId, releaseBranch } from '../contracts/release-names';
import { ArgoCdTopologyKind } from '../fleet/argocd-topology';
import { Cluster } from '../fleet/cluster';
import { IClusterFleet } from '../fleet/cluster-fleet';
import { ClusterSelector } from '../fleet/cluster-selector';
import { Requirement } from '../fleet/requirement';
import { FanOutKind } from '../pipeline/fan-out';
import { JoinKind } from '../pipeline/join';
import { IPromotionPipeline, PipelineStage } from '../pipeline/promotion-pipeline';
import { renderNamespace } from '../pipeline/stage-namespace';
import { WaveBudget } from '../pipeline/waves';
import { didYouMean } from '../util/closest';
import { field, fieldText, hint, prop } from '../util/code-hint';
import { toGoDuration } from '../util/duration';
import { describe, ProblemList, show, within } from '../util/errors';
import { dns1123LabelProblem, dns1123SubdomainProblem } from '../util/names';
import { Verification } from '../verification/verification';

/**
 * What the plan is resolved from.
 * @internal
 */
export interface PlanInput {
  readonly app: string;
  readonly destinationNamespace: string;
  readonly fleet: IClusterFleet;
  readonly pipeline: IPromotionPipeline;
  readonly targets: ClusterSelector;
  readonly requirements: Requirement[];
  /** Groups allowed to promote when a stage names none; unknown when the owner is missing (reported already). */
  readonly defaultPromoters?: string[];
  /** The checks of each pipeline stage, by stage name. */
  readonly verification: Map<string, Verification[]>;
}

/**
 * Resolves an application against its fleet and pipeline: which clusters each stage and wave
 * deploys to, in which order, behind which gate. Problems go to `problems`; the plan returned
 * then leaves out what could not be placed, but every name in it is a cluster or stage of the
 * input, so the steps after it can still run and report theirs.
 * @internal
 */
export function resolveReleasePlan(problems: ProblemList, input: PlanInput): ReleasePlan {
  const { pipeline, fleet } = input;
  const clusters = fleet.clusters;
  const pipelineName = `pipeline '${pipeline.pipelineName}'`;
  if (pipeline.stages.length === 0) {
    problems.add(within(pipelineName, describe('stages', [], 'must not be empty', 'add stages to the pipeline before defining apps on it')));
  }

  // which stages deploy the app to each cluster, and in which namespace
  const owner = new Map<string, Array<{ stage: string; namespace: string }>>();
  // Kargo Stage names also name release branches and ApplicationSets, so two waves must never share one
  const kargoStageOwners = new Map<string, string>();
  // the Kargo Stages that hand Freight on from each pipeline stage: the last wave of every branch
  const exits = new Map<string, string[]>();
  const stages: StagePlan[] = [];
  for (const stage of pipeline.stages) {
    const entry = [...new Set(stage.after.flatMap(a => exits.get(a) ?? []))].sort();
    const namespace = stageNamespace(problems, input, stage);
    // every Application name of a stage in the app's namespace is `<app>-<cluster>`, whichever stage
    // and wave: one ApplicationSet owns them all, so a cluster changing wave or stage never changes
    // its Application's owner (argo-cd applicationset_controller.go `createOrUpdateInCluster`)
    const applicationSet = applicationSetName(input.app, namespace === input.destinationNamespace ? undefined : stage.name);
    const ctx: StageContext = { problems, input, stage, namespace, entry, kargoStageOwners, applicationSet };
    let waves: WavePlan[];
    let production: boolean;
    if (stage.controlFlow) {
      waves = [controlFlowWave(ctx)];
      production = false;
    } else {
      const placed = placeStage(problems, input, clusters, { stage, namespace }, owner);
      if (placed.length === 0) continue;
      waves = branchesOf(problems, stage, placed).flatMap(b => planBranch(ctx, b.name, b.clusters));
      production = stage.production ?? placed.every(c => c.tier.production);
    }
    exits.set(stage.name, exitsOf(waves));
    const promoters = stage.approval.promoters.length > 0 ? stage.approval.promoters : input.defaultPromoters ?? [];
    if (stage.approval.gated && promoters.length === 0 && input.defaultPromoters !== undefined) {
      problems.add(describe(field('stage', show(stage.name), prop('promoters')), [], `must not be empty: the stage is gated (${stage.approval.kind})`,
        hint`name ${prop('promoters')} on the stage's ${prop('approval')} or give the ${prop('owner')} OIDC groups`));
    }
    stages.push({
      name: stage.name,
      production,
      approval: stage.approval.kind,
      gated: stage.approval.gated,
      autoPromote: stage.approval.autoPromote,
      promoters: [...promoters],
      pullRequestLabels: [...stage.approval.pullRequestLabels],
      verification: (input.verification.get(stage.name) ?? []).map(v => v.name),
      after: [...stage.after],
      join: stage.join.kind,
      controlFlow: stage.controlFlow ? true : undefined,
      namespace,
      waves,
      freezes: [],
      syncTimeout: DEFAULT_SYNC_TIMEOUT,
    });
  }

  // names made of an app name that is itself wrong are wrong because of it (reported with the props)
  if (dns1123LabelProblem(input.app) === undefined) checkDerivedNames(problems, input, stages, clusters);
  const soaked = placeSoaks(problems, stages);
  // stages in different namespaces may share a cluster
  const placedClusters = [...new Set(soaked.flatMap(s => s.waves.flatMap(w => w.clusters)))].sort();
  return {
    app: input.app,
    project: input.app,
    destinationNamespace: input.destinationNamespace,
    clusters: placedClusters,
    stages: soaked,
  };
}

/** What planning one pipeline stage needs. */
interface StageContext {
  readonly problems: ProblemList;
  readonly input: PlanInput;
  readonly stage: PipelineStage;
  /** The namespace the stage deploys the app to. */
  readonly namespace: string;
  /** The Kargo Stages feeding the stage's first waves. */
  readonly entry: string[];
  readonly kargoStageOwners: Map<string, string>;
  /** The central ApplicationSet that generates the stage's Applications. */
  readonly applicationSet: string;
}

/**
 * A stage without clusters is one Kargo control-flow Stage: it joins its upstreams, soaks, and
 * feeds the stages after it (see `PromotionPipeline.checkGraph` for why it has nothing else).
 */
function controlFlowWave(ctx: StageContext): WavePlan {
  const { stage, entry } = ctx;
  claimKargoStage(ctx, stage.name, `stage ${show(stage.name)}`);
  return {
    name: stage.name,
    kargoStage: stage.name,
    upstreams: entry,
    join: entryJoin(stage, entry),
    soak: entry.length > 0 && stage.soak ? toGoDuration(stage.soak) : undefined,
    clusters: [],
    applications: [],
    controlFlow: true,
    earliestSeconds: 0,
    argoCd: ArgoCdTopologyKind.CENTRAL,
    argoCdNamespace: ctx.input.fleet.argoCdNamespace,
  };
}

/** `any-of` on a stage's first waves when it joins several upstreams that way; `all` is the default. */
function entryJoin(stage: PipelineStage, upstreams: string[]): JoinKind | undefined {
  return stage.join.kind === JoinKind.ANY_OF && upstreams.length > 1 ? JoinKind.ANY_OF : undefined;
}

/** The Kargo Stage names are unique within the app: they name release branches and ApplicationSets. */
function claimKargoStage(ctx: StageContext, kargoStage: string, what: string) {
  const { problems, kargoStageOwners } = ctx;
  problems.check(`stage ${show(ctx.stage.name)} Kargo Stage name`, kargoStage, dns1123LabelProblem(kargoStage),
    'Kargo Stage names become label values: keep stage, branch, wave, shard and cluster names short');
  const taken = kargoStageOwners.get(kargoStage);
  problems.check(`${what} Kargo Stage name`, kargoStage, taken === undefined ? undefined : `is also the Kargo Stage name of ${taken}`,
    'each stage, wave and cluster with its own Argo CD needs its own Kargo Stage, release branch and ApplicationSet: rename the stage');
  if (taken === undefined) kargoStageOwners.set(kargoStage, what);
}

/** The Kargo Stages a stage hands Freight on from: the last wave of each of its branches. */
function exitsOf(waves: WavePlan[]): string[] {
  const lastWave = new Map<string | undefined, string>();
  for (const w of waves) lastWave.set(w.branch, w.name);
  return waves.filter(w => lastWave.get(w.branch) === w.name).map(w => w.kargoStage).sort();
}

/** The parallel branches of a stage: one without fan-out, else one per label value or group. */
function branchesOf(problems: ProblemList, stage: PipelineStage, placed: Cluster[]): Array<{ name?: string; clusters: Cluster[] }> {
  const fanOut = stage.fanOut;
  if (fanOut === undefined) return [{ clusters: placed }];
  if (fanOut.kind === FanOutKind.BY_LABEL) {
    const key = fanOut.labelKey!;
    const unlabeled = placed.filter(c => c._labels[key] === undefined);
    if (unlabeled.length > 0) {
      problems.add(describe(`stage ${show(stage.name)} fan-out label ${show(key)}`, unlabeled.map(c => c.name), 'is missing on clusters of the stage',
        'label every cluster of the stage'));
    }
    const values = [...new Set(placed.map(c => c._labels[key]).filter(v => v !== undefined))].sort();
    return values.map(value => ({ name: value, clusters: placed.filter(c => c._labels[key] === value) }));
  }
  const groups = Object.keys(fanOut.groupSelectors).sort();
  for (const c of placed) {
    const inGroups = groups.filter(g => fanOut.groupSelectors[g].matches(c._labels));
    if (inGroups.length !== 1) {
      problems.add(describe(`stage ${show(stage.name)} fan-out cluster ${show(c.name)}`, inGroups, 'must be in exactly one group',
        'make the FanOut.groups() selectors cover every cluster of the stage exactly once', () => (inGroups.length === 0 ? 'no group' : `groups ${inGroups.join(', ')}`)));
    }
  }
  return groups
    .map(g => ({ name: g, clusters: placed.filter(c => fanOut.groupSelectors[g].matches(c._labels)) }))
    .filter(b => b.clusters.length > 0);
}

/** The waves of one branch of a stage (the whole stage without fan-out), chained from the stage's entry. */
function planBranch(ctx: StageContext, branch: string | undefined, clusters: Cluster[]): WavePlan[] {
  const { problems, input, stage } = ctx;
  const base = branch === undefined ? stage.name : `${stage.name}-${branch}`;
  const maxPerWave = waveBudget(stage.waveBudget ?? input.pipeline.waveBudget, clusters.length);
  const split = splitIntoWaves(base, clusters, stage.waves, maxPerWave);
  split.problems.forEach(p => problems.add(p));
  const waves: WavePlan[] = [];
  let upstreams = ctx.entry;
  for (const group of split.groups) {
    const name = split.groups.length === 1 ? base : `${base}-${group.name}`;
    const segments = segmentByArgoCd(group.clusters, name, input.fleet.argoCdNamespace);
    const soak = upstreams.length > 0 && stage.soak ? toGoDuration(stage.soak) : undefined;
    const join = upstreams === ctx.entry ? entryJoin(stage, upstreams) : undefined;
    for (const segment of segments) {
      const wave = `stage ${show(base)}${split.groups.length === 1 ? '' : ` wave ${show(group.name)}`}`
        + `${segment.argoCd === ArgoCdTopologyKind.PER_CLUSTER ? ` (cluster ${show(segment.clusters[0].name)})` : ''}`;
      claimKargoStage(ctx, segment.kargoStage, wave);
      waves.push({
        name: group.name,
        kargoStage: segment.kargoStage,
        upstreams,
        join,
        branch,
        soak,
        clusters: segment.clusters.map(c => c.name),
        applications: segment.clusters.map(c => stageApplicationName(input, { name: stage.name, namespace: ctx.namespace }, c.name)),
        earliestSeconds: 0,
        releaseBranch: releaseBranch(input.app, segment.kargoStage),
        argoCd: segment.argoCd,
        argoCdNamespace: segment.argoCdNamespace,
        kargoShard: segment.kargoShard,
        applicationSet: segment.argoCd === ArgoCdTopologyKind.CENTRAL ? ctx.applicationSet : undefined,
      });
    }
    upstreams = segments.map(s => s.kargoStage).sort();
  }
  return waves;
}

/** The namespace of the app in one stage: the app's, or what the stage's pattern gives it. */
function stageNamespace(problems: ProblemList, input: PlanInput, stage: PipelineStage): string {
  if (stage.namespace === undefined) return input.destinationNamespace;
  const namespace = renderNamespace(stage.namespace, input.app, stage.name);
  if (dns1123LabelProblem(input.app) !== undefined) return namespace;
  problems.check(`stage ${show(stage.name)} namespace (pattern ${show(stage.namespace)} of pipeline '${input.pipeline.pipelineName}')`,
    namespace, dns1123LabelProblem(namespace), 'shorten the app name or the stage\'s namespace pattern');
  return namespace;
}

/**
 * The clusters of one pipeline stage the app is placed on: the stage's clusters, narrowed by the
 * app's targets and requirements. Records which stages (and namespaces) hold each cluster in
 * `owner`: stages may share a cluster only in different namespaces, as one Application each.
 */
function placeStage(problems: ProblemList, input: PlanInput, clusters: Cluster[], placing: { stage: PipelineStage; namespace: string },
  owner: Map<string, Array<{ stage: string; namespace: string }>>): Cluster[] {
  const { pipeline, fleet } = input;
  const { stage, namespace } = placing;
  const pipelineName = `pipeline '${pipeline.pipelineName}'`;
  const selector = stage.clusters!;
  unknownClusters(problems, fieldText(field(pipelineName, `stage ${show(stage.name)}`, prop('clusters'))), selector, clusters);
  const inStage = clusters.filter(c => selector.matches(c._labels));
  if (inStage.length === 0) {
    problems.add(within(pipelineName, describe(`stage ${show(stage.name)} selector`, selector.toString(), `selects no cluster of fleet '${fleet.fleetName}'`,
      'fix the stage\'s selector or add matching clusters to the fleet', String)));
    return [];
  }
  for (const c of inStage) {
    const holders = owner.get(c.name) ?? [];
    const other = holders.find(h => h.namespace === namespace);
    if (other !== undefined) {
      problems.add(describe(`cluster ${show(c.name)}`, namespace, `is selected by both stage ${show(other.stage)} and stage ${show(stage.name)} of ${pipelineName} in one namespace`,
        'give one of the stages its own `namespace` (e.g. \'{app}-{stage}\'), or make the stages\' selectors disjoint',
        ns => `namespace ${show(ns)} for both`));
    }
    owner.set(c.name, [...holders, { stage: stage.name, namespace }]);
  }
  unknownClusters(problems, fieldText(prop('targets')), input.targets, clusters);
  const targeted = inStage.filter(c => input.targets.matches(c._labels));
  if (targeted.length === 0) {
    problems.add(describe(field(prop('targets'), input.targets.toString()), inStage, `leave stage ${show(stage.name)} without clusters`,
      hint`widen the ${prop('targets')} or add a matching cluster to the stage`, () => `${describeClusters(inStage)} in the stage`));
    return [];
  }
  let placed = targeted;
  for (const req of input.requirements) {
    const ok = placed.filter(c => req.isSatisfiedBy(c));
    if (ok.length === 0) {
      problems.add(describe(`requirement ${show(req.description)}`, placed, `is met by none of the targeted clusters of stage ${show(stage.name)}`,
        'relax the requirement or add a capable cluster to the stage', () => `targeted ${describeClusters(placed)}`));
    }
    placed = ok;
  }
  return placed;
}

/** A selector that names a cluster the fleet does not have selects fewer clusters than meant: say so, once per name. */
function unknownClusters(problems: ProblemList, where: string, selector: ClusterSelector, clusters: Cluster[]): void {
  const names = clusters.map(c => c.name);
  for (const name of new Set(selector._namedClusters().filter(n => !names.includes(n)))) {
    const message = describe(where, name, 'names no cluster of the fleet', didYouMean(name, names));
    if (!problems.has(message)) problems.add(message);
  }
}

interface Segment {
  readonly kargoStage: string;
  readonly clusters: Cluster[];
  readonly argoCd: ArgoCdTopologyKind;
  readonly argoCdNamespace: string;
  readonly kargoShard?: string;
}

/**
 * One Kargo Stage can only talk to one Argo CD: the central one, or the Argo CD inside a
 * cluster, reached through that cluster's Kargo shard. Split a wave accordingly; the parts are
 * promoted in parallel. Per-cluster parts are named after the cluster, not the shard, so a
 * Stage keeps its name when a shard is renamed.
 */
function segmentByArgoCd(clusters: Cluster[], base: string, centralNamespace: string): Segment[] {
  const segments: Segment[] = [];
  const central = clusters.filter(c => c.argoCd.kind === ArgoCdTopologyKind.CENTRAL);
  if (central.length > 0) {
    segments.push({ kargoStage: base, clusters: central, argoCd: ArgoCdTopologyKind.CENTRAL, argoCdNamespace: centralNamespace });
  }
  // the fleet gives every cluster with its own Argo CD its own Kargo shard
  for (const c of clusters.filter(x => x.argoCd.kind === ArgoCdTopologyKind.PER_CLUSTER)) {
    segments.push({
      kargoStage: `${base}-${c.name}`,
      clusters: [c],
      argoCd: ArgoCdTopologyKind.PER_CLUSTER,
      argoCdNamespace: c.argoCd.namespace!,
      kargoShard: c.kargoShard,
    });
  }
  return segments;
}

function waveBudget(budget: WaveBudget, total: number): number {
  const { maxClusters, maxPercent } = budget;
  let max = Number.MAX_SAFE_INTEGER;
  if (maxClusters !== undefined) max = Math.min(max, maxClusters);
  if (maxPercent !== undefined) max = Math.min(max, Math.max(1, Math.ceil((maxPercent * total) / 100)));
  return max;
}

/**
 * Every name derived from the app, stage and cluster names must fit its Kubernetes limit, and
 * the app's Applications (one per cluster and stage namespace) must have distinct names.
 */
function checkDerivedNames(problems: ProblemList, input: PlanInput, stages: StagePlan[], clusters: Cluster[]) {
  const app = input.app;
  // stages in the app's namespace share one ApplicationSet: its name is checked once
  const applicationSets = new Map<string, string>();
  for (const s of stages) {
    const set = s.waves.find(w => w.applicationSet !== undefined)?.applicationSet;
    if (set !== undefined && !applicationSets.has(set)) applicationSets.set(set, s.name);
  }
  for (const [set, stage] of applicationSets) {
    problems.check(`ApplicationSet name for stage ${show(stage)}`, set, dns1123SubdomainProblem(set), 'shorten the app or stage name');
  }
  const applications = new Map<string, string>();
  const byCluster = applicationsByCluster(stages);
  for (const c of clusters) {
    const placedBy = byCluster.get(c.name) ?? [];
    for (const { stage: s, application: appName } of placedBy) {
      const own = hasOwnNamespace(input, s);
      const where = `cluster ${show(c.name)}${own ? ` in stage ${show(s.name)}` : ''}`;
      problems.check(`Application name for ${where}`, appName, dns1123SubdomainProblem(appName), `shorten the app${own ? ', stage' : ''} or cluster name`);
      const taken = applications.get(appName);
      problems.check(`Application name for ${where}`, appName, taken === undefined ? undefined : `is also the Application name for ${taken}`,
        'rename the stage or the cluster');
      applications.set(appName, taken ?? where);
    }
    if (placedBy.length > 0 && c.argoCd.kind === ArgoCdTopologyKind.PER_CLUSTER) {
      // the chart of a cluster with its own Argo CD is named <app>--<cluster>, and chart names are DNS labels
      const chart = perClusterChartId(app, c.name);
      problems.check(`output chart for cluster ${show(c.name)}`, chart, dns1123LabelProblem(chart), 'shorten the app or cluster name');
    }
  }
}

function describeClusters(clusters: Cluster[]): string {
  const names = clusters.map(c => c.name);
  const shown = names.slice(0, 5).join(', ');
  return names.length > 5 ? `${names.length} clusters: ${shown}, ...` : `${names.length === 1 ? 'cluster' : 'clusters'} ${shown}`;
}
