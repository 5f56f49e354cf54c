import { compare, FLEET_GROUP, ManifestObject } from './manifest-set';
import { fieldChanges } from './object-fields';
import { AppChange, PlanChange } from './release-diff';
import { PlatformLabels } from '../contracts/labels';

/**
 * What kind of risk a flag names: objects deleted, deleted and created again, Applications
 * recreated by their ApplicationSet, a production change, or a change wider than the limits.
 */
export type RiskCode = 'delete' | 'delete-and-recreate' | 'recreates-applications' | 'production' | 'wide-change';

/** Something a reviewer must not miss. Risk flags inform; they never change the exit code. */
export interface RiskFlag {
  /** What kind of risk it is. */
  readonly code: RiskCode;
  /** The app, `fleet`, or `*` for the whole change. */
  readonly app: string;
  /** What happens, including what the live controllers do. */
  readonly message: string;
  /** The objects concerned (keys), sorted. */
  readonly objects: string[];
}

/** Thresholds of the `wide-change` flag. */
export interface RiskOptions {
  /**
   * Flag a change that touches more clusters than this.
   * @default 10
   */
  readonly maxClusters?: number;
  /**
   * Flag a change that touches more apps than this.
   * @default 5
   */
  readonly maxApps?: number;
}

const ARGO = 'argoproj.io/';
const RESOURCES_FINALIZER = 'resources-finalizer.argocd.argoproj.io';
const isArgo = (o: ManifestObject, kind: string) => o.obj?.kind === kind && String(o.obj?.apiVersion ?? '').startsWith(ARGO);
const isClusterSecret = (o: ManifestObject) => o.obj?.kind === 'Secret' && o.obj?.metadata?.labels?.['argocd.argoproj.io/secret-type'] === 'cluster';
const identity = (o: ManifestObject) => `${o.obj?.kind ?? ''} ${o.obj?.metadata?.name ?? ''}`;

/**
 * What the live controllers do when an object is deleted (argo-cd v3.5.1):
 * - ApplicationSet: its Applications carry it as controller owner reference
 *   (applicationset/controllers/applicationset_controller.go, createOrUpdateInCluster), so Kubernetes
 *   garbage-collects them; they carry the resources finalizer only without
 *   `preserveResourcesOnDeletion` (applicationset/utils/utils.go, RenderTemplateParams).
 * - Application: with the resources finalizer the application controller deletes what it deployed
 *   (controller/appcontroller.go, finalizeApplicationDeletion), else it stays, unmanaged.
 * - AppProject: with its finalizer it stays Terminating while Applications use it
 *   (controller/appcontroller.go, finalizeProjectDeletion); without, it goes at once and those
 *   Applications get "Application referencing project … which does not exist" (projectErrorToCondition).
 * - cluster Secret: the cluster generators stop generating the cluster's Applications; the
 *   ApplicationSets delete them after removing the resources finalizer, because the destination is
 *   no longer a known cluster (applicationset_controller.go, deleteInCluster and
 *   removeFinalizerOnInvalidDestination).
 */
export function deletionConsequence(o: ManifestObject): string {
  const obj = o.obj ?? {};
  if (isArgo(o, 'ApplicationSet')) {
    return obj.spec?.syncPolicy?.preserveResourcesOnDeletion === true
      ? 'Kubernetes deletes its Applications (owner reference); preserveResourcesOnDeletion is set, so they have no resources finalizer and the deployed resources stay, unmanaged'
      : 'Kubernetes deletes its Applications (owner reference) and, without preserveResourcesOnDeletion, Argo CD deletes every resource they deployed';
  }
  if (isArgo(o, 'Application')) {
    return (obj.metadata?.finalizers ?? []).includes(RESOURCES_FINALIZER)
      ? `it has the ${RESOURCES_FINALIZER}: Argo CD deletes every resource it deployed`
      : 'it has no resources finalizer: the deployed resources stay, unmanaged';
  }
  if (isArgo(o, 'AppProject')) {
    return (obj.metadata?.finalizers ?? []).includes(RESOURCES_FINALIZER)
      ? 'it stays Terminating until no Application uses it'
      : `Argo CD deletes it at once; Applications still in project ${JSON.stringify(obj.metadata?.name ?? '')} report "Application referencing project … which does not exist" and stop syncing`;
  }
  if (isClusterSecret(o)) {
    return 'Argo CD forgets the cluster: its ApplicationSets delete the cluster\'s Applications after removing their resources finalizer (the destination is unknown), so the workloads stay on the cluster, unmanaged';
  }
  if (obj.kind === 'Namespace') return 'Kubernetes deletes everything in the namespace';
  return 'deleted when the Argo CD Application that applies these manifests prunes';
}

