import { ControllerFinding, finding } from './controller-finding';
import { artifactKey, SimulatedFreight, SubscribedArtifact, warehouseArtifacts } from './freight';
import { GitWorld, normalizeGitUrl, WorkDir } from './git-world';
import { ChartDependency, ModelApplication, StepEnv, syncProblem } from './kargo-steps';
import { inflateSteps, InflatedStep, PromotionResult, runPromotion, StepRecord } from './promotion-runner';

/**
 * Runs every Stage's promotion template through the promotion runner model in four scenarios,
 * each on the release repository the previous one left behind: the first promotion on an empty
 * repository, the same Freight again (nothing changes), newer Freight whose versions read as
 * numbers, and a rollback to the older Freight. After each successful promotion every Application authorized for the Stage must
 * find its branch, the synced revision and its path. Then each subscribed artifact is moved alone:
 * when the rendered release tree does not change, its new versions promote nothing.
 */
export interface PromotionModelOptions {
  /**
   * The dependencies of the Chart.yaml that `helm-update-chart` edits.
   * @default - Helm's convention for each chart subscription: a classic repository keeps its URL
   *   and chart name; an OCI `oci://<registry path>/<chart>` is `repository: oci://<registry path>`
   *   with `name: <chart>` (Kargo docs `helm-update-chart.md`, "OCI Chart Repository")
   */
  readonly chartDependencies?: ChartDependency[];
  /**
   * What the reviewer does with each pull request a Stage opens.
   * @default 'merge'
   */
  readonly reviewer?: 'merge' | 'close';
  /**
   * When the promotions run (expr-lang's `now()`, which a deploy freeze's `fail` step reads).
   * @default - a fixed Monday noon in June 2026, UTC (`MODEL_CLOCK`)
   */
  readonly now?: Date;
}

export const SCENARIOS: Array<{ name: string; generation: number; numericVersions?: boolean }> = [
  { name: 'first promotion on an empty release repository', generation: 1 },
  { name: 'second promotion of the same Freight (nothing changed)', generation: 1 },
  { name: 'promotion of newer Freight whose versions read as numbers (tag 1.20, chart 4.2, commits of digits)', generation: 2, numericVersions: true },
  { name: 'rollback to the older Freight', generation: 1 },
];

export function checkPromotions(objects: any[], apps: ModelApplication[], options: PromotionModelOptions = {}): ControllerFinding[] {
  const out: ControllerFinding[] = [];
  const unused = new Map<string, { warehouse: any; artifact: SubscribedArtifact; stages: string[] }>();
  for (const stage of objects.filter((o) => o?.kind === 'Stage' && Array.isArray(o.spec?.promotionTemplate?.spec?.steps))) {
    const ns = stage.metadata?.namespace;
    const warehouses = requestedWarehouses(stage, objects);
    const artifacts = warehouses.flatMap((w) => warehouseArtifacts(w).map((a) => ({ w, a })));
    let steps: InflatedStep[];
    try {
      steps = inflateSteps(stage, taskIndex(objects, ns));
    } catch (e) {
      out.push(finding(stage, '/spec/promotionTemplate/spec/steps', 'promotion-failed', `${(e as Error).message}: the webhook rejects every Promotion`));
      continue;
    }
    const deps = options.chartDependencies ?? artifacts.filter(({ a }) => a.kind === 'chart').map(({ a }) => conventionalDependency(a));
    const freight = (gen: number, overrides: Record<string, number> = {}, numericVersions = false) =>
      new SimulatedFreight(warehouses.map((w) => w.metadata?.name).join('+'), artifacts.map(({ a }) => a), overrides, gen, numericVersions);
    const ctx: StageRun = { stage, steps, apps, deps, reviewer: options.reviewer ?? 'merge', now: options.now };
    const first = runScenarios(ctx, freight, out);
    const base = first ?? renderedTrees(ctx, freight(1));
    if (base === undefined) continue;
    for (const { w, a } of artifacts) {
      if (renderedTrees(ctx, freight(1, { [artifactKey(a)]: 2 })) !== base) continue;
      const key = `${w.metadata?.namespace}/${w.metadata?.name}${a.path}`;
      const entry = unused.get(key) ?? { warehouse: w, artifact: a, stages: [] };
      entry.stages.push(stage.metadata?.name);
      unused.set(key, entry);
    }
  }
  for (const { warehouse, artifact, stages } of unused.values()) {
    out.push(finding(warehouse, artifact.path, 'artifact-unused',
      `${artifact.kind} ${JSON.stringify(artifact.repoURL)} is subscribed, but no step of Stage(s) ${stages.join(', ')} lets it change the rendered release${artifact.kind === 'git' ? ' (it is never checked out into a rendered path)' : ''}: Freight made by its new versions promotes nothing`));
  }
  return out;
}

