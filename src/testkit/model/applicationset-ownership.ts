import { clusterSecrets, modelApplications } from './argocd-applications';
import { ControllerFinding, finding } from './controller-finding';
import { ModelApplication } from './kargo-steps';

/**
 * A fleet change between two syntheses, as the Argo CD v3.5.1 ApplicationSet controller lives
 * through it: the Applications exist as the objects before generated them, then the objects
 * after are applied and every ApplicationSet reconciles again and again until nothing changes.
 * Each reconcile follows `applicationset/controllers/applicationset_controller.go`:
 *
 * - `Reconcile`: generate (`template.GenerateApplications`), drop every Application of a name
 *   generated twice (`validateGeneratedApplications`), then `createOrUpdateInCluster` when the policy allows
 *   updates, else `createInCluster`; on any error it returns before `deleteInCluster`.
 * - `createOrUpdateInCluster`: per Application `utils.CreateOrUpdate` whose mutate ends with
 *   `controllerutil.SetControllerReference`, which fails on an Application another ApplicationSet
 *   controls ("already owned"); an unowned one is adopted. Every Application is tried, the first
 *   error is returned (`firstAppError`).
 * - `createInCluster`: the same, for the generated Applications this ApplicationSet does not
 *   control yet (`getCurrentApplications`: by controller reference).
 * - `deleteInCluster`: deletes the Applications it controls that it no longer generates.
 * - the policy: the controller's `--policy` (`applicationsSync`, default `sync`), or the
 *   ApplicationSet's `spec.syncPolicy.applicationsSync` when overrides are enabled
 *   (`applicationset/utils/policy.go` `DefaultPolicy`); `AllowUpdate` is `create-update`/`sync`,
 *   `AllowDelete` is `create-delete`/`sync` (`pkg/apis/application/v1alpha1/applicationset_types.go`).
 *
 * An ApplicationSet the after objects no longer hold is deleted by whoever applies them (unless
 * `removedApplicationSets: 'kept'`); it has no finalizer, so Kubernetes' garbage collector
 * deletes the Applications it controls, whatever the policy (argo-cd docs
 * `operator-manual/applicationset/Controlling-Resource-Modification.md`, "How to prevent
 * Application controller from deleting Applications when deleting ApplicationSet";
 * `Application-Deletion.md`). The fixed point does not depend on the order of the reconciles:
 * an Application is blocked while its controller keeps it, and that does not depend on order.
 * Applications that are objects of their own are not modelled (the library applies those to
 * clusters with their own Argo CD, never to the hub).
 */

/** The ApplicationSet controller's `--policy` (`applicationsSync`). */
export type ApplicationsSyncPolicy = 'sync' | 'create-only' | 'create-update' | 'create-delete';

export interface FleetChangeOptions {
  /**
   * The ApplicationSet controller's `--policy`.
   * @default 'sync'
   */
  readonly policy?: ApplicationsSyncPolicy;
  /**
   * The controller's `--enable-policy-override`: an ApplicationSet's `spec.syncPolicy.applicationsSync` then wins.
   * @default false
   */
  readonly enablePolicyOverride?: boolean;
  /**
   * What happens to ApplicationSets the after objects no longer hold: `deleted` (the applier
   * prunes them) or `kept` (e.g. `kubectl apply` without `--prune`: they go on reconciling).
   * @default 'deleted'
   */
  readonly removedApplicationSets?: 'deleted' | 'kept';
}

/** What one reconcile did to one Application. */
export interface FleetChangeEvent {
  /** 1 for the first reconciles after the change; 0: Kubernetes deleted a removed ApplicationSet's Applications. */
  readonly round: number;
  readonly applicationSet: string;
  readonly application: string;
  readonly action: 'created' | 'updated' | 'adopted' | 'deleted' | 'refused' | 'garbage-collected';
  /** For `refused`: the ApplicationSet that controls the Application. */
  readonly owner?: string;
}

export interface FleetChangeResult {
  /** What is still wrong once no reconcile changes anything. */
  readonly findings: ControllerFinding[];
  readonly events: FleetChangeEvent[];
  /** How many rounds of reconciles it took until nothing changed. */
  readonly rounds: number;
  /** The Applications at the end: name → the ApplicationSet controlling it (`''`: none). */
  readonly owners: Map<string, string>;
}

interface LiveApplication {
  owner: string;
  /** The generated fields as last written (labels, annotations, spec). */
  fields: string;
}

interface Reconciler {
  readonly id: string;
  readonly obj: any;
  readonly generated: ModelApplication[];
  readonly policy: ApplicationsSyncPolicy;
}