/** Every risk flag of a change, apps in name order, the whole-change flags last. */
export function riskFlags(change: PlanChange, options: RiskOptions = {}): RiskFlag[] {
  const flags: RiskFlag[] = [];
  for (const app of change.apps) flags.push(...appFlags(change, app));
  if (change.fleet) {
    const removed = change.base.ofGroup(FLEET_GROUP).filter((o) => change.fleet!.objects.removed.includes(o.key));
    flags.push(...deleteFlags(FLEET_GROUP, removed, change.head.ofGroup(FLEET_GROUP)));
  }
  const maxClusters = options.maxClusters ?? 10;
  const maxApps = options.maxApps ?? 5;
  const clusters = touchedClusters(change);
  if (clusters.length > maxClusters) {
    flags.push({ code: 'wide-change', app: '*', message: `touches ${clusters.length} clusters, more than ${maxClusters}`, objects: [] });
  }
  if (change.apps.length > maxApps) {
    flags.push({ code: 'wide-change', app: '*', message: `touches ${change.apps.length} apps, more than ${maxApps}`, objects: [] });
  }
  return flags;
}

/** The keys of the ApplicationSets of `objects` with one of `names`, sorted, once each. */
function applicationSetKeys(objects: readonly ManifestObject[], names: string[]): string[] {
  return [...new Set(objects.filter((o) => isArgo(o, 'ApplicationSet') && names.includes(o.obj?.metadata?.name)).map((o) => o.key))].sort();
}

function appFlags(change: PlanChange, app: AppChange): RiskFlag[] {
  const base = change.base.ofGroup(app.app);
  const head = change.head.ofGroup(app.app);
  const removed = base.filter((o) => app.objects.removed.includes(o.key));
  const flags = deleteFlags(app.app, removed, head.filter((o) => app.objects.added.includes(o.key)));
  // the ApplicationSets and Applications of the app that change: the objects whose controller acts
  const changedOf = (kind: string) => head.filter((o) => isArgo(o, kind) && app.objects.changed.includes(o.key)).map((o) => o.key);
  if (app.status === 'changed' && app.clustersRemoved.length) {
    flags.push({
      code: 'delete',
      app: app.app,
      message: `${app.clustersRemoved.length} cluster(s) leave the app (${app.clustersRemoved.join(', ')}): their ApplicationSet deletes their Applications`
        + ' (unless its applicationsSync policy forbids deletes); with preserveResourcesOnDeletion the deployed resources stay, unmanaged',
      objects: [...changedOf('ApplicationSet'), ...changedOf('Application')].sort(),
    });
  }
  const renamed = head.filter((o) => isArgo(o, 'ApplicationSet') && app.objects.changed.includes(o.key)).filter((o) => {
    const old = base.find((b) => b.key === o.key);
    return fieldChanges(old?.obj, o.obj).some((f) => f.path === '/spec/template/metadata/name');
  });
  if (renamed.length) {
    flags.push({
      code: 'recreates-applications',
      app: app.app,
      message: 'spec.template.metadata.name changes: the ApplicationSet deletes every Application under the old name and creates new ones',
      objects: renamed.map((o) => o.key),
    });
  }
  // only an Application that changes ApplicationSet is deleted and created again (deleteInCluster by
  // the old owner, createOrUpdateInCluster by the new one); a wave move within one ApplicationSet
  // rewrites the Application in place (argocd-transition.ts)
  const owners = app.argoCd.ownerChanges;
  if (owners.length) {
    flags.push({
      code: 'recreates-applications',
      app: app.app,
      message: `${owners.length} Application(s) change ApplicationSet (${owners.map((o) => o.application).join(', ')}): the old ApplicationSet deletes `
        + 'them and the new one creates them again',
      objects: applicationSetKeys([...base, ...head], owners.flatMap((o) => [o.before, o.after])),
    });
  }
  const p = app.productionObjects;
  const inProduction = p.added.length + p.changed.length + p.removed.length;
  if (inProduction || app.stages.some((s) => s.production)) {
    flags.push({
      code: 'production',
      app: app.app,
      message: `changes production: ${p.added.length} added, ${p.changed.length} changed, ${p.removed.length} removed object(s)`
        + `${app.stages.filter((s) => s.production).map((s) => `, stage ${s.stage}`).join('')}`,
      objects: [...p.added, ...p.changed, ...p.removed].sort(),
    });
  }
  return flags;
}

