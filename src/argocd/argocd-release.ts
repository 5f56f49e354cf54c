import { Construct } from 'constructs';
import { defineRepositorySecret } from './repository-secret';
import { Application, ApplicationSet, AppProject } from '../../imports/argocd-argoproj.io';
import { PlatformLabels } from '../contracts/labels';
import { applicationLabels, authorizedStage } from '../contracts/release-names';
import { syncWave, SyncWave } from '../contracts/sync-waves';
import { ArgoCdTopologyKind } from '../fleet/argocd-topology';
import { AppRelease, PerClusterArgoCd, PerClusterPart, PlacedWave } from '../plan/app-release';
import { FreezePlan, ReleasePlan, stageApplicationName, StagePlan, WavePlan } from '../plan/release-plan';
import { undefinedIfEmpty } from '../util/collections';


/**
 * The AppProject is applied a sync wave before the ApplicationSets and Applications that name it:
 * the ApplicationSet controller refuses to write an Application whose project does not exist yet
 * ("application references project ... which does not exist", argo-cd v3.5.1
 * `applicationset/controllers/applicationset_controller.go`, `validateGeneratedApplications`) and
 * retries only after `ReconcileRequeueOnValidationError` (3 minutes), which the e2e suite saw when both came in
 * one wave.
 */
const APP_PROJECT_WAVE = syncWave(SyncWave.REFERENCED);

/** What the Argo CD objects of one app are derived from. */
type ArgoCdContext = AppRelease;

/**
 * Defines the Argo CD side of one app's release plan: an AppProject restricted to the release
 * repository and the app's clusters and namespace, and one ApplicationSet per family of
 * Application names with one clusters generator per wave listing exactly the wave's clusters.
 * Every generated Application carries the labels the wave's Kargo Stage selects and the
 * annotation that authorizes that Stage.
 * @internal
 */
export function defineArgoCdRelease(scope: Construct, ctx: AppRelease, chartFor: (perCluster: PerClusterArgoCd) => Construct): void {
  const plan = ctx.plan;
  const appLabels = { [PlatformLabels.APP]: plan.app };
  // a control-flow Stage deploys nothing
  const waves = ctx.waves.filter(w => !w.wave.controlFlow);
  const central = waves.filter(w => w.wave.argoCd === ArgoCdTopologyKind.CENTRAL);

  if (central.length > 0) {
    const placements = central.flatMap(({ stage, clusters }) => clusters.map(c => ({
      cluster: c.name, target: { name: c.name, server: c.server }, namespace: stage.namespace,
    })));
    new AppProject(scope, 'AppProject', {
      metadata: { name: plan.app, namespace: ctx.argoCdNamespace, labels: appLabels, annotations: { ...APP_PROJECT_WAVE, ...ctx.annotations } },
      spec: appProjectSpec(ctx, destinations(placements),
        syncWindows(central.map(w => ({ stage: w.stage, applications: w.clusters.map(c => c.application) })))),
    });
    defineRepositorySecret(scope, ctx, ctx.argoCdNamespace);
  }

  // a cluster with its own Argo CD gets one chart and one AppProject, whichever stages deploy to it
  for (const perCluster of ctx.perClusterArgoCd) {
    definePerClusterRelease(chartFor(perCluster), ctx, perCluster.cluster, perCluster.parts);
  }

  const bySet = new Map<string, PlacedWave[]>();
  for (const w of central) bySet.set(w.wave.applicationSet!, [...bySet.get(w.wave.applicationSet!) ?? [], w]);
  for (const [name, parts] of bySet) defineApplicationSet(scope, ctx, name, parts);
}

/**
 * One ApplicationSet per family of Application names (the app's namespace, or a stage's own),
 * with one `clusters` generator per wave: each lists exactly the wave's clusters and carries the
 * wave's Kargo Stage, release branch and authorized stage as `values`, from which the template
 * renders each Application's labels, annotation and branch. A cluster that changes wave or stage
 * thus changes only its Application's fields, never its owner: two ApplicationSets would each
 * refuse an Application the other controls and return before deleting their own (argo-cd
 * v3.5.1 `applicationset/controllers/applicationset_controller.go` `Reconcile`,
 * `createOrUpdateInCluster`), so a swap of two clusters between waves would block both.
 * Upstream: `applicationset/generators/cluster.go` `GenerateParams` (per cluster Secret: `name`,
 * then `values` via `value_interpolation.go` `appendTemplatedValues` as `.values.<key>`),
 * `applicationset/controllers/template/template.go` `GenerateApplications` (every generator's
 * params rendered into the one template, `applicationset/utils/utils.go` `RenderTemplateParams`).
 */
