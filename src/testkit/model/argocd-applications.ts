import { ControllerFinding, finding, sourceOf } from './controller-finding';
import { ModelApplication, selectorMatches } from './kargo-steps';

/**
 * The Applications Argo CD v3.5.1 would run: each Application object, plus what each
 * ApplicationSet generates (`clusters` and `list` generators, Go templates with `{{ .a.b }}` and
 * `{{ index .a "k" }}`), after `applicationset/generators/cluster.go` (cluster Secret params
 * `name`, `nameNormalized`, `server`, `metadata.labels`/`annotations`, the generator's `values`)
 * and `applicationset/controllers/template/template.go` `GenerateApplications` (every
 * generator's params rendered into the one template). Other generators yield
 * nothing (the model then checks nothing for them).
 */

export const CLUSTER_SECRET_LABEL = 'argocd.argoproj.io/secret-type';

export function clusterSecrets(objects: any[]): any[] {
  return objects.filter((o) => o?.kind === 'Secret' && o.metadata?.labels?.[CLUSTER_SECRET_LABEL] === 'cluster');
}

/** A cluster Secret's `stringData` (or decoded `data`). */
export function secretData(secret: any): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(secret?.data ?? {})) out[k] = Buffer.from(String(v), 'base64').toString('utf8');
  return { ...out, ...(secret?.stringData ?? {}) };
}

/** What `modelApplications` renders of each Application. */
export interface ModelApplicationsOptions {
  /**
   * Only where each Application runs: its namespace, project and destination. A generated
   * Application then has no name, labels, annotations, sources or sync options; an Application
   * object keeps its metadata. For counting the load of a fleet without rendering every
   * template whole.
   * @default false
   */
  readonly placementOnly?: boolean;
  /**
   * Keep every Application an ApplicationSet generates, also a name it generates twice. Argo CD
   * writes neither of those (`validateGeneratedApplications` keys its error by the Application's
   * qualified name, and `Reconcile` writes only names without an error); `checkApplicationNames`
   * needs them to say so. With `placementOnly` (no names) every Application is kept.
   * @default false
   */
  readonly keepDuplicates?: boolean;
}

export function modelApplications(objects: any[], options: ModelApplicationsOptions = {}): ModelApplication[] {
  // every clusters generator reads the params of every cluster Secret: decode each once
  const secrets = indexSecrets(clusterSecrets(objects).map(secret => ({ secret, params: clusterParams(secret) })));
  const apps: ModelApplication[] = [];
  for (const obj of objects) {
    if (obj?.kind === 'Application' && obj.spec) {
      apps.push(toModel(obj.metadata ?? {}, options.placementOnly ? placementOf(obj.spec) : obj.spec, { obj, path: '/spec' }));
    } else if (obj?.kind === 'ApplicationSet' && obj.spec?.template) {
      const template = obj.spec.template;
      const placement = { metadata: { namespace: template.metadata?.namespace }, spec: placementOf(template.spec ?? {}) };
      const generated = expandApplicationSet(obj, options.placementOnly ? placement : template, secrets);
      // placement only renders no names: which ones are duplicated is not known there
      apps.push(...(options.keepDuplicates || options.placementOnly ? generated : writtenByArgoCD(generated)));
    }
  }
  return apps;
}

/** What the ApplicationSet controller writes of one ApplicationSet's Applications: no name it generates twice. */
function writtenByArgoCD(generated: ModelApplication[]): ModelApplication[] {
  const count = new Map<string, number>();
  for (const a of generated) count.set(a.name, (count.get(a.name) ?? 0) + 1);
  return generated.filter(a => count.get(a.name) === 1);
}

function placementOf(spec: any): any {
  return { project: spec.project, destination: spec.destination };
}

interface ClusterSecret {
  readonly secret: any;
  readonly params: Record<string, unknown>;
}

/** The cluster Secrets in order, and the positions of those with each label value. */
interface IndexedSecrets {
  readonly all: ClusterSecret[];
  readonly byLabel: Map<string, Map<unknown, number[]>>;
}

