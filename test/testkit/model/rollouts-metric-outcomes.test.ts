import { describe, expect, test } from 'vitest';
import { simulateControllers } from '../../../src/testkit';
import { lines, only } from '../../support/controller-model';
import { NS } from '../../support/testkit-model-fixtures';

describe('controller model: Prometheus metrics on no data and NaN', () => {
  const template = (metric: Record<string, unknown>, outcomes?: Record<string, unknown>) => ({
    apiVersion: 'argoproj.io/v1alpha1',
    kind: 'AnalysisTemplate',
    metadata: { name: 'errors', namespace: NS, ...outcomes ? { annotations: { 'gitops-platform.io/metric-outcomes': JSON.stringify(outcomes) } } : {} },
    spec: { metrics: [{ name: 'errors-east', ...metric, provider: { prometheus: { address: 'http://p:9090', query: 'sum(rate(errors[5m]))' } } }] },
  });

  test('fails if the condition indexes result[0] unguarded (today\'s threshold shape): an empty answer errors the measurement', () => {
    expect(only(simulateControllers([template({ successCondition: 'result[0] < 0.05' })]), 'metric-error-on-no-data')).toEqual([
      'metric-error-on-no-data AnalysisTemplate/errors /spec/metrics/0/successCondition: prometheus metric "errors-east": successCondition "result[0] < 0.05" '
      + 'fails on an answer without series (index out of range: 0 (array length is 0)), so the measurement is Error and the AnalysisRun errors, failing verification, '
      + 'whenever "sum(rate(errors[5m]))" returns nothing; guard it with len(result) == 0 || …',
    ]);
  });

  test.each([
    ['len(result) == 0 || isNaN(result[0]) || result[0] < 0.05', undefined, 'Successful', 'Successful'],
    ['len(result) == 0 || (!isNaN(result[0]) && result[0] < 0.05)', undefined, 'Successful', 'Failed'],
    ['len(result) > 0 && !isNaN(result[0]) && result[0] > 0.99', 'len(result) > 0 && !isNaN(result[0]) && !(result[0] > 0.99)', 'Inconclusive', 'Inconclusive'],
    ['len(result) > 0 && (isNaN(result[0]) || result[0] == 1)', undefined, 'Failed', 'Successful'],
  ])('%s / %s: no data %s, NaN %s', (successCondition, failureCondition, noData, nan) => {
    const metric = { successCondition, failureCondition };
    expect(lines(simulateControllers([template(metric, { 'errors-east': { noData, nan } })]))).toEqual([]);
    const wrong = { noData: noData === 'Failed' ? 'Successful' : 'Failed', nan };
    expect(only(simulateControllers([template(metric, { 'errors-east': wrong })]), 'metric-outcome-mismatch')).toEqual([
      `metric-outcome-mismatch AnalysisTemplate/errors /spec/metrics/0: prometheus metric "errors-east" is annotated noData "${wrong.noData}", but its conditions make an answer without series ${noData}`,
    ]);
  });

  test('NaN compares like a Go float64: NaN != t holds, NaN == NaN does not', () => {
    expect(lines(simulateControllers([template({ successCondition: 'len(result) > 0 && result[0] != 1' }, { 'errors-east': { noData: 'Failed', nan: 'Successful' } })]))).toEqual([]);
    expect(lines(simulateControllers([template({ successCondition: 'len(result) > 0 && result[0] == result[0]' }, { 'errors-east': { noData: 'Failed', nan: 'Failed' } })]))).toEqual([]);
  });
});
