import { VerificationArg } from './verification-arg';
import { goProblem } from '../util/go-parsers';

/**
 * What `result` is in a metric's condition: a Prometheus vector (`[]float64`), or a web metric's
 * JSON value, whose type only the answer decides (argo-rollouts v1.9.1
 * metricproviders/prometheus/prometheus.go `processResponse`, metricproviders/webmetric).
 * @internal
 */
export type MetricResult = 'vector' | 'any';

/** What an arg whose value is known only when the AnalysisRun starts is tried as, in turn. */
const UNKNOWN_VALUES = ['0', 'x'];

/**
 * Why Argo Rollouts v1.9.1 cannot evaluate `condition`, or undefined: the condition is compiled
 * as `utils/evaluate/evaluate.go` `EvalCondition` compiles it (github.com/antonmedv/expr v1.15.5
 * with `result`, `asInt`, `asFloat`, `isNaN`, `isInf`, `isNil` and `default`), by the Go parsers,
 * and must be able to give a bool. Rollouts replaces every `{{args.<name>}}` in the text before
 * (`utils/analysis/factory.go` `ResolveMetricArgs`, `utils/template/template.go`
 * `ResolveQuotedArgs`): an arg with a fixed value is replaced by it, one known only when
 * the run starts (an expression, a Secret) by `0` and then by `x`, and the condition passes when
 * one of them compiles.
 * @internal
 */
export function metricConditionProblem(condition: string, result: MetricResult, args: Record<string, VerificationArg>): string | undefined {
  let first: string | undefined;
  for (const unknown of UNKNOWN_VALUES) {
    const text = condition.replace(/\{\{args\.([^}]+)\}\}/g, (_, name: string) => knownValue(args[name]) ?? unknown);
    const error = goProblem('rollouts-condition', text, result);
    if (error === undefined) return undefined;
    first = first ?? error;
    if (text === condition) break;
  }
  return `does not compile as Argo Rollouts v1.9.1 compiles it (expr v1.15.5, result being ${result === 'vector' ? "the query's samples, []float64" : 'the JSON value'}): ${first}`;
}

function knownValue(arg: VerificationArg | undefined): string | undefined {
  const value = arg?.kargoValue;
  return value !== undefined && !value.includes('${{') ? value : undefined;
}
