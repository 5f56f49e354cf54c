import { Duration } from 'cdk8s';
import { VerificationKind, VerificationOptions } from './check-options';
import { checkHeaders, CheckParts, commonOptions, entries, generatedCheck, MetricBuilder, PROBE_DEFAULTS, publicText, publicUrl, seconds } from './check-rules';
import { metricConditionProblem } from './metric-condition';
import { guardedConditions, MetricOutcome, MetricOutcomes } from './metric-outcome';
import { checkText, fillPlaceholders, replaceRolloutsTags, SYNTH_PLACEHOLDERS, usesClusterPlaceholder } from './placeholders';
import { promqlType } from './promql-type';
import { enumMember, field as fieldOf, fieldText, hint, num, prop } from '../util/code-hint';
import { describe, show } from '../util/errors';

/**
 * How a Prometheus result is compared with a threshold.
 */
export enum Comparison {
  /** Passes when the value is below the threshold (error rates, latencies). */
  LESS_THAN = '<',
  /** Passes when the value is at most the threshold. */
  LESS_THAN_OR_EQUAL = '<=',
  /** Passes when the value is above the threshold (success rates, throughput). */
  GREATER_THAN = '>',
  /** Passes when the value is at least the threshold. */
  GREATER_THAN_OR_EQUAL = '>=',
  /** Passes when the value equals the threshold (`up == 1`). */
  EQUAL = '==',
  /** Passes when the value differs from the threshold. */
  NOT_EQUAL = '!=',
}

/**
 * Options for `Verification.prometheus()`: either `threshold` with `comparison`, or
 * `successCondition`.
 */
export interface PrometheusVerificationOptions extends VerificationOptions {
  /**
   * The Prometheus server (http or https); it may use placeholders, e.g. one server per region:
   * `http://prometheus.{region}.monitoring.example.com:9090`.
   */
  readonly address: string;
  /**
   * The PromQL query. It may use placeholders, typically a label matcher for the cluster:
   * `sum(rate(http_requests_total{cluster="{cluster}",code=~"5.."}[5m])) / sum(rate(http_requests_total{cluster="{cluster}"}[5m]))`.
   */
  readonly query: string;
  /**
   * The threshold the first sample of the result is compared with (`result[0] <comparison> <threshold>`).
   * @default - none: give successCondition instead
   */
  readonly threshold?: number;
  /**
   * How the first sample is compared with `threshold`; required with it.
   * @default - none
   */
  readonly comparison?: Comparison;
  /**
   * An explicit expr-lang condition on `result` (the vector of samples), e.g.
   * `result[0] < 0.01 && result[1] < 0.01`. It is evaluated only on an answer with at least one
   * sample whose first sample is a number: `noData` and `nan` decide the rest.
   * @default - derived from threshold and comparison
   */
  readonly successCondition?: string;
  /**
   * What a measurement counts as when the query returns no series (an error-rate query on a
   * service that never failed, a metric nobody scrapes). Without it Argo Rollouts would evaluate
   * `result[0]` of an empty vector, an error that ends the check in Error.
   * @default - by comparison: `SUCCESSFUL` for LESS_THAN and LESS_THAN_OR_EQUAL (an upper bound on
   * errors or latency holds when nothing was counted), `FAILED` for GREATER_THAN,
   * GREATER_THAN_OR_EQUAL, EQUAL and NOT_EQUAL (the quantity that must reach a minimum or hold a
   * value is absent), `INCONCLUSIVE` for a successCondition (the library cannot tell which way it
   * points)
   */
  readonly noData?: MetricOutcome;
  /**
   * What a measurement counts as when the first sample is NaN (a ratio over a window without
   * traffic: 0/0). Without it every comparison but `!=` is false on NaN, so an idle cluster fails.
   * @default - by comparison: `SUCCESSFUL` for LESS_THAN and LESS_THAN_OR_EQUAL (no request, so no
   * failed or slow one), `INCONCLUSIVE` for GREATER_THAN and GREATER_THAN_OR_EQUAL (a success rate
   * without traffic proves nothing either way: a person decides), `FAILED` for EQUAL and NOT_EQUAL
   * (a state such as `up` is never NaN, so NaN means the query does not measure it),
   * `INCONCLUSIVE` for a successCondition
   */
  readonly nan?: MetricOutcome;
  /**
   * Request headers (e.g. a tenant id); credentials must come from a Secret as for HTTP checks.
   * @default - none
   */
  readonly headers?: Record<string, string>;
  /**
   * How long one query may take (whole seconds).
   * @default - the Argo Rollouts default
   */
  readonly timeout?: Duration;
  /**
   * Skip TLS certificate verification.
   * @default false
   */
  readonly insecure?: boolean;
}