function indexSecrets(all: ClusterSecret[]): IndexedSecrets {
  const byLabel = new Map<string, Map<unknown, number[]>>();
  all.forEach(({ secret }, i) => {
    const labels = secret.metadata?.labels ?? {};
    for (const key of Object.keys(labels)) {
      let values = byLabel.get(key);
      if (!values) byLabel.set(key, values = new Map());
      const at = values.get(labels[key]);
      if (at) at.push(i);
      else values.set(labels[key], [i]);
    }
  });
  return { all, byLabel };
}

/**
 * The cluster Secrets a clusters generator's selector picks, in the Secrets' order. A selector
 * with an `In` requirement (the library's, by cluster name) is matched only against the Secrets
 * that have one of its values: at fleet size, thousands of generators over a hundred Secrets.
 */
function selectSecrets(selector: any, secrets: IndexedSecrets): ClusterSecret[] {
  if (!selector || Object.keys(selector).length === 0) return secrets.all;
  const matches = (s: ClusterSecret) => selectorMatches(selector, s.secret.metadata?.labels ?? {});
  const narrowing = Array.isArray(selector.matchExpressions)
    ? selector.matchExpressions.find((r: any) => r?.operator === 'In' && typeof r.key === 'string' && Array.isArray(r.values)) : undefined;
  if (!narrowing) return secrets.all.filter(matches);
  const withValue = secrets.byLabel.get(narrowing.key);
  const positions = new Set<number>();
  for (const v of narrowing.values) for (const i of withValue?.get(v) ?? []) positions.add(i);
  return [...positions].sort((a, b) => a - b).map(i => secrets.all[i]).filter(matches);
}

function expandApplicationSet(appSet: any, template: any, secrets: IndexedSecrets): ModelApplication[] {
  const apps: ModelApplication[] = [];
  (appSet.spec.generators ?? []).forEach((generator: any) => {
    let params: any[] = [];
    if (generator.clusters) {
      params = selectSecrets(generator.clusters.selector, secrets).map((s) => withValues(s.params, generator.clusters.values));
    } else if (generator.list) {
      params = generator.list.elements ?? [];
    }
    for (const p of params) {
      const t = renderTemplate(template, p);
      apps.push(toModel({ ...t.metadata, namespace: t.metadata?.namespace ?? appSet.metadata?.namespace }, t.spec ?? {}, { obj: appSet, path: '/spec/template/spec' }));
    }
  });
  return apps;
}

function clusterParams(secret: any): Record<string, unknown> {
  const data = secretData(secret);
  return {
    name: data.name,
    nameNormalized: data.name,
    server: data.server,
    project: data.project ?? '',
    metadata: { labels: secret.metadata?.labels ?? {}, annotations: secret.metadata?.annotations ?? {} },
  };
}

/**
 * A clusters generator's `values`, each rendered with the cluster's params, as `.values.<key>`
 * (argo-cd `applicationset/generators/value_interpolation.go` `appendTemplatedValues`).
 */
function withValues(params: Record<string, unknown>, values: Record<string, string> | undefined): Record<string, unknown> {
  if (!values || Object.keys(values).length === 0) return params;
  return { ...params, values: renderTemplate(values, params) };
}

function lookup(params: any, dotted: string): unknown {
  return dotted.split('.').reduce((o: any, k) => (o === undefined || o === null ? undefined : o[k]), params);
}

