import { evaluatedConfigProblem } from './evaluated-config';
import { ExprError, ExprFunctions } from './expr';
import { nowAt } from './expr-time';
import { SimulatedFreight } from './freight';
import { MODEL_CLOCK, StepEnv, StepResult, StepStatus, STEP_MODELS } from './kargo-steps';
import { evaluateConfig, evaluateTemplate } from './template';

/**
 * Kargo v1.11.2's promotion runner, without a cluster:
 * - task steps are inflated when the Promotion is created (`pkg/api/promotion.go` `InflateSteps`):
 *   each task step becomes `<task alias>::<step alias>`, carrying the task's defaulted vars and the
 *   calling step's vars;
 * - steps run in order (`pkg/promotion/local_orchestrator.go` `ExecuteSteps`): a step without
 *   `if` is Skipped once an earlier step Errored or Failed; an `if` that is false Skips the step
 *   and writes no output; an `if` or config that fails to evaluate Errors the step; every step
 *   that runs writes its output (nil for a Skipped `git-open-pr`) to `outputs[<alias>]`;
 * - expressions see `ctx`, `vars`, `outputs`, `task.outputs` and `status()`/`success()`/
 *   `failure()`/`always()` (`pkg/promotion/evaluator.go`, `pkg/expressions/function/functions.go`),
 *   and expr-lang's `now()` reads the model's clock (`StepEnv.now`).
 */

export interface InflatedStep {
  readonly alias: string;
  readonly uses: string;
  readonly if?: string;
  readonly config?: unknown;
  readonly vars: Array<{ name: string; value?: string }>;
  readonly continueOnError?: boolean;
  /** Where the step is written: the object and the pointer to the step. */
  readonly origin: { obj: any; path: string };
}

export interface StepRecord {
  readonly step: InflatedStep;
  readonly status: StepStatus;
  readonly error?: string;
  readonly code?: string;
}

export interface PromotionResult {
  readonly phase: 'Succeeded' | 'Errored' | 'Failed';
  readonly steps: StepRecord[];
}

/**
 * The steps of a Stage's promotion template with every task reference inflated.
 * @throws Error when a referenced task is missing or a required task var has no value (the
 *   webhook then rejects the Promotion)
 */
export function inflateSteps(stage: any, tasks: Map<string, any>): InflatedStep[] {
  const steps: any[] = stage?.spec?.promotionTemplate?.spec?.steps ?? [];
  const promoVars: any[] = stage?.spec?.promotionTemplate?.spec?.vars ?? [];
  const out: InflatedStep[] = [];
  steps.forEach((step, i) => {
    const path = `/spec/promotionTemplate/spec/steps/${i}`;
    if (!step.task) {
      out.push({ alias: step.as || `step-${i + 1}`, uses: step.uses, if: step.if, config: step.config, vars: step.vars ?? [], continueOnError: step.continueOnError, origin: { obj: stage, path } });
      return;
    }
    const taskAlias = step.as || `task-${i + 1}`;
    const task = tasks.get(`${step.task.kind ?? 'PromotionTask'}/${step.task.name}`);
    if (!task) throw new Error(`inflate task steps for task "${step.task.name}" ("${taskAlias}"): ${step.task.kind ?? 'PromotionTask'} not found`);
    const vars = taskVars(task.spec?.vars ?? [], promoVars, step.vars ?? [], taskAlias);
    (task.spec?.steps ?? []).forEach((ts: any, j: number) => {
      out.push({
        alias: `${taskAlias}::${ts.as || `step-${j + 1}`}`,
        uses: ts.uses,
        if: ts.if,
        config: ts.config,
        vars: [...vars, ...(ts.vars ?? [])],
        continueOnError: ts.continueOnError,
        origin: { obj: task, path: `/spec/steps/${j}` },
      });
    });
  });
  return out;
}

/** `promotionTaskVarsToStepVars`: defaults unless the Promotion sets the var; required vars must be given. */
function taskVars(taskVarDefs: any[], promoVars: any[], stepVars: any[], alias: string): Array<{ name: string; value?: string }> {
  const promoSet = new Set(promoVars.filter((v) => v.value).map((v) => v.name));
  const stepSet = new Set(stepVars.filter((v) => v.value).map((v) => v.name));
  const vars: Array<{ name: string; value?: string }> = [];
  for (const v of taskVarDefs) {
    if (promoSet.has(v.name)) continue;
    if (v.value) {
      vars.push(v);
    } else if (!stepSet.has(v.name)) {
      throw new Error(`inflate task steps ("${alias}"): missing value for variable "${v.name}"`);
    }
  }
  return [...vars, ...stepVars];
}

export interface RunInput {
  readonly stage: any;
  readonly steps: InflatedStep[];
  readonly freight: SimulatedFreight;
  readonly env: StepEnv;
}

