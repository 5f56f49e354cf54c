import { ControllerFinding, finding } from './controller-finding';
import { evaluateExpression, ExprError, ExprFunctions } from './expr';

/**
 * What Argo Rollouts v1.9.1 makes of a Prometheus measurement whose query answers no series, or a
 * first sample that is NaN (a ratio over a window without traffic):
 *
 * - `metricproviders/prometheus/prometheus.go` `processResponse`: an instant vector becomes
 *   `result`, the []float64 of its samples (`sampleValuesToFloatSlice`: an empty vector is an
 *   empty slice, NaN stays NaN), evaluated by `utils/evaluate/evaluate.go` `EvaluateResult`.
 * - `EvaluateResult`: a condition that fails to evaluate (`result[0]` of an empty slice: index
 *   out of range) makes the measurement Error, and the AnalysisRun errors once errors pass
 *   `consecutiveErrorLimit`; with only a successCondition a false one is Failed; with only a
 *   failureCondition a false one is Successful; with both, a true failureCondition is Failed,
 *   else a true successCondition is Successful, else Inconclusive; with neither, Successful.
 * - `EvalCondition` offers `isNaN`, `isInf`, `asInt`, `asFloat`, `isNil` and `default`; the
 *   conditions are expr (github.com/antonmedv/expr v1.15.5) programs whose `||`/`&&`
 *   short-circuit and whose `len` accepts a slice (`compiler/compiler.go`, `builtin/builtin.go`),
 *   the semantics `expr.ts` models for the operators these conditions use.
 *
 * Reported: `metric-error-on-no-data` when a condition fails to evaluate on an empty answer, and
 * `metric-outcome-mismatch` when the template's `gitops-platform.io/metric-outcomes` annotation
 * promises an outcome the conditions do not produce. Conditions with `{{args.…}}` are left out:
 * Rollouts substitutes those first.
 */
export function checkMetricOutcomes(objects: any[]): ControllerFinding[] {
  const out: ControllerFinding[] = [];
  for (const obj of objects) {
    if (obj?.kind !== 'AnalysisTemplate' && obj?.kind !== 'ClusterAnalysisTemplate') continue;
    const declared = declaredOutcomes(obj);
    const metrics: any[] = Array.isArray(obj.spec?.metrics) ? obj.spec.metrics : [];
    metrics.forEach((metric: any, i: number) => {
      if (!metric?.provider?.prometheus) return;
      const conditions = [metric.successCondition, metric.failureCondition].filter((c) => typeof c === 'string');
      if (conditions.some((c: string) => c.includes('{{'))) return;
      const answers: Array<['noData' | 'nan', number[], string]> = [['noData', [], 'an answer without series'], ['nan', [NaN], 'a NaN first sample']];
      for (const [key, result, what] of answers) {
        const outcome = evaluateResult(metric, result);
        const name = JSON.stringify(metric.name);
        if (key === 'noData' && outcome.phase === 'Error') {
          out.push(finding(obj, `/spec/metrics/${i}/${outcome.field}`, 'metric-error-on-no-data',
            `prometheus metric ${name}: ${outcome.field} ${JSON.stringify(outcome.condition)} fails on ${what} (${outcome.error}), so the measurement is Error `
            + `and the AnalysisRun errors, failing verification, whenever ${JSON.stringify(metric.provider.prometheus.query)} returns nothing; guard it with len(result) == 0 || …`));
        }
        const promised = declared?.[String(metric.name)]?.[key];
        if (promised !== undefined && promised !== outcome.phase) {
          out.push(finding(obj, `/spec/metrics/${i}`, 'metric-outcome-mismatch',
            `prometheus metric ${name} is annotated ${key} ${JSON.stringify(promised)}, but its conditions make ${what} ${outcome.phase}`));
        }
      }
    });
  }
  return out;
}

/** A measurement's phase on `result`, as `EvaluateResult` decides it. */
export function evaluateResult(metric: { successCondition?: string; failureCondition?: string }, result: unknown):
{ phase: 'Successful' | 'Failed' | 'Inconclusive' | 'Error'; field?: string; condition?: string; error?: string } {
  const evaluated: Record<string, boolean> = {};
  for (const field of ['successCondition', 'failureCondition'] as const) {
    const condition = metric[field];
    if (typeof condition !== 'string' || condition === '') continue;
    try {
      const value = evaluateExpression(condition, { result }, conditionFunctions(result));
      if (typeof value !== 'boolean') return { phase: 'Error', field, condition, error: `expected bool, but got ${typeof value}` };
      evaluated[field] = value;
    } catch (e) {
      if (!(e instanceof ExprError)) throw e;
      return { phase: 'Error', field, condition, error: e.message };
    }
  }
  const hasSuccess = 'successCondition' in evaluated;
  const hasFailure = 'failureCondition' in evaluated;
  if (!hasSuccess && !hasFailure) return { phase: 'Successful' };
  const success = hasSuccess ? evaluated.successCondition : !evaluated.failureCondition;
  const failure = hasFailure ? evaluated.failureCondition : !evaluated.successCondition;
  if (failure) return { phase: 'Failed' };
  return { phase: success ? 'Successful' : 'Inconclusive' };
}

/** `EvalCondition`'s functions, and expr's `len`, for a result of float samples. */
function conditionFunctions(result: unknown): ExprFunctions {
  const num = (name: string) => (x: unknown) => {
    if (typeof x !== 'number') throw new ExprError(`invalid argument for ${name} (type ${typeof x})`);
    return x;
  };
  return {
    len: (x) => {
      if (Array.isArray(x) || typeof x === 'string') return x.length;
      throw new ExprError(`invalid argument for len (type ${x === null ? '<nil>' : typeof x})`);
    },
    isNaN: (x) => Number.isNaN(num('isNaN')(x)),
    isInf: (x) => !Number.isFinite(num('isInf')(x)) && !Number.isNaN(x),
    asFloat: (x) => num('asFloat')(x),
    asInt: (x) => Math.trunc(num('asInt')(x)),
    isNil: () => result === null || result === undefined,
    default: (_, fallback) => (result === null || result === undefined ? fallback : result),
  };
}

/** The template's promise, or undefined when it makes none (or not as JSON). */
function declaredOutcomes(obj: any): Record<string, { noData?: string; nan?: string }> | undefined {
  const text = obj?.metadata?.annotations?.['gitops-platform.io/metric-outcomes'];
  if (typeof text !== 'string') return undefined;
  try {
    const parsed = JSON.parse(text);
    return parsed !== null && typeof parsed === 'object' ? parsed : undefined;
  } catch {
    return undefined;
  }
}