/** Resolves `Verification.prometheus()`. @internal */
export function prometheusCheck(options: PrometheusVerificationOptions): CheckParts {
  const problems: string[] = [];
  const common = commonOptions(VerificationKind.PROMETHEUS, options, PROBE_DEFAULTS, problems);
  const refs: string[] = [];
  const address = `${options?.address ?? ''}`;
  refs.push(...publicUrl(problems, 'prometheus address', address, common, 'error messages and logs show the address'));
  const query = `${options?.query ?? ''}`;
  if (query.trim() === '') {
    problems.push(describe(fieldOf('prometheus', prop('query')), options?.query, 'must not be empty',
      'give a PromQL query, e.g. sum(rate(http_requests_total{cluster="{cluster}",code=~"5.."}[5m]))'));
  }
  const queryRefs = publicText(problems, fieldText(fieldOf('prometheus', prop('query'))), query, common, 'error messages and logs show the query');
  refs.push(...queryRefs);
  if (query.trim() !== '') {
    const problem = queryProblem(query);
    if (problem) problems.push(describe(fieldOf('prometheus', prop('query')), options?.query, problem.problem, problem.fix));
  }
  const condition = prometheusCondition(problems, options);
  if (condition !== undefined && options?.successCondition !== undefined) {
    const field = fieldOf('prometheus', prop('successCondition'));
    refs.push(...checkText(problems, fieldText(field), condition, common.declared));
    const problem = condition.trim() === '' ? undefined : metricConditionProblem(condition, 'vector', common.args);
    if (problem) problems.push(describe(field, condition, problem, 'compare the samples, e.g. "result[0] < 0.05" or "all(result, {# < 0.05})"'));
  }
  const outcomes = metricOutcomes(problems, options);
  const conditions = guardedConditions(options?.successCondition !== undefined ? `(${condition})` : condition ?? 'false', outcomes);
  const headers = entries(options?.headers);
  refs.push(...checkHeaders(problems, 'prometheus', headers, common));
  const timeout = seconds(problems, fieldText(fieldOf('prometheus', prop('timeout'))), options?.timeout);
  const perCluster = [address, query, ...headers.map(([, v]) => v)].some(usesClusterPlaceholder);
  const build: MetricBuilder = (fill) => ({
    ...conditions,
    provider: {
      prometheus: {
        address: fill(address),
        query: fill(query),
        headers: headers.length > 0 ? headers.map(([key, value]) => ({ key, value: fill(value) })) : undefined,
        timeout,
        insecure: options?.insecure ? true : undefined,
      },
    },
  });
  return { ...generatedCheck(VerificationKind.PROMETHEUS, common, refs, perCluster, build, problems), outcomes };
}

/**
 * Why Argo Rollouts v1.9.1 cannot use the query's answer, or undefined. Placeholders are filled
 * with a plain word and args with `0` first: the query Prometheus receives has them filled.
 */
function queryProblem(query: string): { problem: string; fix: string } | undefined {
  const filled = fillPlaceholders(replaceRolloutsTags(query, '0'), Object.fromEntries(SYNTH_PLACEHOLDERS.map(p => [p, 'x'])));
  const verdict = promqlType(filled);
  if (verdict.error) return { problem: `${verdict.error} (Prometheus v3.5's PromQL grammar and types)`, fix: 'fix the query, e.g. sum(rate(http_requests_total{code=~"5.."}[5m])) / sum(rate(http_requests_total[5m]))' };
  if (verdict.type === 'scalar') {
    return {
      problem: 'returns a scalar (scalar(), time(), a number), which Argo Rollouts v1.9.1 hands to the conditions as one float64 '
        + '(metricproviders/prometheus processResponse), so result[0] and len(result) fail every measurement',
      fix: 'return a vector: drop the scalar() around the query (a one-series vector is result[0])',
    };
  }
  if (verdict.type === 'string') {
    return { problem: 'returns a string, which Argo Rollouts v1.9.1 refuses ("Prometheus metric type not supported")', fix: 'query a metric' };
  }
  return undefined;
}

