import { Yaml } from 'cdk8s';
import { expect } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { Built, ChartOutput } from './build';
import { freezeProblems, isFreezeFailure, unfrozenClock } from './freeze-properties';
import { WorldSpec } from './model';
import { PlatformLabels } from '../../src';
import { formatIssues, ManifestValidator, simulateControllers } from '../../src/testkit';
import { argoCdInstances, releaseConsistencyProblems, selectorMatches } from '../support/argocd-simulation';
import { KNOWN_CONTROLLER_PROBLEMS, modelInput, unexpectedFindings } from '../support/known-controller-problems';

export const validator = ManifestValidator.load();

// ---------------------------------------------------------------------------------------------
// What a successful synth must satisfy
// ---------------------------------------------------------------------------------------------

export function yamlOf(charts: ChartOutput[]): string[] {
  return charts.map(c => `# ${c.id}\n${Yaml.stringify(...c.objects)}`);
}

/** Every problem with the output of a successful synth; empty when it is right. */
export function outputProblems(spec: WorldSpec, b: Built, charts: ChartOutput[]): string[] {
  return [...chartProblems(charts, spec), ...fleetProblems(b, charts), ...b.apps.flatMap(entry => appProblems(appCheck(spec, b, charts, entry)))];
}

/** Every chart is valid against the pinned schemas, gives the controller model no finding but the known ones and round-trips through YAML. */
function chartProblems(charts: ChartOutput[], spec: WorldSpec): string[] {
  const problems: string[] = [];
  // every object is valid against the pinned upstream schemas
  for (const chart of charts) {
    const issues = formatIssues(validator.validateObjects(chart.objects, chart.id));
    if (issues) problems.push(issues);
  }

  // the live controllers (Argo CD, Kargo promotions in every scenario, Rollouts) would find no
  // problem but the known ones of today's emitters (issue 8)
  // each umbrella Chart.yaml names its dependencies as the apps declare them (dependencyName)
  const chartDependencies = spec.apps.flatMap(a => a.artifacts).flatMap(a => a.k !== 'chart' ? [] : [a.repo.startsWith('oci://')
    ? { repository: a.repo.replace(/\/[^/]+$/, ''), name: a.dependencyName ?? a.repo.split('/').pop()! }
    : { repository: a.repo, name: a.dependencyName ?? a.name! }]);
  // at an instant no generated freeze holds, when there is one; a freeze that always holds fails its Stages' promotions by design,
  // and one that opens while the release is under way holds the release there (the timeline's freight-never-available)
  const now = unfrozenClock(charts);
  const unexpected = unexpectedFindings(simulateControllers(modelInput(charts), { chartDependencies, now }))
    .filter(f => !(isFreezeFailure(f) && (now === undefined || f.startsWith('freight-never-available '))));
  problems.push(...freezeProblems(charts));
  if (unexpected.length > 0) problems.push(`controller model (known: ${KNOWN_CONTROLLER_PROBLEMS.length}):\n${unexpected.join('\n')}`);

  // the YAML round-trips (cdk8s writes YAML 1.1, as Kubernetes tooling reads it)
  for (const chart of charts) {
    const text = Yaml.stringify(...chart.objects);
    const docs = parseAllDocuments(text, { version: '1.1' });
    const back = (Array.isArray(docs) ? docs : [docs]).map(d => d.toJS());
    try {
      expect(back).toStrictEqual(chart.objects);
    } catch (e) {
      problems.push(`chart ${chart.id} does not round-trip through YAML: ${(e as Error).message.slice(0, 2000)}`);
    }
  }
  return problems;
}

/** The fleet chart holds the cluster Secrets of exactly the central clusters, each on a controller shard the fleet has. */
function fleetProblems(b: Built, charts: ChartOutput[]): string[] {
  const problems: string[] = [];
  const clusters = b.fleet.clusters;
  const secrets = charts.find(c => c.id === 'fleet')?.objects ?? [];
  const central = clusters.filter(c => c.argoCd.kind === 'central').map(c => c.name).sort();
  const secretNames = secrets.filter(s => s.kind === 'Secret').map(s => s.stringData?.name).sort();
  if (JSON.stringify(secretNames) !== JSON.stringify(central)) {
    problems.push(`fleet has cluster Secrets for ${secretNames.join(',')}, expected the central clusters ${central.join(',')}`);
  }
  for (const s of secrets) {
    if (s.metadata.labels?.['argocd.argoproj.io/secret-type'] !== 'cluster') problems.push(`Secret ${s.metadata.name} is not a cluster Secret`);
    const shard = s.stringData?.shard;
    const shards = b.fleet.applicationControllerShards;
    if (shard !== undefined && shards !== undefined && !(Number(shard) >= 0 && Number(shard) < shards)) {
      problems.push(`Secret ${s.metadata.name} is on controller shard ${shard}, the fleet has ${shards}`);
    }
  }
  return problems;
}

