import { Construct } from 'constructs';
import { ApplicationSet, AppProject } from '../../imports/argocd-argoproj.io';
import { Cluster } from '../fleet/cluster';
import { PlatformLabels } from '../fleet/labels';
import { applicationLabels } from '../kargo/promotion-steps';
import { ReleasePlan } from '../plan/release-plan';

/**
 * What the Argo CD objects of one app are derived from.
 * @internal
 */
export interface ArgoCdContext {
  readonly releaseRepo: string;
  readonly argoCdNamespace: string;
  readonly clusters: Map<string, Cluster>;
  readonly description: string;
}

/** The value of `kargo.akuity.io/authorized-stage` for a Kargo Stage. @internal */
export function authorizedStage(project: string, kargoStage: string): string {
  return `${project}:${kargoStage}`;
}

/**
 * Defines the Argo CD side of one app's release plan: an AppProject restricted to the release
 * repository and the app's clusters and namespace, and one ApplicationSet per wave whose
 * clusters generator lists exactly the wave's clusters. Every generated Application carries the
 * labels the wave's Kargo Stage selects and the annotation that authorizes that Stage.
 * @internal
 */
export function defineArgoCdRelease(scope: Construct, plan: ReleasePlan, ctx: ArgoCdContext): void {
  const appLabels = { [PlatformLabels.APP]: plan.app };

  new AppProject(scope, 'AppProject', {
    metadata: { name: plan.app, namespace: ctx.argoCdNamespace, labels: appLabels },
    spec: {
      description: ctx.description.slice(0, 255),
      sourceRepos: [ctx.releaseRepo],
      destinations: plan.clusters.map(name => ({
        name,
        server: ctx.clusters.get(name)!.server,
        namespace: plan.destinationNamespace,
      })),
      // clusterResourceWhitelist is left out on purpose: no cluster-scoped resources
    },
  });

  for (const stage of plan.stages) {
    for (const wave of stage.waves) {
      const labels = applicationLabels(plan.app, stage.name, wave.kargoStage);
      new ApplicationSet(scope, `ApplicationSet-${wave.kargoStage}`, {
        metadata: { name: wave.applicationSet, namespace: ctx.argoCdNamespace, labels },
        spec: {
          goTemplate: true,
          goTemplateOptions: ['missingkey=error'],
          generators: [{
            clusters: {
              selector: { matchExpressions: [{ key: PlatformLabels.CLUSTER, operator: 'In', values: [...wave.clusters] }] },
            },
          }],
          // deleting the ApplicationSet or dropping a cluster must not delete running workloads
          syncPolicy: { preserveResourcesOnDeletion: true },
          template: {
            metadata: {
              name: `${plan.app}-{{ .name }}`,
              labels: { ...labels, [PlatformLabels.CLUSTER]: '{{ .name }}' },
              annotations: {
                'kargo.akuity.io/authorized-stage': authorizedStage(plan.project, wave.kargoStage),
                // only a change under this cluster's directory needs new manifests
                'argocd.argoproj.io/manifest-generate-paths': '.',
              },
            },
            spec: {
              project: plan.app,
              source: { repoUrl: ctx.releaseRepo, targetRevision: wave.releaseBranch, path: '{{ .name }}' },
              destination: { name: '{{ .name }}', namespace: plan.destinationNamespace },
              syncPolicy: {
                automated: { prune: true, selfHeal: true },
                syncOptions: ['CreateNamespace=true'],
              },
            },
          },
        },
      });
    }
  }
}
