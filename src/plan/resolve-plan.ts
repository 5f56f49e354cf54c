import { DEFAULT_SYNC_TIMEOUT, ReleasePlan, StagePlan, WavePlan } from './release-plan';
import { splitIntoWaves } from './wave-split';
import { applicationName, applicationSetName, perClusterChartId, releaseBranch } from '../contracts/release-names';
import { ArgoCdTopologyKind } from '../fleet/argocd-topology';
import { Cluster } from '../fleet/cluster';
import { IClusterFleet } from '../fleet/cluster-fleet';
import { ClusterSelector } from '../fleet/cluster-selector';
import { Requirement } from '../fleet/requirement';
import { IPromotionPipeline, PipelineStage } from '../pipeline/promotion-pipeline';
import { WaveBudget } from '../pipeline/waves';
import { toGoDuration } from '../util/duration';
import { ProblemList } from '../util/errors';
import { dns1123LabelProblem, dns1123SubdomainProblem } from '../util/names';
import { Verification } from '../verification/verification';

/**
 * What the plan is resolved from.
 * @internal
 */
export interface PlanInput {
  /** Who is being planned, for messages (`PlatformApp 'checkout'`). */
  readonly subject: string;
  readonly app: string;
  readonly destinationNamespace: string;
  readonly fleet: IClusterFleet;
  readonly pipeline: IPromotionPipeline;
  readonly targets: ClusterSelector;
  readonly requirements: Requirement[];
  /** Groups allowed to promote when a stage names none. */
  readonly defaultPromoters: string[];
  /** The checks of each pipeline stage, by stage name. */
  readonly verification: Map<string, Verification[]>;
}

/**
 * Resolves an application against its fleet and pipeline: which clusters each stage and wave
 * deploys to, in which order, behind which gate. Throws one error listing every problem.
 * @internal
 */
export function resolveReleasePlan(input: PlanInput): ReleasePlan {
  const problems = new ProblemList(input.subject);
  const { pipeline, fleet } = input;
  const clusters = fleet.clusters;
  const pipelineName = `pipeline '${pipeline.pipelineName}'`;
  if (pipeline.stages.length === 0) {
    problems.add(`${pipelineName} has no stages; add stages to the pipeline before defining apps on it`);
  }

  const owner = new Map<string, string>();
  // Kargo Stage names also name release branches and ApplicationSets, so two waves must never share one
  const kargoStageOwners = new Map<string, string>();
  const stages: StagePlan[] = [];
  let upstreams: string[] = [];
  for (const stage of pipeline.stages) {
    const placed = placeStage(problems, input, clusters, stage, owner);
    if (placed.length === 0) continue;

    const maxPerWave = waveBudget(stage.waveBudget ?? input.pipeline.waveBudget, placed.length);
    const split = splitIntoWaves(stage.name, placed, stage.waves, maxPerWave);
    split.problems.forEach(p => problems.add(p));

    const waves: WavePlan[] = [];
    for (const group of split.groups) {
      const base = split.groups.length === 1 ? stage.name : `${stage.name}-${group.name}`;
      const segments = segmentByArgoCd(group.clusters, base, fleet.argoCdNamespace);
      const soak = upstreams.length > 0 && stage.soak ? toGoDuration(stage.soak) : undefined;
      for (const segment of segments) {
        problems.check(`stage "${stage.name}" Kargo Stage name`, segment.kargoStage, dns1123LabelProblem(segment.kargoStage),
          'Kargo Stage names become label values: keep stage, wave, shard and cluster names short');
        const wave = `stage "${stage.name}"${split.groups.length === 1 ? '' : ` wave "${group.name}"`}`
          + `${segment.argoCd === ArgoCdTopologyKind.PER_CLUSTER ? ` (cluster "${segment.clusters[0].name}")` : ''}`;
        const taken = kargoStageOwners.get(segment.kargoStage);
        problems.check(`${wave} Kargo Stage name`, segment.kargoStage, taken === undefined ? undefined : `is also the Kargo Stage name of ${taken}`,
          'each stage, wave and cluster with its own Argo CD needs its own Kargo Stage, release branch and ApplicationSet: rename the stage');
        if (taken === undefined) kargoStageOwners.set(segment.kargoStage, wave);
        waves.push({
          name: group.name,
          kargoStage: segment.kargoStage,
          upstreams,
          soak,
          clusters: segment.clusters.map(c => c.name),
          releaseBranch: releaseBranch(input.app, segment.kargoStage),
          argoCd: segment.argoCd,
          argoCdNamespace: segment.argoCdNamespace,
          kargoShard: segment.kargoShard,
          applicationSet: segment.argoCd === ArgoCdTopologyKind.CENTRAL ? applicationSetName(input.app, segment.kargoStage) : undefined,
        });
      }
      upstreams = segments.map(s => s.kargoStage).sort();
    }
    const promoters = stage.approval.promoters.length > 0 ? stage.approval.promoters : input.defaultPromoters;
    if (stage.approval.gated && promoters.length === 0) {
      problems.add(`stage "${stage.name}" is gated (${stage.approval.kind}) but no one may promote into it; `
        + 'name promoters on the stage\'s approval or give the owner OIDC groups');
    }
    stages.push({
      name: stage.name,
      production: stage.production ?? placed.every(c => c.tier.production),
      approval: stage.approval.kind,
      autoPromote: stage.approval.autoPromote,
      promoters: [...promoters],
      pullRequestLabels: [...stage.approval.pullRequestLabels],
      verification: (input.verification.get(stage.name) ?? []).map(v => v.name),
      waves,
      syncTimeout: DEFAULT_SYNC_TIMEOUT,
    });
  }

  checkDerivedNames(problems, input.app, stages, clusters);
  problems.throwIfAny();
  const placedClusters = stages.flatMap(s => s.waves.flatMap(w => w.clusters)).sort();
  return {
    app: input.app,
    project: input.app,
    destinationNamespace: input.destinationNamespace,
    clusters: placedClusters,
    stages,
  };
}