/** One app of the built world, with what its checks read. */
interface AppCheck {
  readonly spec: WorldSpec;
  readonly b: Built;
  readonly charts: ChartOutput[];
  readonly entry: Built['apps'][number];
  readonly plan: Built['apps'][number]['app']['plan'];
  readonly where: string;
  readonly stageSpecs: WorldSpec['pipelines'][number]['stages'];
  readonly appObjects: any[];
  readonly stageObjects: any[];
}

function appCheck(spec: WorldSpec, b: Built, charts: ChartOutput[], entry: Built['apps'][number]): AppCheck {
  const plan = entry.app.plan;
  const appObjects = charts.find(c => c.id === entry.app.node.id)?.objects ?? [];
  const stageSpecs = spec.pipelines[entry.spec.pipeline % spec.pipelines.length].stages;
  const stageObjects = appObjects.filter(o => o.kind === 'Stage');
  return { spec, b, charts, entry, plan, where: `app ${plan.app}`, stageSpecs, appObjects, stageObjects };
}

function appProblems(ctx: AppCheck): string[] {
  return [
    ...selectorProblems(ctx), ...placementProblems(ctx), ...graphProblems(ctx), ...projectConfigProblems(ctx), ...argoCdProblems(ctx),
    ...renderProblems(ctx), ...appProjectProblems(ctx), ...promoterProblems(ctx), ...verificationProblems(ctx),
  ];
}

/** Selectors have Kubernetes semantics in both forms (the one Argo CD sees and matches()). */
function selectorProblems(ctx: AppCheck): string[] {
  const { where, entry: { pipeline } } = ctx;
  const clusters = ctx.b.fleet.clusters;
  const problems: string[] = [];
  for (const stage of pipeline.stages) {
    if (stage.clusters === undefined) continue; // control-flow
    for (const c of clusters) {
      if (stage.clusters.matches(c.labels) !== selectorMatches(stage.clusters.toLabelSelector() as any, c.labels)) {
        problems.push(`${where}: selector ${stage.clusters} matches ${c.name} differently in Kubernetes form`);
      }
    }
  }
  return problems;
}

/** Every targeted cluster of a stage is in exactly one wave of that stage and in no other stage of the same namespace. */
function placementProblems(ctx: AppCheck): string[] {
  const { where, plan, entry: { pipeline, targets, requires } } = ctx;
  const clusters = ctx.b.fleet.clusters;
  const problems: string[] = [];
  const seen = new Map<string, string>();
  for (const stagePlan of plan.stages) {
    const stage = pipeline.stages.find(s => s.name === stagePlan.name)!;
    const expected = clusters
      .filter(c => stage.clusters?.matches(c.labels) && targets.matches(c.labels) && requires.every(r => r.isSatisfiedBy(c)))
      .map(c => c.name).sort();
    const placed = stagePlan.waves.flatMap(w => w.clusters).sort();
    if (JSON.stringify(placed) !== JSON.stringify(expected)) {
      problems.push(`${where} stage ${stagePlan.name}: waves hold ${placed.join(',')}, the stage targets ${expected.join(',')}`);
    }
    for (const c of placed) {
      const key = `${c} ${stagePlan.namespace}`;
      if (seen.has(key)) problems.push(`${where}: cluster ${c} is in ${seen.get(key)} and in stage ${stagePlan.name}, both in namespace ${stagePlan.namespace}`);
      seen.set(key, stagePlan.name);
    }
  }
  if (JSON.stringify([...new Set([...seen.keys()].map(k => k.split(' ')[0]))].sort()) !== JSON.stringify(plan.clusters)) {
    problems.push(`${where}: plan.clusters ${plan.clusters.join(',')} is not the clusters of its waves`);
  }
  if (JSON.stringify(plan.stages.map(s => s.name)) !== JSON.stringify(pipeline.stages.map(s => s.name))) {
    problems.push(`${where}: plan stages ${plan.stages.map(s => s.name)} are not the pipeline's ${pipeline.stages.map(s => s.name)}`);
  }
  return problems;
}

