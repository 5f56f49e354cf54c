import { describe, expect, test } from 'vitest';
import { evaluateResult } from '../../src/testkit/model/rollouts-metric-outcomes';
import { Verification } from '../../src/verification';
import { METRIC_OUTCOMES_ANNOTATION } from '../../src/verification/metric-outcome';
import { render } from '../support/verification-fixtures';

describe('metric outcomes', () => {
  test('a successCondition is evaluated only on a number, Inconclusive otherwise by default; every metric of the template is annotated', () => {
    const check = Verification.prometheus({ name: 'gpu', address: 'http://p:9090', query: 'avg(util{cluster="{cluster}"})', successCondition: 'result[0] >= 10 || result[0] == 0' });
    const [template] = render([check]).templates;
    const metric = template.spec.metrics[0];
    expect(metric.successCondition).toBe('len(result) > 0 && !isNaN(result[0]) && (result[0] >= 10 || result[0] == 0)');
    expect(metric.failureCondition).toBe('len(result) > 0 && !isNaN(result[0]) && !((result[0] >= 10 || result[0] == 0))');
    expect([[], [NaN], [0], [5]].map(r => evaluateResult(metric, r).phase)).toEqual(['Inconclusive', 'Inconclusive', 'Successful', 'Failed']);
    const annotated = JSON.parse(template.annotations![METRIC_OUTCOMES_ANNOTATION]);
    expect(Object.keys(annotated)).toEqual(template.spec.metrics.map((m: any) => m.name).sort());
    expect(Object.values(annotated).every(o => JSON.stringify(o) === '{"noData":"Inconclusive","nan":"Inconclusive"}')).toBe(true);
  });

  test('a template without Prometheus metrics carries no outcomes annotation, only the checks it holds', () => {
    expect(render([Verification.http({ url: 'https://x.{cluster}.example.com' })]).templates[0].annotations).toEqual({ 'gitops-platform.io/checks': 'http' });
  });
});