/**
 * The clusters of one pipeline stage the app is placed on: the stage's clusters, narrowed by the
 * app's targets and requirements. Records which stage holds each cluster in `owner`.
 */
function placeStage(problems: ProblemList, input: PlanInput, clusters: Cluster[], stage: PipelineStage, owner: Map<string, string>): Cluster[] {
  const { pipeline, fleet } = input;
  const pipelineName = `pipeline '${pipeline.pipelineName}'`;
  const inStage = clusters.filter(c => stage.clusters.matches(c.labels));
  if (inStage.length === 0) {
    problems.add(`${pipelineName} stage "${stage.name}" selects no cluster of fleet '${fleet.fleetName}' (selector ${stage.clusters.toString()}); `
      + 'fix the stage\'s selector or add matching clusters to the fleet');
    return [];
  }
  for (const c of inStage) {
    const other = owner.get(c.name);
    if (other !== undefined) {
      problems.add(`cluster "${c.name}" is selected by both stage "${other}" and stage "${stage.name}" of ${pipelineName}; `
        + 'make the stages\' selectors disjoint');
    }
    owner.set(c.name, stage.name);
  }
  const targeted = inStage.filter(c => input.targets.matches(c.labels));
  if (targeted.length === 0) {
    problems.add(`targets ${input.targets.toString()} leave stage "${stage.name}" without clusters (it has ${describeClusters(inStage)}); `
      + 'widen the targets or add a matching cluster to the stage');
    return [];
  }
  let placed = targeted;
  for (const req of input.requirements) {
    const ok = placed.filter(c => req.isSatisfiedBy(c));
    if (ok.length === 0) {
      problems.add(`requirement "${req.description}" is met by none of the targeted clusters of stage "${stage.name}" (${describeClusters(placed)}); `
        + 'relax the requirement or add a capable cluster to the stage');
    }
    placed = ok;
  }
  return placed;
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

/** Every name derived from the app, stage and cluster names must fit its Kubernetes limit. */
function checkDerivedNames(problems: ProblemList, app: string, stages: StagePlan[], clusters: Cluster[]) {
  const placed = new Set(stages.flatMap(s => s.waves.flatMap(w => w.clusters)));
  for (const s of stages) {
    for (const w of s.waves) {
      if (w.applicationSet === undefined) continue;
      problems.check(`ApplicationSet name for stage "${w.kargoStage}"`, w.applicationSet, dns1123SubdomainProblem(w.applicationSet),
        'shorten the app or stage name');
    }
  }
  for (const c of clusters) {
    if (!placed.has(c.name)) continue;
    const appName = applicationName(app, c.name);
    problems.check(`Application name for cluster "${c.name}"`, appName, dns1123SubdomainProblem(appName), 'shorten the app or cluster name');
    if (c.argoCd.kind === ArgoCdTopologyKind.PER_CLUSTER) {
      // the chart of a cluster with its own Argo CD is named <app>--<cluster>, and chart names are DNS labels
      const chart = perClusterChartId(app, c.name);
      problems.check(`output chart for cluster "${c.name}"`, chart, dns1123LabelProblem(chart), 'shorten the app or cluster name');
    }
  }
}

function describeClusters(clusters: Cluster[]): string {
  const names = clusters.map(c => c.name);
  const shown = names.slice(0, 5).join(', ');
  return names.length > 5 ? `${names.length} clusters: ${shown}, ...` : `${names.length === 1 ? 'cluster' : 'clusters'} ${shown}`;
}
