import { Duration } from 'cdk8s';
import { describe, expect, test } from 'vitest';
import { evaluateResult } from '../../src/testkit/model/rollouts-metric-outcomes';
import { HostLanguage } from '../../src/util/host-language';
import { Comparison, MetricOutcome, Verification, VerificationArg } from '../../src/verification';
import { METRIC_OUTCOMES_ANNOTATION } from '../../src/verification/metric-outcome';
import { expectValid, problemsOf, render } from '../support/verification-fixtures';

describe('Verification.prometheus', () => {
  const errors = () => Verification.prometheus({
    name: 'errors',
    address: 'http://prometheus.{region}.example.com:9090',
    query: 'sum(rate(http_requests_total{cluster="{cluster}",code=~"5.."}[5m])) / sum(rate(http_requests_total{cluster="{cluster}"}[5m]))',
    threshold: 0.01,
    comparison: Comparison.LESS_THAN,
  });

  test('threshold and comparison become the success condition; placeholders in address and query', () => {
    const rendered = render([errors()]);
    expectValid(rendered);
    const metrics = rendered.templates[0].spec.metrics;
    expect(metrics[1]).toEqual({
      name: 'errors-azr-eus-mi300x-prod-01',
      interval: '1m',
      count: 5,
      failureLimit: 1,
      consecutiveErrorLimit: 1,
      successCondition: 'len(result) == 0 || isNaN(result[0]) || result[0] < 0.01',
      provider: {
        prometheus: {
          address: 'http://prometheus.eastus.example.com:9090',
          query: 'sum(rate(http_requests_total{cluster="azr-eus-mi300x-prod-01",code=~"5.."}[5m])) / sum(rate(http_requests_total{cluster="azr-eus-mi300x-prod-01"}[5m]))',
        },
      },
    });
  });

  test('snapshot', () => {
    const rendered = render([errors(), Verification.prometheus({
      name: 'gpu-util',
      address: 'https://thanos.example.com',
      query: 'avg(DCGM_FI_DEV_GPU_UTIL{cluster="{cluster}",accelerator="{accelerator}"})',
      successCondition: 'len(result) > 0 && result[0] >= 10',
      headers: { 'X-Scope-OrgID': 'gpu-{tier}' },
      timeout: Duration.seconds(30),
      count: 10,
      failureLimit: 2,
    })]);
    expectValid(rendered);
    expect(rendered).toMatchSnapshot();
  });

  test.each([
    [Comparison.LESS_THAN_OR_EQUAL, { successCondition: 'len(result) == 0 || isNaN(result[0]) || result[0] <= 2' }, 'Successful', 'Successful'],
    [Comparison.GREATER_THAN, {
      successCondition: 'len(result) > 0 && !isNaN(result[0]) && result[0] > 2',
      failureCondition: 'len(result) == 0 || (!isNaN(result[0]) && !(result[0] > 2))',
    }, 'Failed', 'Inconclusive'],
    [Comparison.GREATER_THAN_OR_EQUAL, {
      successCondition: 'len(result) > 0 && !isNaN(result[0]) && result[0] >= 2',
      failureCondition: 'len(result) == 0 || (!isNaN(result[0]) && !(result[0] >= 2))',
    }, 'Failed', 'Inconclusive'],
    [Comparison.EQUAL, { successCondition: 'len(result) > 0 && !isNaN(result[0]) && result[0] == 2' }, 'Failed', 'Failed'],
    [Comparison.NOT_EQUAL, { successCondition: 'len(result) > 0 && !isNaN(result[0]) && result[0] != 2' }, 'Failed', 'Failed'],
  ])('comparison %s: guarded conditions, default outcomes annotated and what Rollouts decides', (comparison, conditions, noData, nan) => {
    const check = Verification.prometheus({ address: 'http://p:9090', query: 'up', threshold: 2, comparison });
    expect(check._problems).toEqual([]);
    const [template] = render([check]).templates;
    const { successCondition, failureCondition } = template.spec.metrics[0];
    expect({ successCondition, failureCondition }).toEqual({ failureCondition: undefined, ...conditions });
    expect(JSON.parse(template.annotations![METRIC_OUTCOMES_ANNOTATION])).toEqual({ prometheus: { noData, nan } });
    expect(evaluateResult(template.spec.metrics[0], []).phase).toBe(noData);
    expect(evaluateResult(template.spec.metrics[0], [NaN]).phase).toBe(nan);
    expect(evaluateResult(template.spec.metrics[0], [comparison === Comparison.NOT_EQUAL ? 3 : 2]).phase)
      .toBe(comparison === Comparison.GREATER_THAN ? 'Failed' : 'Successful');
  });

  test.each(Object.values(MetricOutcome).flatMap(noData => Object.values(MetricOutcome).map(nan => [noData, nan])))(
    'noData %s, nan %s: the conditions give exactly those outcomes, and the threshold decides the rest', (noData, nan) => {
      const check = Verification.prometheus({ address: 'http://p:9090', query: 'up', threshold: 0.05, comparison: Comparison.LESS_THAN, noData, nan });
      const metric = render([check]).templates[0].spec.metrics[0];
      expect(evaluateResult(metric, []).phase).toBe(noData);
      expect(evaluateResult(metric, [NaN]).phase).toBe(nan);
      expect(evaluateResult(metric, [0.01, 0.9]).phase).toBe('Successful');
      expect(evaluateResult(metric, [0.05]).phase).toBe('Failed');
      expect(metric.failureCondition !== undefined).toBe(noData === MetricOutcome.INCONCLUSIVE || nan === MetricOutcome.INCONCLUSIVE);
    });

  test('fails if the successCondition does not compile as Argo Rollouts compiles it: result is the vector of samples', () => {
    const check = (successCondition: string, args = {}) => problemsOf(Verification.prometheus({ name: 'p', address: 'http://p:9090', query: 'up', successCondition, args }));
    expect(check('result < 0.05')).toEqual([
      'verification "p": prometheus successCondition does not compile as Argo Rollouts v1.9.1 compiles it (expr v1.15.5, result being the query\'s samples, '
      + '[]float64): invalid operation: < (mismatched types []float64 and float64) (1:8), got "result < 0.05"; compare the samples, e.g. "result[0] < 0.05" or "all(result, {# < 0.05})"',
    ]);
    expect(check('result[0] <')).toEqual([expect.stringMatching(/successCondition does not compile .*: unexpected token EOF/)]);
    expect(check('result[0]')).toEqual([expect.stringMatching(/does not evaluate to a bool \(expected bool, but got float64\)/)]);
    expect(check('result[0] < 0.05 && all(result, {# < 0.1})')).toEqual([]);
    // args are filled in as Rollouts fills them: a fixed value by its text, one known later by 0 or a word
    expect(check('result[0] < {{args.limit}}', { limit: VerificationArg.value('0.05') })).toEqual([]);
    expect(check('result[0] < {{args.limit}}', { limit: VerificationArg.value('low') })).toEqual([expect.stringMatching(/successCondition does not compile/)]);
    expect(check("result[0] < {{args.limit}} && '{{args.stage}}' != 'prod'", { limit: VerificationArg.expression('vars.limit') })).toEqual([]);
  });

  test('fails if the query returns a scalar or a string, or does not parse: the conditions read a vector', () => {
    const check = (query: string) => problemsOf(Verification.prometheus({ name: 'p', address: 'http://p:9090', query, threshold: 0.05, comparison: Comparison.LESS_THAN }));
    expect(check('scalar(sum(rate(errors_total[5m])) / sum(rate(requests_total[5m])))')).toEqual([
      'verification "p": prometheus query returns a scalar (scalar(), time(), a number), which Argo Rollouts v1.9.1 hands to the conditions as one float64 '
      + '(metricproviders/prometheus processResponse), so result[0] and len(result) fail every measurement, '
      + 'got "scalar(sum(rate(errors_total[5m])) / sum(rate(requests_total[5m])))"; return a vector: drop the scalar() around the query (a one-series vector is result[0])',
    ]);
    expect(check('time() - 300')).toEqual([expect.stringMatching(/query returns a scalar/)]);
    expect(check('"up"')).toEqual([expect.stringMatching(/query returns a string, which Argo Rollouts v1.9.1 refuses/)]);
    expect(check('sum(rate(x{cluster="{cluster}"}[5m]')).toEqual([expect.stringMatching(/query does not parse as PromQL \(it ends too early\) \(Prometheus v3.5's PromQL grammar and types\)/)]);
    expect(check('sum(rate(x[5m])) by (le')).toEqual([expect.stringMatching(/query does not parse as PromQL/)]);
    expect(check('sum(rate(x[5m])) / / 2')).toEqual([expect.stringMatching(/query does not parse as PromQL from "\/ 2" on/)]);
    expect(check('sum(rate(x{cluster="{cluster}",ns="{{args.stage}}"}[5m])) > 0')).toEqual([]);
    expect(check('vector(scalar(up))')).toEqual([]);
  });

  test('fails if noData or nan is not a MetricOutcome', () => {
    expect(problemsOf(Verification.prometheus({ name: 'p', address: 'http://p:9090', query: 'up', threshold: 1, comparison: Comparison.EQUAL, noData: 'pass' as any }))).toEqual([
      'verification "p": prometheus noData must be a MetricOutcome, got "pass"; use MetricOutcome.SUCCESSFUL, FAILED or INCONCLUSIVE',
    ]);
  });

  test.each([
    [HostLanguage.TYPESCRIPT, 'a threshold with a comparison or a successCondition', 'threshold: 0.01, comparison: Comparison.LESS_THAN'],
    [HostLanguage.PYTHON, 'a threshold with a comparison or a success_condition', 'threshold: 0.01, comparison: Comparison.LESS_THAN'],
    [HostLanguage.JAVA, 'a threshold with a comparison or a successCondition', 'threshold: 0.01, comparison: Comparison.LESS_THAN'],
    [HostLanguage.GO, 'a Threshold with a Comparison or a SuccessCondition', 'Threshold: jsii.Number(0.01), Comparison: Comparison_LESS_THAN'],
    [HostLanguage.DOTNET, 'a Threshold with a Comparison or a SuccessCondition', 'Threshold: 0.01, Comparison: Comparison.LESS_THAN'],
  ])('fails if a query has no pass condition, naming the options in %s', (language, needs, example) => {
    const check = HostLanguage.using(language, () => Verification.prometheus({ name: 'errors', address: 'http://prometheus:9090', query: 'up' }));
    expect(check._problems).toEqual([`prometheus check needs ${needs}, got nothing; e.g. ${example} (passes when result[0] < 0.01)`]);
  });
});

describe('Verification.prometheus: problems', () => {
  test('fails if a Prometheus check has neither a threshold nor a condition', () => {
    expect(problemsOf(Verification.prometheus({ name: 'p', address: 'http://p:9090', query: 'up' }))).toEqual([
      'verification "p": prometheus check needs a threshold with a comparison or a successCondition, got nothing; '
      + 'e.g. threshold: 0.01, comparison: Comparison.LESS_THAN (passes when result[0] < 0.01)',
    ]);
  });

  test('fails if a Prometheus threshold has no comparison, or is combined with a condition', () => {
    expect(problemsOf(Verification.prometheus({ name: 'p', address: 'http://p:9090', query: 'up', threshold: 1 }))).toEqual([
      'verification "p": prometheus threshold 1 needs a comparison, got nothing; e.g. comparison: Comparison.LESS_THAN',
    ]);
    expect(problemsOf(Verification.prometheus({ name: 'p', address: 'http://p:9090', query: 'up', threshold: 1, comparison: Comparison.EQUAL, successCondition: 'result[0] == 1' }))).toEqual([
      'verification "p": prometheus check takes either a successCondition or a threshold with a comparison, not both, got {"successCondition":"result[0] == 1","threshold":1}; keep one',
    ]);
    expect(problemsOf(Verification.prometheus({ name: 'p', address: 'http://p:9090', query: 'up', threshold: NaN, comparison: Comparison.EQUAL }))).toEqual([
      'verification "p": prometheus threshold must be a finite number, got NaN; give it with the comparison',
    ]);
  });

  test('fails if a Prometheus query is empty or the address is not a URL', () => {
    expect(problemsOf(Verification.prometheus({ name: 'p', address: 'prometheus:9090', query: ' ', successCondition: 'true' }))).toEqual([
      'verification "p": prometheus address must be an http:// or https:// URL, got "prometheus:9090"',
      'verification "p": prometheus query must not be empty, got " "; give a PromQL query, e.g. sum(rate(http_requests_total{cluster="{cluster}",code=~"5.."}[5m]))',
    ]);
  });
});