/** The ApplicationSet controller over a fleet change: before's Applications, after's ApplicationSets, reconciled to a fixed point. */
export function simulateFleetChange(before: any[], after: any[], options: FleetChangeOptions = {}): FleetChangeResult {
  const live = initialApplications(before, options);
  const events: FleetChangeEvent[] = [];
  const afterSets = reconcilers(after, after, options);
  const afterIds = new Set(afterSets.map((r) => r.id));
  // a removed ApplicationSet that is kept goes on generating from its old spec over the new fleet
  const removed = reconcilers(before, after, options).filter((r) => !afterIds.has(r.id));
  const sets = options.removedApplicationSets === 'kept' ? [...afterSets, ...removed].sort(byId) : afterSets;
  if (options.removedApplicationSets !== 'kept') {
    // no finalizer on the ApplicationSet: Kubernetes deletes what it controlled
    const gone = new Set(removed.map((r) => r.id));
    for (const [key, app] of [...live]) {
      if (!gone.has(app.owner)) continue;
      live.delete(key);
      events.push({ round: 0, applicationSet: app.owner, application: key, action: 'garbage-collected' });
    }
  }
  let round = 0;
  let errors = new Map<string, FleetChangeEvent[]>();
  const limit = sets.length + 3;
  while (round < limit) {
    round++;
    const start = events.length;
    errors = new Map();
    for (const set of sets) {
      const refused = reconcile(set, live, round, events);
      if (refused.length > 0) errors.set(set.id, refused);
    }
    if (events.slice(start).every((e) => e.action === 'refused')) break;
  }
  return {
    findings: fixedPointFindings(sets, live, errors),
    events,
    rounds: round,
    owners: new Map([...live].map(([k, v]) => [k, v.owner])),
  };
}

const byId = (a: Reconciler, b: Reconciler) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** The ApplicationSets of `objects`, generating over the cluster Secrets of `secretsFrom`. */
function reconcilers(objects: any[], secretsFrom: any[], options: FleetChangeOptions): Reconciler[] {
  const secrets = clusterSecrets(secretsFrom);
  return objects.filter((o) => o?.kind === 'ApplicationSet' && o.spec?.template).map((obj) => ({
    id: `${obj.metadata?.namespace ?? 'argocd'}/${obj.metadata?.name ?? ''}`,
    obj,
    generated: modelApplications([...secrets, obj]),
    policy: policyOf(obj, options),
  })).sort(byId);
}

/** `applicationset/utils/policy.go` `DefaultPolicy`. */
function policyOf(appSet: any, options: FleetChangeOptions): ApplicationsSyncPolicy {
  const own = appSet.spec?.syncPolicy?.applicationsSync;
  return options.enablePolicyOverride && typeof own === 'string' ? own as ApplicationsSyncPolicy : options.policy ?? 'sync';
}

const allowUpdate = (p: ApplicationsSyncPolicy) => p === 'create-update' || p === 'sync';
const allowDelete = (p: ApplicationsSyncPolicy) => p === 'create-delete' || p === 'sync';

const keyOf = (a: ModelApplication) => `${a.namespace}/${a.name}`;
const fieldsOf = (a: ModelApplication) => JSON.stringify([a.labels, a.annotations, a.project, a.destination, a.sources, a.syncOptions]);

/** The steady state before the change: each ApplicationSet controls what it generates (the first to claim a name keeps it). */
function initialApplications(before: any[], options: FleetChangeOptions): Map<string, LiveApplication> {
  const live = new Map<string, LiveApplication>();
  for (const set of reconcilers(before, before, options)) {
    for (const app of set.generated) {
      if (!live.has(keyOf(app))) live.set(keyOf(app), { owner: set.id, fields: fieldsOf(app) });
    }
  }
  return live;
}

/** One `Reconcile` of one ApplicationSet; returns the Applications it was refused. */
function reconcile(set: Reconciler, live: Map<string, LiveApplication>, round: number, events: FleetChangeEvent[]): FleetChangeEvent[] {
  // modelApplications already left out every name generated twice (validateGeneratedApplications)
  const valid = [...set.generated].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  // createInCluster: without update, only what it does not control yet
  const todo = allowUpdate(set.policy) ? valid : valid.filter((a) => live.get(keyOf(a))?.owner !== set.id);
  const refused: FleetChangeEvent[] = [];
  const emit = (e: Omit<FleetChangeEvent, 'round' | 'applicationSet'>) => events.push({ round, applicationSet: set.id, ...e });
  for (const app of todo) {
    const key = keyOf(app);
    const current = live.get(key);
    if (current && current.owner !== '' && current.owner !== set.id) {
      // controllerutil.SetControllerReference: "already owned by another ApplicationSet"
      const e = { round, applicationSet: set.id, application: key, action: 'refused' as const, owner: current.owner };
      refused.push(e);
      events.push(e);
      continue;
    }
    const fields = fieldsOf(app);
    if (!current) emit({ application: key, action: 'created' });
    else if (current.owner === '') emit({ application: key, action: 'adopted' });
    else if (current.fields !== fields) emit({ application: key, action: 'updated' });
    live.set(key, { owner: set.id, fields });
  }
  // Reconcile returns on createOrUpdateInCluster's error: nothing is deleted
  if (refused.length > 0 || !allowDelete(set.policy)) return refused;
  const generated = new Set(set.generated.map(keyOf));
  for (const [key, app] of [...live]) {
    if (app.owner !== set.id || generated.has(key)) continue;
    live.delete(key);
    emit({ application: key, action: 'deleted' });
  }
  return refused;
}

