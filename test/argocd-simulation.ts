/**
 * A small model of what Argo CD and Kargo do with the synthesized objects, for tests: expands
 * ApplicationSets into Applications (clusters and list generators, Go templates with field
 * lookups) and finds the Applications a Kargo `argocd-update` step would update.
 */

export interface SimulatedApplication {
  readonly name: string;
  readonly labels: Record<string, string>;
  readonly annotations: Record<string, string>;
  readonly destination: { name?: string; server?: string; namespace?: string };
  readonly source: any;
  readonly project: string;
  readonly appSet: string;
}

type Selector = { matchLabels?: Record<string, string>; matchExpressions?: { key: string; operator: string; values?: string[] }[] };

export function selectorMatches(selector: Selector | undefined, labels: Record<string, string>): boolean {
  for (const [k, v] of Object.entries(selector?.matchLabels ?? {})) {
    if (labels[k] !== v) return false;
  }
  for (const r of selector?.matchExpressions ?? []) {
    const has = Object.prototype.hasOwnProperty.call(labels, r.key);
    const values = r.values ?? [];
    if (r.operator === 'In' && !(has && values.includes(labels[r.key]))) return false;
    if (r.operator === 'NotIn' && has && values.includes(labels[r.key])) return false;
    if (r.operator === 'Exists' && !has) return false;
    if (r.operator === 'DoesNotExist' && has) return false;
  }
  return true;
}

/** Go template rendering restricted to `{{ .a.b }}` and `{{ index .a "k" }}`; anything else throws. */
function render(value: any, params: any): any {
  if (typeof value === 'string') {
    return value.replace(/\{\{\s*(.*?)\s*\}\}/g, (_, expr: string) => {
      let m = /^\.([\w.]+)$/.exec(expr);
      if (m) {
        const v = m[1].split('.').reduce((o: any, k) => (o === undefined ? undefined : o[k]), params);
        if (v === undefined) throw new Error(`missingkey: ${expr}`);
        return String(v);
      }
      m = /^index \.([\w.]+) "([^"]+)"$/.exec(expr);
      if (m) {
        const map = m[1].split('.').reduce((o: any, k) => (o === undefined ? undefined : o[k]), params);
        return String(map?.[m[2]] ?? '');
      }
      throw new Error(`unsupported template expression: ${expr}`);
    });
  }
  if (Array.isArray(value)) return value.map(v => render(v, params));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, render(v, params)]));
  }
  return value;
}

function clusterParams(secret: any) {
  const data = secret.stringData ?? {};
  return {
    name: data.name,
    nameNormalized: data.name,
    server: data.server,
    project: data.project ?? '',
    metadata: { labels: secret.metadata.labels ?? {}, annotations: secret.metadata.annotations ?? {} },
  };
}

/** The Applications an ApplicationSet generates, given the cluster Secrets Argo CD knows. */
export function expandApplicationSet(appSet: any, clusterSecrets: any[]): SimulatedApplication[] {
  if (!appSet.spec.goTemplate) throw new Error(`${appSet.metadata.name}: expected goTemplate`);
  const results: SimulatedApplication[] = [];
  for (const generator of appSet.spec.generators) {
    const keys = Object.keys(generator);
    if (keys.length !== 1) throw new Error(`${appSet.metadata.name}: generator with keys ${keys}`);
    let paramSets: any[];
    if (generator.clusters) {
      const clusters = clusterSecrets.filter(s => s.metadata.labels?.['argocd.argoproj.io/secret-type'] === 'cluster');
      paramSets = clusters.filter(s => selectorMatches(generator.clusters.selector, s.metadata.labels)).map(clusterParams);
    } else if (generator.list) {
      paramSets = generator.list.elements;
    } else {
      throw new Error(`${appSet.metadata.name}: unsupported generator ${keys[0]}`);
    }
    for (const params of paramSets) {
      const t = render(appSet.spec.template, params);
      results.push({
        name: t.metadata.name,
        labels: t.metadata.labels ?? {},
        annotations: t.metadata.annotations ?? {},
        destination: t.spec.destination,
        source: t.spec.source,
        project: t.spec.project,
        appSet: appSet.metadata.name,
      });
    }
  }
  return results;
}

/** The Applications one `argocd-update` step would update, and whether each authorizes the Stage. */
export function applicationsUpdatedBy(stage: any, applications: SimulatedApplication[]): { app: SimulatedApplication; authorized: boolean }[] {
  const steps = stage.spec.promotionTemplate.spec.steps.filter((s: any) => s.uses === 'argocd-update');
  if (steps.length !== 1) throw new Error(`stage ${stage.metadata.name}: expected one argocd-update step, found ${steps.length}`);
  const entry = `${stage.metadata.namespace}:${stage.metadata.name}`;
  const selected: { app: SimulatedApplication; authorized: boolean }[] = [];
  for (const target of steps[0].config.apps) {
    for (const app of applications) {
      const hit = target.name ? app.name === target.name : selectorMatches(target.selector, app.labels);
      if (!hit) continue;
      const authorized = (app.annotations['kargo.akuity.io/authorized-stage'] ?? '').split(',').map((s: string) => s.trim()).includes(entry);
      selected.push({ app, authorized });
    }
  }
  return selected;
}