interface StageRun {
  readonly stage: any;
  readonly steps: InflatedStep[];
  readonly apps: ModelApplication[];
  readonly deps: ChartDependency[];
  readonly reviewer: 'merge' | 'close';
  readonly now?: Date;
}

type FreightOf = (gen: number, overrides: Record<string, number>, numericVersions: boolean) => SimulatedFreight;

/**
 * Runs the scenarios in order on one release repository and reports the first failure. Returns
 * the release trees of the first promotion when it succeeded (the base of the artifact check).
 */
function runScenarios(ctx: StageRun, freight: FreightOf, out: ControllerFinding[]): string | undefined {
  const world = new GitWorld();
  let firstTrees: string | undefined;
  for (let i = 0; i < SCENARIOS.length; i++) {
    const scenario = SCENARIOS[i];
    const env = stepEnv(ctx, world, i);
    world.numericCommitIds = scenario.numericVersions ?? false;
    const at = freight(scenario.generation, {}, scenario.numericVersions ?? false);
    const result = runPromotion({ stage: ctx.stage, steps: ctx.steps, freight: at, env });
    if (result.phase !== 'Succeeded') {
      out.push(failureFinding(ctx.stage, scenario.name, result));
      return firstTrees;
    }
    if (i === 0) firstTrees = treesOf(env);
    const problems = applicationProblems(ctx, env);
    if (problems.length > 0) {
      out.push(...problems.map((p) => finding(p.app.origin.obj, `${p.app.origin.path}/source`, 'application-revision-missing',
        `${scenario.name} of Stage ${ctx.stage.metadata?.name}: Application ${p.app.name} ${p.problem}`)));
      return firstTrees;
    }
  }
  return firstTrees;
}

function stepEnv(ctx: StageRun, world: GitWorld, n: number): StepEnv {
  const name = ctx.stage.metadata?.name ?? '';
  return {
    world,
    workDir: new WorkDir(),
    project: ctx.stage.metadata?.namespace ?? '',
    stage: name,
    promotion: `${name}.model${n + 1}`,
    chartDependencies: ctx.deps,
    applications: ctx.apps,
    reviewer: ctx.reviewer,
    synced: [],
    now: ctx.now,
  };
}

function failureFinding(stage: any, scenario: string, result: PromotionResult): any {
  const bad = failedStep(result);
  const stepIndex = stageStepIndex(stage, bad.step.alias);
  const path = stepIndex >= 0 ? `/spec/promotionTemplate/spec/steps/${stepIndex}` : '/spec/promotionTemplate/spec/steps';
  return finding(stage, path, bad.code ?? 'promotion-failed', `${scenario}: ${describeStep(bad)}; the Promotion ends ${result.phase}`);
}

/** The step that ended a Promotion that did not succeed: the first that Errored or Failed without continueOnError. */
function failedStep(result: PromotionResult): StepRecord {
  return result.steps.find((r) => (r.status === 'Errored' || r.status === 'Failed') && !r.step.continueOnError)!;
}

function describeStep(r: StepRecord): string {
  return `step ${JSON.stringify(r.step.alias)} (${r.step.uses}) ${r.status}: ${r.error ?? 'no detail'}`;
}

/** The index in the Stage of a step alias (a task step counts as its calling step). */
function stageStepIndex(stage: any, alias: string): number {
  const top = alias.split('::')[0];
  const steps: any[] = stage.spec.promotionTemplate.spec.steps;
  return steps.findIndex((s, i) => (s.as || (s.task ? `task-${i + 1}` : `step-${i + 1}`)) === top);
}

