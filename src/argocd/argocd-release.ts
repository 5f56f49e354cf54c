import { Construct } from 'constructs';
import { Application, ApplicationSet, AppProject } from '../../imports/argocd-argoproj.io';
import { PlatformLabels } from '../contracts/labels';
import { applicationLabels, applicationName, authorizedStage } from '../contracts/release-names';
import { ArgoCdTopologyKind } from '../fleet/argocd-topology';
import { AppRelease } from '../plan/app-release';
import { FreezePlan, ReleasePlan, StagePlan, WavePlan } from '../plan/release-plan';
import { undefinedIfEmpty } from '../util/collections';

/** What the Argo CD objects of one app are derived from. */
type ArgoCdContext = AppRelease;

/**
 * Defines the Argo CD side of one app's release plan: an AppProject restricted to the release
 * repository and the app's clusters and namespace, and one ApplicationSet per wave whose
 * clusters generator lists exactly the wave's clusters. Every generated Application carries the
 * labels the wave's Kargo Stage selects and the annotation that authorizes that Stage.
 * @internal
 */
export function defineArgoCdRelease(scope: Construct, ctx: AppRelease, chartForCluster: (cluster: string) => Construct): void {
  const plan = ctx.plan;
  const appLabels = { [PlatformLabels.APP]: plan.app };
  // a control-flow Stage deploys nothing
  const waves = plan.stages.flatMap(stage => stage.waves.filter(w => !w.controlFlow).map(wave => ({ stage, wave })));
  const central = waves.filter(w => w.wave.argoCd === ArgoCdTopologyKind.CENTRAL);

  if (central.length > 0) {
    new AppProject(scope, 'AppProject', {
      metadata: { name: plan.app, namespace: ctx.argoCdNamespace, labels: appLabels, annotations: undefinedIfEmpty(ctx.annotations) },
      spec: appProjectSpec(ctx, central.flatMap(w => w.wave.clusters).sort().map(name => ({
        name,
        server: ctx.clusters.get(name)!.server,
        namespace: plan.destinationNamespace,
      })), syncWindows(plan, central.map(w => ({ stage: w.stage, clusters: w.wave.clusters })))),
    });
  }

  for (const { stage, wave } of waves.filter(w => w.wave.argoCd === ArgoCdTopologyKind.PER_CLUSTER)) {
    for (const cluster of wave.clusters) {
      definePerClusterApplication(chartForCluster(cluster), plan, ctx, stage.name, wave, cluster);
    }
  }

  for (const { stage, wave } of central) {
    defineApplicationSet(scope, plan, ctx, stage.name, wave);
  }
}

/**
 * One ApplicationSet per central wave: its clusters generator lists exactly the wave's clusters,
 * and every generated Application carries the labels the wave's Kargo Stage selects and the
 * annotation that authorizes that Stage.
 */
function defineApplicationSet(scope: Construct, plan: ReleasePlan, ctx: ArgoCdContext, pipelineStage: string, wave: WavePlan) {
  const labels = applicationLabels(plan.app, pipelineStage, wave.kargoStage);
  new ApplicationSet(scope, `ApplicationSet-${wave.kargoStage}`, {
    metadata: { name: wave.applicationSet!, namespace: ctx.argoCdNamespace, labels },
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
          name: applicationName(plan.app, '{{ .name }}'),
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
          syncPolicy: SYNC_POLICY,
        },
      },
    },
  });
}

const SYNC_POLICY = {
  automated: { prune: true, selfHeal: true },
  syncOptions: ['CreateNamespace=true'],
};

function appProjectSpec(ctx: ArgoCdContext, destinations: { name?: string; server: string; namespace: string }[], windows: SyncWindow[]) {
  return {
    description: ctx.description.slice(0, 255),
    sourceRepos: [ctx.releaseRepo],
    destinations,
    clusterResourceWhitelist: clusterResourceWhitelist(ctx),
    syncWindows: undefinedIfEmpty(windows),
  };
}

interface SyncWindow {
  readonly kind: 'deny';
  readonly schedule: string;
  readonly duration: string;
  readonly timeZone: string;
  readonly manualSync: boolean;
  readonly applications: string[];
  readonly description: string;
}

