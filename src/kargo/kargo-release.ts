import { ApiObject, Duration } from 'cdk8s';
import { Construct } from 'constructs';
import { defineProjectNamespace } from './project-namespace';
import { RENDER_TASK, renderTaskSteps, renderVarNames, stageSteps } from './promotion-steps';
import { warehouseSubscriptions } from './subscriptions';
import {
  Project, ProjectConfig, PromotionTask, Stage, StageSpecRequestedFreightOriginKind, StageSpecRequestedFreightSourcesAvailabilityStrategy, Warehouse,
  WarehouseSpecFreightCreationPolicy,
} from '../../imports/kargo-kargo.akuity.io';
import { AnalysisTemplate } from '../../imports/rollouts-argoproj.io';
import { autoPromotionPolicies } from '../contracts/auto-promotion';
import { PlatformLabels } from '../contracts/labels';
import { syncWave, SyncWave } from '../contracts/sync-waves';
import { JoinKind } from '../pipeline/join';
import { AppRelease, PlacedWave } from '../plan/app-release';
import { WavePlan } from '../plan/release-plan';
import { compact } from '../util/collections';
import { toGoDuration, toMetaV1Duration } from '../util/duration';

/** Kargo v1.11.2 `api/v1alpha1/labels.go` `LabelKeyShard`. */
const KARGO_SHARD_LABEL = 'kargo.akuity.io/shard';

/**
 * Defines the Kargo side of one app's release plan: its own Project (an independent promotion
 * track), the ProjectConfig with its auto-promotion policies, a Warehouse subscribing to the
 * artifacts, the per-cluster render PromotionTask and one Stage per wave.
 * @internal
 */
export function defineKargoRelease(scope: Construct, release: AppRelease): void {
  const { plan, description, annotations } = release;
  const namespace = plan.project;
  const appLabels = { [PlatformLabels.APP]: plan.app };

  defineProjectNamespace(scope, plan.project, appLabels);
  new Project(scope, 'Project', {
    metadata: {
      name: plan.project,
      labels: appLabels,
      // the project namespace must exist before Argo CD applies the objects inside it
      annotations: {
        ...syncWave(SyncWave.REFERENCED),
        'kargo.akuity.io/description': description,
        [PlatformLabels.LEAD_TIME]: release.leadTime.seconds === 0 ? '0s' : toGoDuration(Duration.seconds(Math.round(release.leadTime.seconds))),
        ...annotations,
      },
    },
  });

  // Kargo never promotes into a control-flow Stage, so it has no auto-promotion policy
  const autoStages = plan.stages.filter(s => s.autoPromote).flatMap(s => s.waves.filter(w => !w.controlFlow).map(w => w.kargoStage));
  new ProjectConfig(scope, 'ProjectConfig', {
    metadata: { name: plan.project, namespace, labels: appLabels },
    spec: {
      promotionPolicies: autoPromotionPolicies(autoStages),
      // the app's own receivers; the platform's are in the ClusterConfig and need nothing here
      webhookReceivers: release.webhookReceivers.length > 0 ? release.webhookReceivers.map(r => r._toKargo()) : undefined,
    },
  });

  defineWarehouse(scope, release, appLabels);

  new PromotionTask(scope, 'RenderTask', {
    metadata: {
      name: RENDER_TASK,
      namespace,
      labels: appLabels,
      // before the Stages that call it: Kargo's Promotion webhook inflates a Promotion's task steps
      // and refuses it while the PromotionTask is missing (Kargo v1.11.2
      // pkg/webhook/kubernetes/promotion/webhook.go `Default`, api.InflateSteps), so an
      // auto-promotion created in the sync that also creates the task would fail. Its namespace
      // exists from wave -2 (the Project's namespace), as Kargo's PromotionTask webhook requires
      // (pkg/webhook/kubernetes/project.go `ValidateProject`: the namespace labelled as a project)
      annotations: syncWave(SyncWave.REFERENCED),
    },
    spec: {
      vars: renderVarNames(release).map(name => ({ name })),
      steps: compact(renderTaskSteps(release)),
    },
  });

  for (const placed of release.waves) defineStage(scope, release, placed);
}