/** The graph of Kargo Stages: where each takes Freight from and the soak it waits. */
function graphProblems(ctx: AppCheck): string[] {
  const { where, plan, stageSpecs, appObjects, stageObjects } = ctx;
  const problems: string[] = [];
  // the graph: a branch's first wave takes Freight from the last waves (of every branch) of the
  // stage's upstream stages (the previous stage unless `after` names others), joined all or any;
  // every other wave from the previous wave of its branch
  const expectedSources = new Map<string, unknown>();
  // the soak each Kargo Stage asks for, waited in its upstreams' verification
  const expectedSoak = new Map<string, { soak: string; upstreams: string[] }>();
  const exits = new Map<string, string[]>();
  plan.stages.forEach((s, i) => {
    const stageSpec = stageSpecs.find(x => x.name === s.name)!;
    const after = stageSpec.after ?? (i > 0 ? [plan.stages[i - 1].name] : []);
    const entry = [...new Set(after.flatMap(a => exits.get(a) ?? []))].sort();
    const branches = new Map<string, { name: string; kargoStages: string[] }[]>();
    for (const w of s.waves) {
      const list = branches.get(w.branch ?? '') ?? [];
      if (list[list.length - 1]?.name !== w.name) list.push({ name: w.name, kargoStages: [] });
      list[list.length - 1].kargoStages.push(w.kargoStage);
      branches.set(w.branch ?? '', list);
    }
    const stageExits: string[] = [];
    for (const list of branches.values()) {
      list.forEach((g, j) => {
        const ups = j === 0 ? entry : [...list[j - 1].kargoStages].sort();
        const soak = ups.length === 0 || stageSpec.soakMs === undefined ? undefined : goDuration(stageSpec.soakMs / 1000);
        const strategy = ups.length < 2 ? undefined : j === 0 && stageSpec.join === 'any' ? 'OneOf' : 'All';
        for (const k of g.kargoStages) {
          expectedSources.set(k, ups.length === 0 ? { direct: true } : { stages: ups, ...strategy ? { availabilityStrategy: strategy } : {} });
          if (soak) expectedSoak.set(k, { soak, upstreams: ups });
        }
      });
      if (new Set(list.map(g => g.name)).size !== list.length) problems.push(`${where}: a wave of stage ${s.name} is split across the plan`);
      stageExits.push(...list[list.length - 1].kargoStages);
    }
    exits.set(s.name, stageExits.sort());
  });

  // Kargo Stage names (hence release branches and ApplicationSets) are unique per app
  const kargoStages = plan.stages.flatMap(s => s.waves.map(w => w.kargoStage));
  if (new Set(kargoStages).size !== kargoStages.length) problems.push(`${where}: Kargo Stage names repeat: ${kargoStages.join(',')}`);
  if (JSON.stringify(stageObjects.map(o => o.metadata.name)) !== JSON.stringify(kargoStages)) {
    problems.push(`${where}: Stage objects ${stageObjects.map(o => o.metadata.name)} are not the plan's ${kargoStages}`);
  }
  for (const w of plan.stages.flatMap(s => s.waves)) {
    const o = stageObjects.find(x => x.metadata.name === w.kargoStage);
    const sources = o?.spec.requestedFreight[0].sources;
    const expected = expectedSources.get(w.kargoStage);
    if (canonical(sources) !== canonical(expected)) {
      problems.push(`${where}: Stage ${w.kargoStage} takes Freight from ${JSON.stringify(sources)}, expected ${JSON.stringify(expected)}`);
    }
    const soak = expectedSoak.get(w.kargoStage);
    if (o?.metadata.annotations?.['gitops-platform.io/soak'] !== soak?.soak) {
      problems.push(`${where}: Stage ${w.kargoStage} announces soak ${o?.metadata.annotations?.['gitops-platform.io/soak']}, expected ${soak?.soak}`);
    }
    for (const up of soak?.upstreams ?? []) {
      const waited = appObjects.find(x => x.kind === 'AnalysisTemplate' && x.metadata.name === `${up}-verification`)
        ?.spec.metrics.find((m: any) => m.name === 'soak')?.initialDelay;
      const referenced = stageObjects.find(x => x.metadata.name === up)?.spec.verification?.analysisTemplates?.some((t: any) => t.name === `${up}-verification`);
      if (waited !== soak!.soak || !referenced) problems.push(`${where}: Stage ${up} does not wait the soak ${soak!.soak} of ${w.kargoStage} in its verification`);
    }
    // a stage without clusters is a Kargo control-flow Stage: no promotion steps at all
    if (w.controlFlow && (o?.spec.promotionTemplate !== undefined || w.clusters.length > 0)) problems.push(`${where}: control-flow Stage ${w.kargoStage} deploys`);
  }
  return problems;
}