/**
 * What deleting a generated Application does to what it deployed: `RenderTemplateParams`
 * (applicationset/utils/utils.go) gives it the resources finalizer unless the ApplicationSet sets
 * `preserveResourcesOnDeletion` or its template names finalizers of its own (the library sets
 * `preserveResourcesOnDeletion`, src/argocd/argocd-release.ts).
 */
function resourcesOnDeletion(appSet: any): string {
  const own: unknown[] = appSet?.spec?.template?.metadata?.finalizers ?? [];
  const finalizer = own.length > 0
    ? own.some((f) => typeof f === 'string' && f.startsWith('resources-finalizer.argocd.argoproj.io'))
    : appSet?.spec?.syncPolicy?.preserveResourcesOnDeletion !== true;
  return finalizer
    ? 'and with them, by the resources finalizer, what they deployed'
    : 'what they deployed stays: no resources finalizer';
}

function fixedPointFindings(sets: Reconciler[], live: Map<string, LiveApplication>, errors: Map<string, FleetChangeEvent[]>): ControllerFinding[] {
  const out: ControllerFinding[] = [];
  const generators = new Map<string, Reconciler[]>();
  for (const set of sets) for (const a of set.generated) generators.set(keyOf(a), [...generators.get(keyOf(a)) ?? [], set]);
  for (const set of sets) {
    const refused = errors.get(set.id) ?? [];
    if (refused.length > 0) {
      const held = refused.map((e) => `${e.application} (controlled by ApplicationSet ${e.owner})`).join(', ');
      out.push(finding(set.obj, '/spec/generators', 'applicationset-ownership-conflict',
        `ApplicationSet ${set.id} generates Application${refused.length > 1 ? 's' : ''} ${held}: SetControllerReference refuses ${refused.length > 1 ? 'them' : 'it'} on every `
        + 'reconcile, and Reconcile returns before deleteInCluster, so this ApplicationSet deletes nothing either; the clusters stay on their '
        + `old branch until a person deletes the Applications (${resourcesOnDeletion(set.obj)})`));
    }
    const owned = [...live].filter(([, a]) => a.owner === set.id).map(([k]) => k);
    const mine = new Map(set.generated.map((a) => [keyOf(a), a]));
    const stale = owned.filter((k) => !mine.has(k) && !(generators.get(k) ?? []).some((other) => other.id !== set.id));
    const outdated = owned.filter((k) => mine.has(k) && live.get(k)!.fields !== fieldsOf(mine.get(k)!));
    // what it generates that another ApplicationSet controls, or that is not there at all
    const notRun = [...mine.keys()].filter((k) => live.get(k)?.owner !== set.id)
      .map((k) => (live.has(k) ? `${k} (controlled by ApplicationSet ${live.get(k)!.owner || 'none'})` : `${k} (missing)`));
    if (stale.length > 0 && refused.length === 0) {
      out.push(finding(set.obj, '/spec/generators', 'applicationset-application-outdated',
        `ApplicationSet ${set.id} no longer generates ${stale.join(', ')} but its policy ${set.policy} does not delete (AllowDelete): they go on `
        + 'deploying what they last pointed at; a person deletes them'));
    }
    if (outdated.length > 0 || notRun.length > 0) {
      const parts = [
        ...(notRun.length > 0 ? [`${notRun.join(', ')}: Argo CD does not run them as this ApplicationSet generates them`] : []),
        ...(outdated.length > 0 ? [`${outdated.join(', ')} with new fields but its policy ${set.policy} does not update (AllowUpdate): `
          + 'they keep their old branch, labels and authorized stage; a person updates or deletes them'] : []),
      ];
      out.push(finding(set.obj, '/spec/template', 'applicationset-application-outdated', `ApplicationSet ${set.id} generates ${parts.join('; ')}`));
    }
  }
  return out;
}