/** Renders the `{{ .a.b }}` and `{{ index .a "k" }}` expressions of a Go template value; others stay as written. */
export function renderTemplate(value: any, params: any): any {
  if (typeof value === 'string') {
    // most values of a template hold no expression
    if (!value.includes('{{')) return value;
    return value.replace(/\{\{\s*(.*?)\s*\}\}/g, (whole, expr: string) => {
      let m = /^\.([\w.]+)$/.exec(expr);
      if (m) return String(lookup(params, m[1]) ?? '');
      m = /^index \.([\w.]+) "([^"]+)"$/.exec(expr);
      if (m) return String((lookup(params, m[1]) as any)?.[m[2]] ?? '');
      return whole;
    });
  }
  if (Array.isArray(value)) return value.map((v) => renderTemplate(v, params));
  if (value && typeof value === 'object') {
    // a loop rather than entries and fromEntries: the fleet report renders a template per cluster of every ApplicationSet
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value)) {
      const rendered = renderTemplate(value[key], params);
      // a `__proto__` key of the YAML stays a member, as fromEntries would define it
      if (key === '__proto__') Object.defineProperty(out, key, { value: rendered, enumerable: true, writable: true, configurable: true });
      else out[key] = rendered;
    }
    return out;
  }
  return value;
}

function toModel(metadata: any, spec: any, origin: { obj: any; path: string }): ModelApplication {
  const sources = Array.isArray(spec.sources) && spec.sources.length > 0 ? spec.sources : spec.source ? [spec.source] : [];
  return {
    name: metadata.name ?? '',
    namespace: metadata.namespace ?? 'argocd',
    labels: metadata.labels ?? {},
    annotations: metadata.annotations ?? {},
    project: spec.project ?? 'default',
    destination: spec.destination ?? {},
    sources,
    syncOptions: spec.syncPolicy?.syncOptions ?? [],
    origin,
  };
}

/**
 * Generated Applications are created in their ApplicationSet's namespace on the hub, so two with
 * one name are one object: the ApplicationSet controller writes neither Application of a name one
 * ApplicationSet generates twice (argo-cd `applicationset/controllers/applicationset_controller.go`
 * `validateGeneratedApplications`: "contains applications with duplicate name", keyed by the
 * qualified name, and `Reconcile` keeps only names without an error), and cannot take over an
 * Application another ApplicationSet controls (`createOrUpdateInCluster`:
 * `controllerutil.SetControllerReference` fails with an already-owned error), so one of the two
 * never deploys. A cluster shared by two stages needs one Application name per stage. Give it
 * the Applications of `modelApplications(objects, { keepDuplicates: true })`.
 */
export function checkApplicationNames(apps: ModelApplication[]): ControllerFinding[] {
  const byName = new Map<string, ModelApplication[]>();
  for (const a of apps.filter((x) => x.origin.obj?.kind === 'ApplicationSet')) {
    const key = JSON.stringify([a.namespace, a.name]);
    byName.set(key, [...byName.get(key) ?? [], a]);
  }
  // one finding per ApplicationSet and set of rivals, naming every Application they share
  const conflicts = new Map<string, { owner: any; rivals: string[]; namespace: string; names: string[] }>();
  for (const same of byName.values()) {
    if (same.length < 2) continue;
    const owners = [...new Set(same.map((a) => a.origin.obj))];
    const rivals = owners.map((o) => String(o.metadata?.name)).sort();
    for (const owner of owners) {
      const key = JSON.stringify([sourceOf(owner), owner.metadata?.namespace, owner.metadata?.name, rivals, same[0].namespace]);
      const entry = conflicts.get(key) ?? { owner, rivals, namespace: same[0].namespace, names: [] };
      entry.names.push(same[0].name);
      conflicts.set(key, entry);
    }
  }
  const out: ControllerFinding[] = [];
  for (const { owner, rivals, namespace, names } of conflicts.values()) {
    const shared = `Application${names.length > 1 ? 's' : ''} ${[...names].sort().join(', ')}`;
    const message = rivals.length === 1
      ? `ApplicationSet ${rivals[0]} generates ${shared} more than once: the controller writes none of them ("contains applications with duplicate name")`
      : `ApplicationSets ${rivals.join(' and ')} all generate ${shared} in namespace ${namespace}: only the first to reconcile controls each, `
        + 'the others fail ("already owned by another"), so one stage never deploys to those clusters';
    out.push(finding(owner, '/spec/template/metadata/name', 'application-name-conflict', message));
  }
  return out;
}