/** The ProjectConfig auto-promotes exactly the Kargo Stages of the stages that promote by themselves. */
function projectConfigProblems(ctx: AppCheck): string[] {
  const { where, plan, stageSpecs, appObjects } = ctx;
  const problems: string[] = [];
  const auto = stageSpecs
    .filter(s => s.approval?.k === 'automatic' || (s.approval?.k === 'pr' && s.approval.open !== false))
    .flatMap(s => plan.stages.find(p => p.name === s.name)?.waves.filter(w => !w.controlFlow).map(w => w.kargoStage) ?? []);
  const config = appObjects.find(o => o.kind === 'ProjectConfig');
  const policies = (config?.spec?.promotionPolicies ?? []) as any[];
  const autoPromoted = policies.filter(p => p.autoPromotionEnabled).map(p => p.stageSelector?.name ?? p.stage);
  if (JSON.stringify([...autoPromoted].sort()) !== JSON.stringify([...auto].sort()) || policies.length !== autoPromoted.length) {
    problems.push(`${where}: the ProjectConfig auto-promotes ${autoPromoted.join(',')}, expected ${auto.join(',')}`);
  }
  return problems;
}

/** The Applications of each wave: the shared consistency check, the ApplicationSets' expansion and the Stages they authorize. */
function argoCdProblems(ctx: AppCheck): string[] {
  const { where, plan, charts, entry: { app } } = ctx;
  const problems: string[] = [];
  // the shared consistency check: every planned cluster gets one Application, each Stage updates exactly its wave's Applications
  // (the app's chart is named after its construct id, its per-cluster charts after the app's name)
  const own = charts.filter(c => c.id === 'fleet' || c.id === app.node.id || plan.clusters.some(cl => c.id === `${plan.app}--${cl}`))
    .map(c => ({ id: c.id === app.node.id ? plan.app : c.id, objects: c.objects }));
  problems.push(...releaseConsistencyProblems(plan, own).map(p => `${where}: ${p}`));

  // each ApplicationSet expands to exactly its wave's clusters, each Application names exactly the Stage of its wave
  const instances = argoCdInstances(plan.app, own);
  for (const w of plan.stages.flatMap(s => s.waves)) {
    const apps = w.argoCd === 'central'
      // one ApplicationSet serves every wave of its family: its generator's values tell the waves apart
      ? instances.central.filter(a => a.appSet === w.applicationSet && a.labels[PlatformLabels.STAGE] === w.kargoStage)
      // a cluster with its own Argo CD carries one Application per stage deploying to it
      : w.clusters.flatMap(c => instances.perCluster.get(c) ?? []).filter(a => a.labels[PlatformLabels.STAGE] === w.kargoStage);
    const deployed = apps.map(a => a.destination.name ?? a.labels[PlatformLabels.CLUSTER]).sort();
    if (JSON.stringify(deployed) !== JSON.stringify(w.clusters)) problems.push(`${where}: wave ${w.kargoStage} deploys to ${deployed}, expected ${w.clusters}`);
    for (const a of apps) {
      const authorized = a.annotations['kargo.akuity.io/authorized-stage'];
      if (authorized !== `${plan.project}:${w.kargoStage}`) problems.push(`${where}: Application ${a.name} authorizes ${authorized}, expected ${plan.project}:${w.kargoStage}`);
    }
  }
  return problems;
}