function defineApplicationSet(scope: Construct, ctx: ArgoCdContext, name: string, parts: Array<{ stage: StagePlan; wave: WavePlan }>) {
  const plan = ctx.plan;
  const stage = parts[0].stage;
  const stages = [...new Set(parts.map(p => p.stage.name))];
  const setLabels = { [PlatformLabels.APP]: plan.app, ...(stages.length === 1 ? { [PlatformLabels.PIPELINE_STAGE]: stages[0] } : {}) };
  const values = (key: keyof WaveValues) => `{{ .values.${key} }}`;
  new ApplicationSet(scope, `ApplicationSet-${name}`, {
    metadata: { name, namespace: ctx.argoCdNamespace, labels: setLabels },
    spec: {
      goTemplate: true,
      goTemplateOptions: ['missingkey=error'],
      generators: parts.map(({ stage: s, wave }) => ({
        clusters: {
          selector: { matchExpressions: [{ key: PlatformLabels.CLUSTER, operator: 'In', values: [...wave.clusters] }] },
          values: { ...waveValues(plan, s, wave) },
        },
      })),
      // deleting the ApplicationSet or dropping a cluster must not delete running workloads
      syncPolicy: { preserveResourcesOnDeletion: true },
      template: {
        metadata: {
          // one name per cluster in the family, whichever wave: the Application keeps its owner
          name: stageApplicationName(plan, stage, '{{ .name }}'),
          labels: {
            [PlatformLabels.APP]: plan.app,
            [PlatformLabels.PIPELINE_STAGE]: values('pipelineStage'),
            [PlatformLabels.STAGE]: values('kargoStage'),
            [PlatformLabels.CLUSTER]: '{{ .name }}',
          },
          annotations: {
            'kargo.akuity.io/authorized-stage': values('authorizedStage'),
            // only a change under this cluster's directory needs new manifests
            'argocd.argoproj.io/manifest-generate-paths': '.',
          },
        },
        spec: {
          project: plan.app,
          source: { repoUrl: ctx.releaseRepo, targetRevision: values('releaseBranch'), path: '{{ .name }}' },
          destination: { name: '{{ .name }}', namespace: stage.namespace },
          syncPolicy: SYNC_POLICY,
        },
      },
    },
  });
}

/** What a wave's generator hands its Applications: exactly what tells one wave's Applications from another's. */
interface WaveValues {
  readonly pipelineStage: string;
  readonly kargoStage: string;
  readonly releaseBranch: string;
  readonly authorizedStage: string;
}

function waveValues(plan: ReleasePlan, stage: StagePlan, wave: WavePlan): WaveValues {
  // the labels the wave's Stage selects on (`argocd-update`) and the annotation that authorizes it
  const labels = applicationLabels(plan.app, stage.name, wave.kargoStage);
  return {
    pipelineStage: labels[PlatformLabels.PIPELINE_STAGE],
    kargoStage: labels[PlatformLabels.STAGE],
    releaseBranch: wave.releaseBranch!,
    authorizedStage: authorizedStage(plan.project, wave.kargoStage),
  };
}

const SYNC_POLICY = {
  automated: { prune: true, selfHeal: true },
  syncOptions: ['CreateNamespace=true'],
};

interface Destination {
  readonly name?: string;
  readonly server: string;
  readonly namespace: string;
}

/**
 * Exactly the (cluster, namespace) pairs the project's Applications deploy to, sorted by cluster
 * then namespace: a stage's namespace is allowed on that stage's clusters only. Argo CD permits a
 * destination when one entry matches both its cluster and its namespace (argo-cd
 * `pkg/apis/application/v1alpha1/app_project_types.go` `isDestinationMatched`), so a cluster
 * shared by two stages needs one entry per namespace, not a namespace wildcard.
 */
function destinations(placements: Array<{ cluster: string; target: { name?: string; server: string }; namespace: string }>): Destination[] {
  const unique = new Map(placements.map(p => [JSON.stringify([p.cluster, p.namespace]), p]));
  return [...unique.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, p]) => ({ ...p.target, namespace: p.namespace }));
}