/** Which comparisons bound a quantity from above: nothing counted keeps it below the bound. */
const UPPER_BOUNDS: string[] = [Comparison.LESS_THAN, Comparison.LESS_THAN_OR_EQUAL];
const LOWER_BOUNDS: string[] = [Comparison.GREATER_THAN, Comparison.GREATER_THAN_OR_EQUAL];

/** The outcomes on no data and NaN: the user's, else the default of the comparison (see the option docs). */
function metricOutcomes(problems: string[], options: PrometheusVerificationOptions | undefined): MetricOutcomes {
  const comparison = options?.successCondition !== undefined ? undefined : `${options?.comparison}`;
  const upper = comparison !== undefined && UPPER_BOUNDS.includes(comparison);
  const lower = comparison !== undefined && LOWER_BOUNDS.includes(comparison);
  const defaults: MetricOutcomes = comparison === undefined
    ? { noData: MetricOutcome.INCONCLUSIVE, nan: MetricOutcome.INCONCLUSIVE }
    : upper ? { noData: MetricOutcome.SUCCESSFUL, nan: MetricOutcome.SUCCESSFUL }
      : lower ? { noData: MetricOutcome.FAILED, nan: MetricOutcome.INCONCLUSIVE }
        : { noData: MetricOutcome.FAILED, nan: MetricOutcome.FAILED };
  const pick = (field: 'noData' | 'nan'): MetricOutcome => {
    const given = options?.[field];
    if (given === undefined) return defaults[field];
    if (Object.values(MetricOutcome).includes(given)) return given;
    problems.push(describe(fieldOf('prometheus', prop(field)), given, 'must be a MetricOutcome', hint`use ${enumMember('MetricOutcome', 'SUCCESSFUL')}, FAILED or INCONCLUSIVE`));
    return defaults[field];
  };
  return { noData: pick('noData'), nan: pick('nan') };
}

function prometheusCondition(problems: string[], options: PrometheusVerificationOptions | undefined): string | undefined {
  const threshold = options?.threshold;
  const comparison = options?.comparison;
  const condition = options?.successCondition;
  if (condition !== undefined) {
    if (threshold !== undefined || comparison !== undefined) {
      problems.push(describe('prometheus check', { successCondition: condition, threshold }, hint`takes either a ${prop('successCondition')} or a ${prop('threshold')} with a ${prop('comparison')}, not both`, 'keep one'));
    }
    if (`${condition}`.trim() === '') problems.push(describe(fieldOf('prometheus', prop('successCondition')), condition, 'must not be empty', 'use e.g. "result[0] < 0.01"'));
    return `${condition}`;
  }
  if (threshold === undefined && comparison === undefined) {
    problems.push(describe('prometheus check', undefined, hint`needs a ${prop('threshold')} with a ${prop('comparison')} or a ${prop('successCondition')}`,
      hint`e.g. ${prop('threshold')}: ${num(0.01)}, ${prop('comparison')}: ${enumMember('Comparison', 'LESS_THAN')} (passes when result[0] < 0.01)`));
    return undefined;
  }
  if (threshold === undefined || typeof threshold !== 'number' || !Number.isFinite(threshold)) {
    problems.push(describe(fieldOf('prometheus', prop('threshold')), threshold, 'must be a finite number', hint`give it with the ${prop('comparison')}`));
    return undefined;
  }
  if (comparison === undefined || !Object.values(Comparison).includes(comparison)) {
    problems.push(describe(fieldOf('prometheus', prop('threshold'), show(threshold)), comparison, hint`needs a ${prop('comparison')}`,
      hint`e.g. ${prop('comparison')}: ${enumMember('Comparison', 'LESS_THAN')}`));
    return undefined;
  }
  return `result[0] ${comparison} ${threshold}`;
}