/** One flag per deleted object; a delete whose kind and name come back under another key is a delete-and-recreate. */
function deleteFlags(app: string, removed: ManifestObject[], added: ManifestObject[]): RiskFlag[] {
  return removed.map((o) => {
    const again = added.find((a) => identity(a) === identity(o));
    return again
      ? { code: 'delete-and-recreate' as const, app, message: `${identity(o)} is deleted and created again as ${again.key}: ${deletionConsequence(o)}, then it is created anew`, objects: [o.key, again.key] }
      : { code: 'delete' as const, app, message: `${o.key} is deleted: ${deletionConsequence(o)}`, objects: [o.key] };
  });
}

/** The clusters whose Applications or cluster Secret a change touches, sorted. */
export function touchedClusters(change: PlanChange): string[] {
  const out = new Set<string>();
  for (const app of change.apps) {
    [...app.clustersAdded, ...app.clustersRemoved].forEach((c) => out.add(c));
    if (app.status !== 'changed') [...(app.before?.clusters ?? []), ...(app.after?.clusters ?? [])].forEach((c) => out.add(c));
    for (const s of app.stages) {
      const all = s.gates || s.soak || s.checks || s.status !== 'changed';
      const stageWaves = [app.before, app.after].flatMap((m) => m?.stages.find((x) => x.name === s.stage)?.waves ?? []);
      if (all) stageWaves.forEach((w) => w.clusters.forEach((c) => out.add(c)));
      for (const w of s.waves) [...(w.before?.clusters ?? []), ...(w.after?.clusters ?? [])].forEach((c) => out.add(c));
    }
    const objects = [...change.base.ofGroup(app.app), ...change.head.ofGroup(app.app)];
    const keys = new Set([...app.objects.added, ...app.objects.changed, ...app.objects.removed]);
    for (const o of objects.filter((x) => keys.has(x.key))) {
      if (o.cluster) out.add(o.cluster);
      // an ApplicationSet's template change reaches every cluster of its wave
      const wave = isArgo(o, 'ApplicationSet') ? o.obj?.metadata?.labels?.[PlatformLabels.STAGE] : undefined;
      if (typeof wave !== 'string') continue;
      const waves = [app.before, app.after].flatMap((m) => m?.stages ?? []).flatMap((s) => s.waves).filter((w) => w.name === wave);
      waves.forEach((w) => w.clusters.forEach((c) => out.add(c)));
    }
  }
  const f = change.fleet;
  if (f) [...f.clustersAdded, ...f.clustersRemoved, ...f.clustersChanged].forEach((c) => out.add(c));
  return [...out].sort(compare);
}
