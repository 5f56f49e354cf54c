import { PlatformLabels, ReleasePlan } from '../../src';

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
      // argo-cd applicationset/generators/value_interpolation.go appendTemplatedValues: `.values.<key>`
      const values = (params: any) => (generator.clusters.values ? { ...params, values: render(generator.clusters.values, params) } : params);
      paramSets = clusters.filter(s => selectorMatches(generator.clusters.selector, s.metadata.labels)).map(s => values(clusterParams(s)));
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

export interface ChartOutput {
  readonly id: string;
  readonly objects: any[];
}

/**
 * What every Argo CD instance would run for one app: the central Argo CD generates Applications
 * from the app's ApplicationSets (given the fleet's cluster Secrets); a cluster with its own
 * Argo CD runs the Applications of the app's chart for that cluster (`<app>--<cluster>`).
 */
export function argoCdInstances(app: string, charts: ChartOutput[]) {
  const secrets = charts.find(c => c.id === 'fleet')?.objects ?? [];
  const appObjects = charts.find(c => c.id === app)?.objects ?? [];
  const central = appObjects.filter(o => o.kind === 'ApplicationSet').flatMap(a => expandApplicationSet(a, secrets));
  const perCluster = new Map<string, SimulatedApplication[]>();
  for (const chart of charts.filter(c => c.id.startsWith(`${app}--`))) {
    perCluster.set(chart.id.slice(app.length + 2), chart.objects.filter(o => o.kind === 'Application').map(o => ({
      name: o.metadata.name,
      labels: o.metadata.labels,
      annotations: o.metadata.annotations,
      destination: o.spec.destination,
      source: o.spec.source,
      project: o.spec.project,
      appSet: '',
    })));
  }
  return { central, perCluster };
}

/**
 * Checks the invariant that ties the Kargo and Argo CD output of an app together: every planned
 * cluster gets exactly one Application, and each Kargo Stage's argocd-update step updates exactly
 * the Applications of its clusters, in the Argo CD it is routed to, each authorizing that Stage.
 * Returns the problems found (empty when consistent).
 */
export function releaseConsistencyProblems(plan: ReleasePlan, charts: ChartOutput[]): string[] {
  const problems: string[] = [];
  const { central, perCluster } = argoCdInstances(plan.app, charts);
  // one Application per cluster and stage namespace
  const deployed = [
    ...central.map(a => `${a.destination.name}/${a.destination.namespace}`),
    ...[...perCluster].flatMap(([c, apps]) => apps.map(a => `${c}/${a.destination.namespace}`)),
  ].sort();
  const chosen = plan.stages.flatMap(s => s.waves.flatMap(w => w.clusters.map(c => `${c}/${s.namespace}`))).sort();
  if (JSON.stringify(deployed) !== JSON.stringify(chosen)) {
    problems.push(`applications are deployed to ${deployed.join(',')} but the plan chose ${chosen.join(',')}`);
  }
  const stages = (charts.find(c => c.id === plan.app)?.objects ?? []).filter(o => o.kind === 'Stage');
  for (const [planned, wave] of plan.stages.flatMap(s => s.waves.map(w => [s, w] as const))) {
    const stage = stages.find(s => s.metadata.name === wave.kargoStage);
    if (!stage) {
      problems.push(`no Kargo Stage ${wave.kargoStage}`);
      continue;
    }
    if (wave.controlFlow) {
      // a control-flow Stage deploys nothing: no steps, no Applications
      if (stage.spec.promotionTemplate !== undefined) problems.push(`control-flow Stage ${wave.kargoStage} has a promotionTemplate`);
      continue;
    }
    if (stage.spec.shard !== wave.kargoShard) problems.push(`Stage ${wave.kargoStage} has shard ${stage.spec.shard}, plan says ${wave.kargoShard}`);
    const instance = wave.kargoShard === undefined ? central : wave.clusters.flatMap(c => perCluster.get(c) ?? []);
    const updated = applicationsUpdatedBy(stage, instance);
    const names = updated.map(u => u.app.name).sort();
    // a stage with a namespace of its own may share clusters: its Applications name the stage
    const prefix = planned.namespace === plan.destinationNamespace ? plan.app : `${plan.app}-${planned.name}`;
    const expected = wave.clusters.map(c => `${prefix}-${c}`).sort();
    if (JSON.stringify(names) !== JSON.stringify(expected)) problems.push(`Stage ${wave.kargoStage} updates ${names.join(',')}, expected ${expected.join(',')}`);
    for (const u of updated.filter(x => !x.authorized)) problems.push(`Application ${u.app.name} does not authorize Stage ${wave.kargoStage}`);
    const namespace = stage.spec.promotionTemplate.spec.steps.find((s: any) => s.uses === 'argocd-update')?.config.apps[0].namespace;
    if (namespace !== wave.argoCdNamespace) problems.push(`Stage ${wave.kargoStage} updates Applications in ${namespace}, plan says ${wave.argoCdNamespace}`);
  }
  return problems;
}

/**
 * The shape the emitter had before: one ApplicationSet per wave (`<app>-<Kargo Stage>`) whose
 * template spells the wave's labels, annotation and branch, made from the per-family shape.
 */
export function perWaveShape(objects: any[]): any[] {
  return objects.flatMap(o => {
    if (o.kind !== 'ApplicationSet') return [o];
    return o.spec.generators.map((g: any) => {
      const v = g.clusters.values;
      const literal = (s: string) => s.replace(/\{\{ \.values\.(\w+) \}\}/g, (_m: string, k: string) => v[k]);
      const template = JSON.parse(JSON.stringify(o.spec.template), (_k, x) => (typeof x === 'string' ? literal(x) : x));
      const { values: _values, ...clustersGenerator } = g.clusters;
      return {
        ...o,
        metadata: { ...o.metadata, name: `${o.metadata.labels[PlatformLabels.APP]}-${v.kargoStage}`, labels: { ...o.metadata.labels, [PlatformLabels.STAGE]: v.kargoStage } },
        spec: { ...o.spec, generators: [{ clusters: clustersGenerator }], template },
      };
    });
  });
}