/** Helm release names Helm accepts, and each Stage renders exactly its wave's clusters. */
function renderProblems(ctx: AppCheck): string[] {
  const { where, plan, appObjects, stageObjects } = ctx;
  const problems: string[] = [];
  // Helm refuses release names it cannot use (chartutil.ValidateReleaseName), even for helm template
  for (const step of appObjects.find(o => o.kind === 'PromotionTask')?.spec.steps ?? []) {
    const name = step.uses === 'helm-template' ? step.config.releaseName : undefined;
    if (name !== undefined && !(name.length <= 53 && /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/.test(name))) {
      problems.push(`${where}: helm-template release name "${name}" is not one Helm accepts (at most 53 characters)`);
    }
  }

  // each Stage renders exactly its wave's clusters
  for (const w of plan.stages.flatMap(s => s.waves)) {
    const steps = stageObjects.find(o => o.metadata.name === w.kargoStage)?.spec.promotionTemplate?.spec.steps ?? [];
    const rendered = steps.filter((x: any) => x.task?.name === 'render-cluster').map((x: any) => x.vars.find((v: any) => v.name === 'cluster').value);
    if (JSON.stringify(rendered) !== JSON.stringify(w.clusters)) problems.push(`${where}: Stage ${w.kargoStage} renders ${rendered}, expected ${w.clusters}`);
  }
  return problems;
}

/** The central AppProject allows exactly the (cluster, namespace) pairs of the app's central waves and lets CreateNamespace create exactly those namespaces. */
function appProjectProblems(ctx: AppCheck): string[] {
  const { where, plan, b, appObjects, entry: { spec: appSpec } } = ctx;
  const problems: string[] = [];
  const centralPairs = [...new Set(plan.stages.flatMap(s => s.waves.filter(w => w.argoCd === 'central').flatMap(w => w.clusters.map(c => `${c} ${s.namespace}`))))].sort();
  const project = appObjects.find(o => o.kind === 'AppProject');
  const destinations = (project?.spec.destinations ?? []).map((d: any) => `${d.name} ${d.server} ${d.namespace}`);
  const expectedDestinations = centralPairs.map(p => p.split(' ')).map(([c, ns]) => `${c} ${b.fleet.findCluster(c)!.server} ${ns}`);
  if (JSON.stringify(destinations) !== JSON.stringify(expectedDestinations)) {
    problems.push(`${where}: the AppProject allows ${destinations.join(', ')}, expected ${expectedDestinations.join(', ')}`);
  }
  const created = (project?.spec.clusterResourceWhitelist ?? []).filter((r: any) => r.kind === 'Namespace' && r.name !== undefined).map((r: any) => r.name);
  // an app that manages Namespaces itself is allowed every one (its declared entry has no name)
  const managesNamespaces = (appSpec.clusterResources ?? []).some(r => r.group === '' && r.kind === 'Namespace');
  const expectedCreated = managesNamespaces ? [] : [...new Set(centralPairs.map(p => p.split(' ')[1]))].sort();
  if (project && JSON.stringify(created) !== JSON.stringify(expectedCreated)) {
    problems.push(`${where}: the AppProject lets Argo CD create namespaces ${created.join(', ')}, expected ${expectedCreated.join(', ')}`);
  }
  return problems;
}

/** Promoters may promote into exactly the Kargo Stages of each gated stage. */
function promoterProblems(ctx: AppCheck): string[] {
  const { where, plan, appObjects } = ctx;
  const problems: string[] = [];
  for (const s of plan.stages) {
    const role = appObjects.find(o => o.kind === 'Role' && o.metadata.name === `promoter-${s.name}`);
    const promotable = (role?.rules ?? []).filter((r: any) => r.verbs.includes('promote')).flatMap((r: any) => r.resourceNames ?? ['*']).sort();
    const expected = s.approval === 'automatic' ? [] : s.waves.map(w => w.kargoStage).sort();
    if (JSON.stringify(promotable) !== JSON.stringify(expected)) problems.push(`${where}: stage ${s.name} promoters may promote ${promotable}, expected ${expected}`);
  }
  return problems;
}

