import { checkAppProps, releaseRepoOf } from './app-checks';
import { AppRelease, PerClusterArgoCd, PlacedWave } from './app-release';
import { checkArgArtifacts } from './arg-artifacts';
import { planDiscovery } from './discovery-plan';
import { applyFreezes } from './freeze-plan';
import { computeLeadTime, verificationTime } from './lead-time';
import { PlatformAppProps } from './platform-app-props';
import { hasOwnNamespace, ReleasePlan } from './release-plan';
import { checkRenderInputs } from './render-inputs';
import { repositoryAccesses } from './repository-access';
import { resolveReleasePlan } from './resolve-plan';
import { collectStageChecks, renderStageChecks } from './stage-checks';
import { PlatformLabels } from '../contracts/labels';
import { perClusterChartId } from '../contracts/release-names';
import { ArgoCdTopologyKind } from '../fleet/argocd-topology';
import { clusterVariableSource } from '../fleet/cluster';
import { IClusterFleet } from '../fleet/cluster-fleet';
import { ClusterSelector } from '../fleet/cluster-selector';
import { webhookReceiverProblems } from '../fleet/webhook-config';
import { DeployFreeze, FreezeOverride } from '../pipeline/deploy-freeze';
import { checkFreezes } from '../pipeline/freeze-checks';
import { call, hint, prop, str, struct } from '../util/code-hint';
import { describe, ProblemList, reportValue } from '../util/errors';
import { refuseSecretMaterial } from '../util/secret-material';
import { RenderedVerification } from '../verification/render';
import { Verification } from '../verification/verification';

/** Where an app's standards exemptions are recorded in its output. */
const EXEMPTIONS_ANNOTATION = 'gitops-platform.io/standards-exemptions';

/**
 * Claims the names the app's plan gives its objects against the other apps', adding every clash
 * to `problems`; `plan` is undefined when the app could not be placed.
 * @internal
 */
export type NameClaims = (problems: ProblemList, plan: ReleasePlan | undefined) => void;

/**
 * Turns an app's props into its release, the one place that does: checks every prop, resolves
 * the plan against the fleet and pipeline, applies the freezes, places the clusters, renders
 * the checks of every Kargo Stage and claims the app's names (`claimNames`). Every problem of
 * all of it goes into one list and comes back in one error, as `subject`: a step that needs an
 * earlier step's result is skipped when that result is unusable, so no mistake hides another.
 * @internal
 */
export function buildAppRelease(subject: string, appName: string, props: PlatformAppProps, claimNames?: NameClaims): AppRelease {
  // credentials first, alone: no other check gets to quote one
  refuseSecretMaterial(subject, props);
  const problems = new ProblemList(subject);
  checkAppProps(problems, appName, props);
  const freezes = checkFreezes(problems, prop('freezes'), props.freezes ?? []);
  if (props.freezeOverride !== undefined && !(props.freezeOverride instanceof FreezeOverride)) {
    problems.check(prop('freezeOverride'), props.freezeOverride, 'must be a FreezeOverride',
      hint`use ${call('FreezeOverride', 'of', struct('FreezeOverrideProps', { by: str('alice@acme.example'), reason: str('CVE-2026-1234') }))}`);
  }
  if (props.freezeOverride instanceof FreezeOverride) reportValue(problems, prop('freezeOverride'), props.freezeOverride);
  webhookReceiverProblems(problems, 'webhookReceivers', props.webhookReceivers ?? []);
  const before = problems.size;
  const checks = collectStageChecks(problems, props.pipeline?.pipelineName, props.pipeline?.stages ?? [], props.verification ?? [],
    props.stageVerification ?? {});
  // a check that is itself wrong cannot be rendered; its problems are reported already
  const checksRender = problems.size === before;
  checkArgArtifacts(problems, props, checks);
  const releaseRepo = releaseRepoOf(props);
  const access = props.source && props.artifacts
    ? repositoryAccesses(props.artifacts, props.source, releaseRepo, props.releaseRepoCredentials)
    : { accesses: [], problems: [] };
  access.problems.forEach(p => problems.add(p));
  const placed = placeable(problems, props) ? placeRelease(problems, appName, props, { checks, checksRender, freezes }) : undefined;
  claimNames?.(problems, placed?.plan);
  problems.throwIfAny();
  // an app that could not be placed has its reasons in `problems`, so it does not get here
  const { plan, owner, waves, rendered } = placed!;

  const exemptions = (props.exemptions ?? []).map(e => ({ ruleId: e.ruleId, justification: e.justification.trim() }));
  const webhookReceivers = [...props.webhookReceivers ?? []];
  const discovery = planDiscovery({
    artifacts: props.artifacts,
    source: props.source,
    project: plan.project,
    platformReceivers: props.fleet.webhookReceivers ?? [],
    projectReceivers: webhookReceivers,
    fallbackInterval: props.fleet.discoveryFallbackInterval,
  });
  const artifacts = [...props.artifacts];
  const verification = new Map([...rendered].map(([stage, r]) => [stage, verificationTime(r.templates)]));
  return {
    plan,
    owner,
    exemptions,
    waves,
    perClusterArgoCd: perClusterArgoCd(plan.app, waves),
    releaseRepo,
    source: props.source,
    artifacts,
    render: {
      app: plan.app,
      artifacts,
      destinationNamespace: plan.destinationNamespace,
      stageNamespaces: plan.stages.some(s => hasOwnNamespace(plan, s)),
      clusterApiVersions: waves.some(w => w.clusters.some(c => c.apiVersions.length > 0)),
    },
    argoCdNamespace: props.fleet.argoCdNamespace,
    description: `${appName}, owned by team ${owner.team} (${owner.contact})`,
    annotations: {
      ...exemptions.length > 0
        ? { [EXEMPTIONS_ANNOTATION]: JSON.stringify(exemptions.map(e => ({ rule: e.ruleId, justification: e.justification }))) }
        : {},
      ...props.freezeOverride ? { [PlatformLabels.FREEZE_OVERRIDE]: props.freezeOverride.record } : {},
    },
    clusterResources: (props.clusterResources ?? []).map(r => ({ group: r.group, kind: r.kind })),
    checks: rendered,
    accesses: access.accesses,
    releaseRepoArgoCdCredentials: props.releaseRepoArgoCdCredentials,
    discovery,
    webhookReceivers,
    leadTime: computeLeadTime(plan, discovery, verification),
  };
}