/**
 * The deny sync windows of one AppProject: one per freeze schedule of the stages it deploys,
 * scoped to exactly the Applications of those stages' clusters in this project (Application
 * names, which Argo CD matches for every sync, manual or automated). Argo CD rejects two windows
 * of one kind with the same schedule and duration in a project, so freezes that share both
 * become one window: the Applications of all, every reason, and manual sync only if every one
 * allows it (the plan has already refused such freezes in different time zones).
 * Upstream: argo-cd pkg/apis/application/v1alpha1/types.go (SyncWindow, SyncWindows.Matches,
 * SyncWindows.CanSync) and app_project_types.go (ValidateProject: "window ... already exists").
 */
function syncWindows(plan: ReleasePlan, parts: { stage: StagePlan; clusters: string[] }[]): SyncWindow[] {
  const bySchedule = new Map<string, { freezes: FreezePlan[]; applications: Set<string> }>();
  for (const { stage, clusters } of parts) {
    for (const freeze of stage.freezes) {
      const key = JSON.stringify([freeze.schedule, freeze.duration]);
      const entry = bySchedule.get(key) ?? { freezes: [], applications: new Set<string>() };
      if (!entry.freezes.some(f => f.reason === freeze.reason && f.manualSync === freeze.manualSync)) entry.freezes.push(freeze);
      clusters.forEach(c => entry.applications.add(applicationName(plan.app, c)));
      bySchedule.set(key, entry);
    }
  }
  return [...bySchedule.values()].map(({ freezes, applications }) => ({
    kind: 'deny',
    schedule: freezes[0].schedule,
    duration: freezes[0].duration,
    timeZone: freezes[0].timeZone,
    manualSync: freezes.every(f => f.manualSync),
    applications: [...applications].sort(),
    description: [...new Set(freezes.map(f => f.reason))].join('; '),
  }));
}

/**
 * The cluster-scoped resources the project permits: the ones the app declares, and the one
 * Namespace `CreateNamespace=true` creates, by name. The auto-created Namespace goes through the
 * project's permission check like any other resource (gitops-engine `pkg/sync/sync_context.go`
 * `autoCreateNamespace`, checked by argo-cd `controller/sync.go`'s permission validator), so
 * without it every first sync fails; `name` restricts the entry to exactly that Namespace
 * (argo-cd `pkg/apis/application/v1alpha1/types.go` `isNamedResourceInList`).
 */
function clusterResourceWhitelist(ctx: ArgoCdContext) {
  const declared = ctx.clusterResources.map(r => ({ group: r.group, kind: r.kind }));
  const allNamespaces = declared.some(r => r.group === '' && r.kind === 'Namespace');
  return allNamespaces ? declared : [...declared, { group: '', kind: 'Namespace', name: ctx.plan.destinationNamespace }];
}

/**
 * A cluster with its own Argo CD gets the AppProject and the Application in a chart of their
 * own, applied to that cluster; the Application targets the in-cluster API.
 */
function definePerClusterApplication(scope: Construct, plan: ReleasePlan, ctx: ArgoCdContext, pipelineStage: string, wave: WavePlan,
  cluster: string) {
  new AppProject(scope, 'AppProject', {
    metadata: {
      name: plan.app,
      namespace: wave.argoCdNamespace,
      labels: { [PlatformLabels.APP]: plan.app },
      annotations: undefinedIfEmpty(ctx.annotations),
    },
    spec: appProjectSpec(ctx, [{ server: IN_CLUSTER, namespace: plan.destinationNamespace }],
      syncWindows(plan, [{ stage: plan.stages.find(s => s.name === pipelineStage)!, clusters: [cluster] }])),
  });
  new Application(scope, 'Application', {
    metadata: {
      name: applicationName(plan.app, cluster),
      namespace: wave.argoCdNamespace,
      labels: { ...applicationLabels(plan.app, pipelineStage, wave.kargoStage), [PlatformLabels.CLUSTER]: cluster },
      annotations: {
        'kargo.akuity.io/authorized-stage': authorizedStage(plan.project, wave.kargoStage),
        'argocd.argoproj.io/manifest-generate-paths': '.',
      },
    },
    spec: {
      project: plan.app,
      source: { repoUrl: ctx.releaseRepo, targetRevision: wave.releaseBranch, path: cluster },
      destination: { server: IN_CLUSTER, namespace: plan.destinationNamespace },
      syncPolicy: SYNC_POLICY,
    },
  });
}

const IN_CLUSTER = 'https://kubernetes.default.svc';