/** Runs the inflated steps once, as the orchestrator would for one Promotion. */
export function runPromotion(input: RunInput): PromotionResult {
  const state: Record<string, unknown> = {};
  const records: StepRecord[] = [];
  const promoVars: any[] = input.stage?.spec?.promotionTemplate?.spec?.vars ?? [];
  for (const step of input.steps) {
    const failed = records.some((r) => (r.status === 'Errored' || r.status === 'Failed') && !r.step.continueOnError);
    const record = runStep(step, { ...input, state, records, promoVars, failed });
    records.push(record.record);
    if (record.writesOutput) state[step.alias] = record.output ?? null;
  }
  const bad = records.filter((r) => (r.status === 'Errored' || r.status === 'Failed') && !r.step.continueOnError);
  const phase = bad.length === 0 ? 'Succeeded' : bad.some((r) => r.status === 'Failed') ? 'Failed' : 'Errored';
  return { phase, steps: records };
}

interface StepRun extends RunInput {
  readonly state: Record<string, unknown>;
  readonly records: StepRecord[];
  readonly promoVars: any[];
  readonly failed: boolean;
}

function runStep(step: InflatedStep, run: StepRun): { record: StepRecord; writesOutput: boolean; output?: Record<string, unknown> } {
  const skipped = { record: { step, status: 'Skipped' as StepStatus }, writesOutput: false };
  if (!step.if && run.failed) return skipped;
  let env: Record<string, unknown>;
  const fns = functions(step, run);
  try {
    env = expressionEnv(step, run, fns);
    if (step.if) {
      const cond = evaluateTemplate(step.if, env, fns);
      if (typeof cond !== 'boolean') throw new ExprError(`expression must evaluate to a boolean, got ${typeof cond}`);
      if (!cond) return skipped;
    }
  } catch (e) {
    return { record: { step, status: 'Errored', error: `error checking if step "${step.alias}" should be skipped: ${message(e)}`, code: 'expression-error' }, writesOutput: false };
  }
  let config: unknown;
  try {
    config = evaluateConfig(step.config ?? {}, env, fns);
  } catch (e) {
    return { record: { step, status: 'Errored', error: `failed to build step context: ${message(e)}`, code: codeOf(step, e) }, writesOutput: false };
  }
  // a built-in step checks its evaluated config first: Failed, terminal (helm_template_runner.go Run)
  const invalid = evaluatedConfigProblem(step.uses, config);
  if (invalid) {
    return { record: { step, status: 'Failed', error: `invalid ${step.uses} config: ${invalid}`, code: 'step-config-invalid' }, writesOutput: true };
  }
  const model = STEP_MODELS[step.uses];
  const result: StepResult = model ? model(config, run.env) : { status: 'Succeeded' };
  return { record: { step, status: result.status, error: result.error, code: result.code }, writesOutput: true, output: result.output };
}

/** `BuildExprEnv` + `ExprEnvWithOutputs` + `ExprEnvWithTaskOutputs` + `ExprEnvWithVars`. */
function expressionEnv(step: InflatedStep, run: StepRun, fns: ExprFunctions): Record<string, unknown> {
  const base: Record<string, unknown> = {
    ctx: {
      project: run.env.project,
      stage: run.env.stage,
      promotion: run.env.promotion,
      targetFreight: { name: run.freight.name, alias: run.freight.alias, origin: { name: run.freight.warehouse } },
      meta: { promotion: { actor: run.env.actor ?? 'model', rollback: false }, step: { alias: step.alias } },
    },
  };
  const vars: Record<string, unknown> = {};
  for (const v of run.promoVars) vars[v.name] = evaluateTemplate(v.value ?? '', { ...base, vars }, fns);
  const ns = step.alias.includes('::') ? step.alias.split('::')[0] : '';
  const taskOutputs = ns
    ? Object.fromEntries(Object.entries(run.state).filter(([k]) => k.startsWith(ns + '::')).map(([k, v]) => [k.slice(ns.length + 2), v]))
    : undefined;
  const full = { ...base, outputs: run.state, ...(taskOutputs ? { task: { outputs: taskOutputs } } : {}) };
  for (const v of step.vars) vars[v.name] = evaluateTemplate(v.value ?? '', { ...full, vars }, fns);
  return { ...full, vars };
}

/** Freight functions plus `StatusOperations` (status() looks up aliases within the step's own task). */
function functions(step: InflatedStep, run: StepRun): ExprFunctions {
  const ns = step.alias.includes('::') ? step.alias.split('::')[0] : '';
  const failure = () => run.records.some((r) => r.status === 'Errored' || r.status === 'Failed');
  return {
    ...run.freight.functions(),
    now: (...args) => nowAt(run.env.now ?? MODEL_CLOCK, args),
    always: () => true,
    failure,
    success: () => !failure(),
    status: (alias) => {
      const rec = run.records.find((r) => {
        const [rns, short] = r.step.alias.includes('::') ? r.step.alias.split('::') : ['', r.step.alias];
        return rns === ns && short === alias;
      });
      return rec?.status ?? '';
    },
  };
}

function codeOf(step: InflatedStep, e: unknown): string {
  return /cannot fetch .* from <nil>/.test(message(e)) && JSON.stringify(step.config ?? {}).includes('outputs') ? 'step-output-missing' : 'expression-error';
}

function message(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