/** Every Application authorized for the Stage must resolve its release source after the promotion. */
function applicationProblems(ctx: StageRun, env: StepEnv): Array<{ app: ModelApplication; problem: string }> {
  const entry = `${env.project}:${env.stage}`;
  const problems: Array<{ app: ModelApplication; problem: string }> = [];
  for (const app of ctx.apps) {
    const stages = (app.annotations['kargo.akuity.io/authorized-stage'] ?? '').split(',').map((s) => s.trim());
    if (!stages.includes(entry)) continue;
    for (const source of app.sources) {
      const remote = env.world.remote(source.repoURL ?? '');
      if (remote.commits.size === 0) continue; // not a repository this Stage writes
      const synced = env.synced.find((s) => s.app === app && s.app.sources.includes(source));
      const problem = syncProblem(env, source, synced?.revision);
      if (problem) problems.push({ app, problem });
      else if (!synced) problems.push({ app, problem: `is authorized for Stage ${env.stage} but its argocd-update step does not update it: it stays on whatever ${source.targetRevision} holds` });
    }
  }
  return problems;
}

/** The release trees one promotion writes, on a fresh repository. */
function renderedTrees(ctx: StageRun, freight: SimulatedFreight): string | undefined {
  // Chart.yaml matching is checked by the scenarios; here it must not hide what reaches the render.
  const env = { ...stepEnv(ctx, new GitWorld(), 0), chartDependencies: 'any' as const };
  if (runPromotion({ stage: ctx.stage, steps: ctx.steps, freight, env }).phase !== 'Succeeded') return undefined;
  return treesOf(env);
}

function treesOf(env: StepEnv): string {
  return JSON.stringify(env.workDir.trees.filter((t) => !t.virtual).map((t) => [normalizeGitUrl(t.repoUrl), t.path, sortedEntries(t.files)]));
}

function sortedEntries(files: Record<string, string>): Array<[string, string]> {
  return Object.entries(files).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/**
 * For a Stage: why a promotion of it started at an instant fails, or undefined when it succeeds,
 * with its `fail` steps run with their `if` (a deploy freeze's reads `now()`) and every other step
 * standing in with success, without its `if` or config: what the release timeline asks of a
 * promotion, as conformance/controllers/kargo/timeline.go runs it through Kargo's orchestrator.
 * The other steps' effects are checkPromotions'. The steps are inflated once per Stage.
 */
export function promotionFailure(stage: any, objects: any[]): (now: Date) => string | undefined {
  let steps: InflatedStep[];
  try {
    steps = inflateSteps(stage, taskIndex(objects, stage.metadata?.namespace));
  } catch (e) {
    const refused = `${(e as Error).message}: the webhook rejects every Promotion`;
    return () => refused;
  }
  const standIns = steps.map((s): InflatedStep => (s.uses === 'fail' ? s : { alias: s.alias, uses: 'stand-in', vars: [], origin: s.origin }));
  const warehouses = requestedWarehouses(stage, objects);
  const freight = new SimulatedFreight(warehouses.map((w) => w.metadata?.name).join('+'), warehouses.flatMap((w) => warehouseArtifacts(w)), {}, 1);
  return (now) => {
    const env = { ...stepEnv({ stage, steps: standIns, apps: [], deps: [], reviewer: 'merge', now }, new GitWorld(), 0), chartDependencies: 'any' as const };
    const result = runPromotion({ stage, steps: standIns, freight, env });
    return result.phase === 'Succeeded' ? undefined : describeStep(failedStep(result));
  };
}

export function requestedWarehouses(stage: any, objects: any[]): any[] {
  const names = (stage.spec?.requestedFreight ?? []).filter((r: any) => r?.origin?.kind === 'Warehouse').map((r: any) => r.origin.name);
  return objects.filter((o) => o?.kind === 'Warehouse' && o.metadata?.namespace === stage.metadata?.namespace && names.includes(o.metadata?.name));
}

function taskIndex(objects: any[], namespace: string): Map<string, any> {
  const tasks = new Map<string, any>();
  for (const o of objects) {
    if (o?.kind === 'PromotionTask' && o.metadata?.namespace === namespace) tasks.set(`PromotionTask/${o.metadata.name}`, o);
    if (o?.kind === 'ClusterPromotionTask') tasks.set(`ClusterPromotionTask/${o.metadata?.name}`, o);
  }
  return tasks;
}

/** Helm's Chart.yaml convention for a subscribed chart. */
export function conventionalDependency(a: SubscribedArtifact): ChartDependency {
  if (a.repoURL.startsWith('oci://')) {
    const url = a.repoURL.replace(/\/+$/, '');
    const cut = url.lastIndexOf('/');
    return { repository: url.slice(0, cut), name: url.slice(cut + 1) };
  }
  return { repository: a.repoURL, name: a.name ?? '' };
}