/** Verification: every template a Stage references exists (or is an existing one), and per-cluster checks measure every cluster of the wave. */
function verificationProblems(ctx: AppCheck): string[] {
  const { where, plan, spec, appObjects, stageObjects } = ctx;
  const problems: string[] = [];
  const templates = appObjects.filter(o => o.kind === 'AnalysisTemplate');
  for (const w of plan.stages.flatMap(s => s.waves)) {
    const stageObject = stageObjects.find(o => o.metadata.name === w.kargoStage);
    for (const ref of stageObject?.spec.verification?.analysisTemplates ?? []) {
      const template = templates.find(t => t.metadata.name === ref.name);
      if (!template) {
        if (!isExistingTemplate(spec, ref.name)) problems.push(`${where}: Stage ${w.kargoStage} references a missing AnalysisTemplate ${ref.name}`);
        continue;
      }
      if (template.metadata.labels?.[PlatformLabels.STAGE] !== w.kargoStage) problems.push(`${where}: AnalysisTemplate ${ref.name} belongs to ${template.metadata.labels?.[PlatformLabels.STAGE]}, not ${w.kargoStage}`);
      // the Stage's one template: its checks in order, each one metric for the Stage (named after the
      // check) or one per cluster of the wave, then the soak; each web metric with a condition
      // followed by its JSON guard (the controller model checks the guard)
      const checks: string[] = (template.metadata.annotations?.['gitops-platform.io/checks'] ?? '').split(',');
      const isGuard = (m: any) => m.provider.job && m.name.endsWith('-answers-json');
      const metricProblem = checkMetricsProblem(template.spec.metrics.filter((m: any) => !isGuard(m)), checks, w.clusters);
      if (metricProblem) problems.push(`${where}: AnalysisTemplate ${ref.name} ${metricProblem}`);
      const guarded = template.spec.metrics.filter((m: any) => m.provider.web && ![undefined, 'true'].includes(m.successCondition));
      if (template.spec.metrics.filter(isGuard).length !== guarded.length) {
        problems.push(`${where}: AnalysisTemplate ${ref.name} has ${template.spec.metrics.filter(isGuard).length} JSON guards for ${guarded.length} web metrics with a condition`);
      }
    }
  }
  return problems;
}


/**
 * What is wrong with a Stage template's metrics (guards left out) for its checks, in order: each
 * check one metric named after it or one per cluster, the soak one metric named `soak`.
 */
function checkMetricsProblem(metrics: any[], checks: string[], clusters: string[]): string | undefined {
  // a job metric's name may be shortened (Argo Rollouts cuts it in its Job's name); its Job
  // carries the cluster, and the controller model checks that the Job names are valid and distinct
  const identity = (m: any, check: string) => {
    const cluster = m.provider.job?.metadata?.labels?.[PlatformLabels.CLUSTER];
    return m.provider.job && cluster !== undefined && m.name !== `${check}-${cluster}` && m.name.length <= 24 ? `${check}-${cluster}` : m.name;
  };
  let at = 0;
  for (const check of checks) {
    const single = at < metrics.length && identity(metrics[at], check) === check;
    const expected = single || check === 'soak' ? [check] : clusters.map(c => `${check}-${c}`);
    const got = metrics.slice(at, at + expected.length).map(m => identity(m, check));
    if (JSON.stringify(got) !== JSON.stringify(expected)) {
      return `has metrics ${JSON.stringify(got)} for check ${check}, expected one for the Stage or one per cluster of ${clusters}`;
    }
    at += expected.length;
  }
  return at === metrics.length ? undefined : `has ${metrics.length - at} metrics of no check ${JSON.stringify(checks)}`;
}

/** Whether a check of the input references an existing (not generated) template of this name. */
export function isExistingTemplate(spec: WorldSpec, name: string): boolean {
  const checks = [...spec.pipelines.flatMap(p => p.stages.flatMap(s => s.checks ?? [])),
    ...spec.apps.flatMap(a => [...a.checks ?? [], ...Object.values(a.stageChecks ?? {}).flat()])];
  return checks.some(c => c.k === 'template' && c.name === name);
}

/** JSON with sorted keys, to compare objects whatever the order of their members. */
export function canonical(value: unknown): string {
  return JSON.stringify(value, (_, v) => v && typeof v === 'object' && !Array.isArray(v)
    ? Object.fromEntries(Object.keys(v).sort().map(k => [k, v[k]])) : v);
}

export function goDuration(seconds: number): string {
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  return `${h ? `${h}h` : ''}${m ? `${m}m` : ''}${s ? `${s}s` : ''}`;
}