function appProjectSpec(ctx: ArgoCdContext, dests: Destination[], windows: SyncWindow[]) {
  return {
    description: ctx.description.slice(0, 255),
    sourceRepos: [ctx.releaseRepo],
    destinations: dests,
    clusterResourceWhitelist: clusterResourceWhitelist(ctx, dests.map(d => d.namespace)),
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
  readonly syncOverrun: boolean;
}

/**
 * The deny sync windows of one AppProject: one per freeze schedule of the stages it deploys,
 * scoped to exactly the Applications of those stages' clusters in this project (Application
 * names, which Argo CD matches for every sync, manual or automated). Argo CD rejects two windows
 * of one kind with the same schedule and duration in a project, so freezes that share both
 * become one window: the Applications of all, every reason, and manual sync only if every one
 * allows it (the plan has already refused such freezes in different time zones). Every window lets
 * a sync that started before it finish (`syncOverrun`).
 * Upstream: argo-cd pkg/apis/application/v1alpha1/types.go (SyncWindow, SyncWindows.Matches,
 * SyncWindows.CanSync) and app_project_types.go (ValidateProject: "window ... already exists").
 */
function syncWindows(parts: { stage: StagePlan; applications: string[] }[]): SyncWindow[] {
  const bySchedule = new Map<string, { freezes: FreezePlan[]; applications: Set<string> }>();
  for (const { stage, applications } of parts) {
    for (const freeze of stage.freezes) {
      const key = JSON.stringify([freeze.schedule, freeze.duration]);
      const entry = bySchedule.get(key) ?? { freezes: [], applications: new Set<string>() };
      if (!entry.freezes.some(f => f.reason === freeze.reason && f.manualSync === freeze.manualSync)) entry.freezes.push(freeze);
      applications.forEach(a => entry.applications.add(a));
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
    // a sync that started before the freeze finishes: Kargo starts none that could still run when
    // the window opens (its freeze step looks ahead by the sync timeout), and stopping one midway
    // leaves a release half applied. Argo CD v3.5.1 lets an operation that started while no deny
    // window held run on only when every active deny window has syncOverrun
    // (pkg/apis/application/v1alpha1/types.go, `SyncWindows.CanSync`, `denyAllowsOverrun`;
    // controller/sync.go `syncWindowPreventsSync` passes the operation's start time)
    syncOverrun: true,
  }));
}

/**
 * The cluster-scoped resources the project permits: the ones the app declares, and each
 * Namespace `CreateNamespace=true` creates (the project's destination namespaces), by name. The
 * auto-created Namespace goes through the project's permission check like any other resource
 * (gitops-engine `pkg/sync/sync_context.go` `autoCreateNamespace`, checked by argo-cd
 * `controller/sync.go`'s permission validator), so without it every first sync fails; `name`
 * restricts the entry to exactly that Namespace (argo-cd `pkg/apis/application/v1alpha1/types.go`
 * `isNamedResourceInList`).
 */
function clusterResourceWhitelist(ctx: ArgoCdContext, namespaces: string[]) {
  const declared = ctx.clusterResources.map(r => ({ group: r.group, kind: r.kind }));
  const allNamespaces = declared.some(r => r.group === '' && r.kind === 'Namespace');
  const created = [...new Set(namespaces)].sort().map(name => ({ group: '', kind: 'Namespace', name }));
  return allNamespaces ? declared : [...declared, ...created];
}

/**
 * A cluster with its own Argo CD gets the AppProject and the Applications (one per stage
 * deploying to it) in a chart of their own, applied to that cluster; the Applications target
 * the in-cluster API.
 */
function definePerClusterRelease(scope: Construct, ctx: ArgoCdContext, cluster: string, parts: PerClusterPart[]) {
  const plan = ctx.plan;
  new AppProject(scope, 'AppProject', {
    metadata: {
      name: plan.app,
      namespace: parts[0].wave.argoCdNamespace,
      labels: { [PlatformLabels.APP]: plan.app },
      annotations: { ...APP_PROJECT_WAVE, ...ctx.annotations },
    },
    spec: appProjectSpec(ctx, destinations(parts.map(p => ({ cluster, target: { server: IN_CLUSTER }, namespace: p.stage.namespace }))),
      syncWindows(parts.map(p => ({ stage: p.stage, applications: [p.cluster.application] })))),
  });
  defineRepositorySecret(scope, ctx, parts[0].wave.argoCdNamespace);
  for (const { stage, wave, cluster: placed } of parts) {
    new Application(scope, `Application-${stage.name}`, {
      metadata: {
        name: placed.application,
        namespace: wave.argoCdNamespace,
        labels: { ...applicationLabels(plan.app, stage.name, wave.kargoStage), [PlatformLabels.CLUSTER]: cluster },
        annotations: {
          'kargo.akuity.io/authorized-stage': authorizedStage(plan.project, wave.kargoStage),
          'argocd.argoproj.io/manifest-generate-paths': '.',
        },
      },
      spec: {
        project: plan.app,
        source: { repoUrl: ctx.releaseRepo, targetRevision: wave.releaseBranch, path: cluster },
        destination: { server: IN_CLUSTER, namespace: stage.namespace },
        syncPolicy: SYNC_POLICY,
      },
    });
  }
}

const IN_CLUSTER = 'https://kubernetes.default.svc';
