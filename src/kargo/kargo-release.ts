import { Construct } from 'constructs';
import { PromotionContext, RENDER_TASK, RENDER_VARS, renderTaskSteps, stageSteps } from './promotion-steps';
import { warehouseSubscriptions } from './subscriptions';
import { Project, ProjectConfig, PromotionTask, Stage, StageSpecRequestedFreightOriginKind, Warehouse } from '../../imports/kargo-kargo.akuity.io';
import { PlatformLabels } from '../fleet/labels';
import { ReleasePlan } from '../plan/release-plan';
import { compact } from '../util/collections';

/**
 * Defines the Kargo side of one app's release plan: its own Project (an independent promotion
 * track), the ProjectConfig with its auto-promotion policies, a Warehouse subscribing to the
 * artifacts, the per-cluster render PromotionTask and one Stage per wave.
 * @internal
 */
export function defineKargoRelease(scope: Construct, plan: ReleasePlan, ctx: PromotionContext, description: string): void {
  const namespace = plan.project;
  const appLabels = { [PlatformLabels.APP]: plan.app };

  new Project(scope, 'Project', {
    metadata: {
      name: plan.project,
      labels: appLabels,
      // the project namespace must exist before Argo CD applies the objects inside it
      annotations: { 'argocd.argoproj.io/sync-wave': '-1', 'kargo.akuity.io/description': description },
    },
  });

  const autoStages = plan.stages.filter(s => s.autoPromote).flatMap(s => s.waves.map(w => w.kargoStage));
  new ProjectConfig(scope, 'ProjectConfig', {
    metadata: { name: plan.project, namespace, labels: appLabels },
    spec: {
      promotionPolicies: autoStages.length > 0
        ? autoStages.map(stage => ({ stageSelector: { name: stage }, autoPromotionEnabled: true }))
        : undefined,
    },
  });

  new Warehouse(scope, 'Warehouse', {
    metadata: { name: plan.app, namespace, labels: appLabels },
    spec: {
      // Kargo's default; webhooks (ProjectConfig receivers) make discovery immediate
      interval: '5m0s',
      subscriptions: compact(warehouseSubscriptions(ctx.artifacts, ctx.source)),
    },
  });

  new PromotionTask(scope, 'RenderTask', {
    metadata: { name: RENDER_TASK, namespace, labels: appLabels },
    spec: {
      vars: RENDER_VARS.map(name => ({ name })),
      steps: compact(renderTaskSteps(ctx)),
    },
  });

  for (const stage of plan.stages) {
    for (const wave of stage.waves) {
      new Stage(scope, `Stage-${wave.kargoStage}`, {
        metadata: {
          name: wave.kargoStage,
          namespace,
          labels: { ...appLabels, [PlatformLabels.PIPELINE_STAGE]: stage.name },
          annotations: {
            'kargo.akuity.io/description': `${plan.app} on ${wave.clusters.length} cluster(s): ${wave.clusters.join(', ')}`,
          },
        },
        spec: {
          requestedFreight: [{
            origin: { kind: StageSpecRequestedFreightOriginKind.WAREHOUSE, name: plan.app },
            sources: wave.upstream === undefined
              ? { direct: true }
              : { stages: [wave.upstream], requiredSoakTime: wave.soak },
          }],
          promotionTemplate: { spec: { steps: compact(stageSteps(ctx, stage, wave)) } },
        },
      });
    }
  }
}