/**
 * Whether the app can be placed at all: not without a fleet and a pipeline (reported here), nor
 * with targets or requirements that are themselves wrong (reported with the props).
 */
function placeable(problems: ProblemList, props: PlatformAppProps): boolean {
  if (!props.fleet) problems.add(describe(prop('fleet'), undefined, 'is required', 'pass the ClusterFleet the app is delivered to'));
  if (!props.pipeline) problems.add(describe(prop('pipeline'), undefined, 'is required', 'pass the PromotionPipeline the app is promoted through'));
  const selectors = [props.targets, ...props.requires ?? []];
  return !!props.fleet && !!props.pipeline && selectors.every(s => (s?._problems?.length ?? 0) === 0);
}

/** What the props checks hand on to the placement. */
interface Checked {
  readonly checks: Map<string, Verification[]>;
  /** Whether the checks are sound enough to render. */
  readonly checksRender: boolean;
  /** The app's freezes that are `DeployFreeze`s. */
  readonly freezes: DeployFreeze[];
}

/** The plan with its freezes, its placed waves and the rendered checks of every Kargo Stage. */
function placeRelease(problems: ProblemList, appName: string, props: PlatformAppProps, checked: Checked) {
  // the owner's groups promote into gated stages that name no promoters; unknown without an owner
  const groups = props.owner ? [...props.owner.groups ?? [props.owner.team]] : undefined;
  const resolved = resolveReleasePlan(problems, {
    app: appName,
    destinationNamespace: props.namespace ?? appName,
    fleet: props.fleet,
    pipeline: props.pipeline,
    targets: props.targets ?? ClusterSelector.all(),
    requirements: props.requires ?? [],
    defaultPromoters: groups,
    verification: checked.checks,
  });
  const plan = applyFreezes(problems, resolved, props.pipeline, { freezes: checked.freezes, freezeOverride: props.freezeOverride });
  const waves = placeWaves(plan, props.fleet);
  if (props.source) checkRenderInputs(problems, props.source, waves.flatMap(w => w.clusters));
  const rendered = checked.checksRender
    ? renderStageChecks(problems, plan, waves, checked.checks, props.fleet.verificationJobs)
    : new Map<string, RenderedVerification>();
  return { plan, owner: { ...props.owner, groups: groups ?? [] }, waves, rendered };
}

/** Every wave of the plan with its clusters: the plan names each cluster of the fleet it placed. */
function placeWaves(plan: ReleasePlan, fleet: IClusterFleet): PlacedWave[] {
  const inFleet = new Map(fleet.clusters.map(c => [c.name, c]));
  return plan.stages.flatMap(stage => stage.waves.map(wave => ({
    stage,
    wave,
    clusters: wave.clusters.flatMap((name, i) => {
      const cluster = inFleet.get(name);
      return cluster === undefined ? [] : [{
        name,
        server: cluster.server,
        variables: clusterVariableSource(cluster),
        apiVersions: cluster.apiVersions,
        application: wave.applications[i],
      }];
    }),
  })));
}

/** The clusters of the waves that run their own Argo CD, each with its stages' parts (control-flow Stages deploy nothing). */
function perClusterArgoCd(app: string, waves: PlacedWave[]): PerClusterArgoCd[] {
  const byCluster = new Map<string, PerClusterArgoCd>();
  for (const { stage, wave, clusters } of waves.filter(w => !w.wave.controlFlow && w.wave.argoCd === ArgoCdTopologyKind.PER_CLUSTER)) {
    for (const cluster of clusters) {
      const entry = byCluster.get(cluster.name) ?? { cluster: cluster.name, chartId: perClusterChartId(app, cluster.name), parts: [] };
      byCluster.set(cluster.name, { ...entry, parts: [...entry.parts, { stage, wave, cluster }] });
    }
  }
  return [...byCluster.values()];
}