/** The app's Warehouse: every artifact and the source's path, in the form Kargo stores it. */
function defineWarehouse(scope: Construct, release: AppRelease, appLabels: Record<string, string>) {
  new Warehouse(scope, 'Warehouse', {
    metadata: {
      name: release.plan.app,
      namespace: release.plan.project,
      labels: appLabels,
      // a receiver finds the Warehouse by its subscribed repository URLs; this only tells readers which ones do
      annotations: release.discovery.receivers.length > 0 ? { [PlatformLabels.WEBHOOK_RECEIVERS]: release.discovery.receivers.join(',') } : undefined,
    },
    // the Warehouse as the API server stores it, so that Argo CD's diff finds nothing to re-sync:
    // interval in metav1.Duration's form, freightCreationPolicy at its CRD default (Kargo v1.11.2
    // api/v1alpha1/warehouse_types.go, `+kubebuilder:default=Automatic`), subscriptions as the
    // defaulting webhook leaves them (subscriptions.ts)
    spec: {
      // Kargo's 5 minutes, or the slow fallback when webhook receivers cover every subscription
      interval: toMetaV1Duration(release.discovery.interval),
      freightCreationPolicy: WarehouseSpecFreightCreationPolicy.AUTOMATIC,
      subscriptions: compact(warehouseSubscriptions(release.artifacts, release.source)),
    },
  });
}

/** The AnalysisTemplates of one wave's checks, and the Kargo Stage that promotes the wave. */
function defineStage(scope: Construct, release: AppRelease, placed: PlacedWave) {
  const { stage, wave } = placed;
  const plan = release.plan;
  const namespace = plan.project;
  const appLabels = { [PlatformLabels.APP]: plan.app };
  const checks = release.checks.get(wave.kargoStage);
  for (const template of checks?.templates ?? []) {
    // the spec is plain JSON with the CRD's field names (validated against the pinned CRD in
    // the tests); the generated class would re-map int-or-string fields
    new ApiObject(scope, `AnalysisTemplate-${template.name}`, {
      ...AnalysisTemplate.GVK,
      metadata: compact({ name: template.name, namespace, labels: template.labels, annotations: template.annotations }),
      spec: template.spec,
    });
  }
  new Stage(scope, `Stage-${wave.kargoStage}`, {
    metadata: {
      name: wave.kargoStage,
      namespace,
      // Kargo v1.11.2's Stage defaulting webhook copies spec.shard into this label
      // (pkg/webhook/kubernetes/stage/webhook.go `Default`); written here, Git matches what is stored
      labels: { ...appLabels, [PlatformLabels.PIPELINE_STAGE]: stage.name, ...wave.kargoShard ? { [KARGO_SHARD_LABEL]: wave.kargoShard } : {} },
      annotations: {
        'kargo.akuity.io/description': wave.controlFlow
          ? `${plan.app}: control flow after ${wave.upstreams.join(', ') || 'the Warehouse'}`
          : `${plan.app} on ${wave.clusters.length} cluster(s): ${wave.clusters.join(', ')}`,
        ...wave.soak === undefined ? {} : { [PlatformLabels.SOAK]: wave.soak },
        // after the ApplicationSets have written the Applications its argocd-update step selects
        ...syncWave(SyncWave.STAGES),
      },
    },
    spec: {
      requestedFreight: [{
        origin: { kind: StageSpecRequestedFreightOriginKind.WAREHOUSE, name: plan.app },
        sources: wave.upstreams.length === 0
          ? { direct: true }
          : {
            stages: [...wave.upstreams],
            // Freight must be verified on every part of the previous wave, or on any one upstream
            // stage of an any-of join (Kargo's default when unset is OneOf, so All is always written).
            // Never requiredSoakTime: the soak is waited in the upstreams' verification, since Kargo
            // v1.11.2 cannot enforce it on joins, waves or gates (verification/soak-check.ts)
            availabilityStrategy: wave.upstreams.length > 1 ? availability(wave) : undefined,
          },
      }],
      shard: wave.kargoShard,
      // without promotion steps a Stage is a control-flow Stage (Kargo v1.11.2
      // api/v1alpha1/stage_types.go, Stage.IsControlFlow): it only passes verified Freight on
      promotionTemplate: wave.controlFlow ? undefined : { spec: { steps: compact(stageSteps(release, placed)) } },
      verification: wave.controlFlow ? undefined : checks?.stageVerification,
    },
  });
}

function availability(wave: WavePlan): StageSpecRequestedFreightSourcesAvailabilityStrategy {
  return wave.join === JoinKind.ANY_OF
    ? StageSpecRequestedFreightSourcesAvailabilityStrategy.ONE_OF
    : StageSpecRequestedFreightSourcesAvailabilityStrategy.ALL;
}
