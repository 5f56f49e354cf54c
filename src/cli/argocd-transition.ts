import { compare, ManifestObject } from './manifest-set';
import { PlatformLabels } from '../contracts/labels';
import { ApplicationsSyncPolicy, FleetChangeEvent, simulateFleetChange } from '../testkit/model/applicationset-ownership';
import { modelApplications } from '../testkit/model/argocd-applications';
import { ControllerFinding } from '../testkit/model/controller-finding';

/** The ApplicationSet controller policies (`--policy`), in the order Argo CD documents them. */
export const APPLICATIONS_SYNC_POLICIES: ApplicationsSyncPolicy[] = ['sync', 'create-only', 'create-update', 'create-delete'];

/** An Application that stays with its ApplicationSet while its cluster changes wave (Kargo Stage). */
export interface InPlaceMove {
  readonly application: string;
  /** The ApplicationSet that generates it; `''` for an Application object of a cluster with its own Argo CD. */
  readonly applicationSet: string;
  /** The Kargo Stage that updates it before → after. */
  readonly stage: { readonly before: string; readonly after: string };
}

/** An Application that changes ApplicationSet. */
export interface OwnerChange {
  readonly application: string;
  readonly before: string;
  readonly after: string;
}

/**
 * What the central Argo CD's ApplicationSet controller does with one app's change, from the test
 * kit's model of its ownership rules (`simulateFleetChange`) run on the hub's objects before and
 * after.
 */
export interface ArgoCdTransition {
  readonly policy: ApplicationsSyncPolicy;
  readonly inPlace: InPlaceMove[];
  readonly ownerChanges: OwnerChange[];
  /** ApplicationSets the head no longer has that controlled Applications. */
  readonly removedApplicationSets: string[];
  /** Applications refused at first ("already owned") that the reconciles then cleared. */
  readonly cleared: string[];
  /** What is still wrong once nothing changes: for a person to do. */
  readonly findings: ControllerFinding[];
}

/** The hub's objects of an app (per-cluster files go to clusters with their own Argo CD). */
const hub = (objects: ManifestObject[]) => objects.filter((o) => o.cluster === '').map((o) => o.obj);

/** Simulates the ApplicationSet controller over one app's change (its objects and the fleet's, before and after). */
export function argoCdTransition(before: ManifestObject[], after: ManifestObject[], policy: ApplicationsSyncPolicy = 'sync'): ArgoCdTransition {
  const [b, a] = [hub(before), hub(after)];
  const result = simulateFleetChange(b, a, { policy });
  const ownerOf = (objects: any[]) => new Map(modelApplications(objects).filter((x) => x.origin.obj?.kind === 'ApplicationSet')
    .map((x) => [`${x.namespace}/${x.name}`, { set: `${x.origin.obj.metadata?.namespace ?? 'argocd'}/${x.origin.obj.metadata?.name}`, app: x }]));
  const [was, will] = [ownerOf(b), ownerOf(a)];
  const inPlace: InPlaceMove[] = [];
  const ownerChanges: OwnerChange[] = [];
  for (const [key, now] of [...will].sort(([x], [y]) => compare(x, y))) {
    const then = was.get(key);
    if (!then) continue;
    if (then.set !== now.set) {
      ownerChanges.push({ application: key, before: then.set, after: now.set });
      continue;
    }
    const [s0, s1] = [then.app.labels[PlatformLabels.STAGE] ?? '', now.app.labels[PlatformLabels.STAGE] ?? ''];
    if (s0 !== s1) inPlace.push({ application: key, applicationSet: now.set, stage: { before: s0, after: s1 } });
  }
  inPlace.push(...perClusterMoves(before, after));
  const headSets = new Set([...will.values()].map((x) => x.set));
  const removed = [...new Set([...was.values()].map((x) => x.set))].filter((s) => !headSets.has(s)).sort(compare);
  const blocked = new Set(result.findings.flatMap((f) => refusedIn(result.events, f)));
  const cleared = [...new Set(result.events.filter((e) => e.action === 'refused').map((e) => e.application))]
    .filter((x) => !blocked.has(x)).sort(compare);
  return { policy, inPlace, ownerChanges, removedApplicationSets: removed, cleared, findings: result.findings };
}

/** Application objects of clusters with their own Argo CD whose Kargo Stage changes: the cluster's chart changes them in place. */
function perClusterMoves(before: ManifestObject[], after: ManifestObject[]): InPlaceMove[] {
  const stageOf = (o: ManifestObject) => String(o.obj?.metadata?.labels?.[PlatformLabels.STAGE] ?? '');
  const applications = (list: ManifestObject[]) => new Map(list.filter((o) => o.cluster !== '' && o.obj?.kind === 'Application').map((o) => [o.key, o]));
  const was = applications(before);
  return [...applications(after)].filter(([key, o]) => was.has(key) && stageOf(was.get(key)!) !== stageOf(o))
    .sort(([x], [y]) => compare(x, y))
    .map(([, o]) => ({
      application: `${o.cluster}:${o.obj.metadata?.namespace ?? 'argocd'}/${o.obj.metadata?.name}`,
      applicationSet: '',
      stage: { before: stageOf(was.get(o.key)!), after: stageOf(o) },
    }));
}

/** The Applications a finding's ApplicationSet is still refused in its last reconcile. */
function refusedIn(events: FleetChangeEvent[], f: ControllerFinding): string[] {
  if (f.code !== 'applicationset-ownership-conflict') return [];
  const id = `${f.namespace ?? 'argocd'}/${f.name}`;
  const mine = events.filter((e) => e.applicationSet === id && e.action === 'refused');
  const last = Math.max(0, ...mine.map((e) => e.round));
  return mine.filter((e) => e.round === last).map((e) => e.application);
}
