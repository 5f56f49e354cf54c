// What a Prometheus measurement counts as when the query answers no sample or a NaN sample, and
// the conditions that make Argo Rollouts v1.9.1 decide exactly that.
//
// Upstream (argo-rollouts v1.9.1):
// - metricproviders/prometheus/prometheus.go `processResponse`: an instant vector becomes
//   `result`, a []float64 of its samples (`sampleValuesToFloatSlice`, never nil: an empty vector
//   is an empty slice); a NaN sample stays NaN. A scalar becomes a float64, which neither
//   `len()` nor `result[0]` accepts: the query must return a vector.
// - utils/evaluate/evaluate.go `EvaluateResult`: a condition that fails to evaluate makes the
//   measurement Error (`result[0]` of an empty slice is "index out of range"); with only a
//   successCondition a false one is Failed; with both, failure wins, and neither true is
//   Inconclusive. `EvalCondition` offers `isNaN` (math.IsNaN) and `isInf` to conditions.
// - github.com/antonmedv/expr v1.15.5 (pinned by Rollouts' go.mod) compiler/compiler.go: `||`
//   and `&&` short-circuit (OpJumpIfTrue / OpJumpIfFalse), so `len(result) == 0 || result[0] < t`
//   never indexes an empty slice; builtin/builtin.go `len` accepts a slice.
// - analysis/analysis.go `assessMetricFailureInconclusiveOrError`: a metric ends Inconclusive
//   once its inconclusive measurements exceed `inconclusiveLimit` (default 0, so the first one);
//   Kargo v1.11.2 pkg/controller/stages/regular_stages.go then reports the Stage
//   `VerificationInconclusive` and the Freight stays unverified until verification is re-run.

/**
 * What a Prometheus measurement counts as (an Argo Rollouts measurement phase).
 */
export enum MetricOutcome {
  /** The measurement passes. */
  SUCCESSFUL = 'Successful',
  /** The measurement fails and counts against `failureLimit`. */
  FAILED = 'Failed',
  /**
   * Neither: the check ends Inconclusive at once (Argo Rollouts' `inconclusiveLimit` is 0), the
   * Stage reports `VerificationInconclusive` and the Freight stays unverified until someone
   * re-runs verification.
   */
  INCONCLUSIVE = 'Inconclusive',
}

/** What a measurement counts as on an answer without data and on a NaN first sample. @internal */
export interface MetricOutcomes {
  readonly noData: MetricOutcome;
  readonly nan: MetricOutcome;
}

/** The annotation on each generated AnalysisTemplate: metric name -> its outcomes. @internal */
export const METRIC_OUTCOMES_ANNOTATION = 'gitops-platform.io/metric-outcomes';

const NO_DATA = 'len(result) == 0';
const NAN = 'isNaN(result[0])';

/**
 * The conditions under which Rollouts decides `outcomes` on an empty answer and a NaN first
 * sample, and `value` (a condition on a non-empty result whose first sample is a number)
 * otherwise. A failureCondition is written only when an outcome is Inconclusive, which needs
 * both conditions false.
 * @internal
 */
export function guardedConditions(value: string, outcomes: MetricOutcomes): { successCondition: string; failureCondition?: string } {
  const successCondition = guarded(value, outcomes, MetricOutcome.SUCCESSFUL);
  const inconclusive = outcomes.noData === MetricOutcome.INCONCLUSIVE || outcomes.nan === MetricOutcome.INCONCLUSIVE;
  return inconclusive ? { successCondition, failureCondition: guarded(`!(${value})`, outcomes, MetricOutcome.FAILED) } : { successCondition };
}

/**
 * `len(result) == 0 || …` where the empty answer has outcome `role`, `len(result) > 0 && …`
 * where it has not; the same for NaN; the value condition last, reached only on a number.
 */
function guarded(value: string, outcomes: MetricOutcomes, role: MetricOutcome): string {
  const nanIsRole = outcomes.nan === role;
  const nanPart = nanIsRole ? `${NAN} || ${value}` : `!${NAN} && ${value}`;
  if (outcomes.noData === role) return `${NO_DATA} || ${nanIsRole ? nanPart : `(${nanPart})`}`;
  return `len(result) > 0 && ${nanIsRole ? `(${nanPart})` : nanPart}`;
}
