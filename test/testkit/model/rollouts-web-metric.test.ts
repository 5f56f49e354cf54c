import { describe, expect, test } from 'vitest';
import { simulateControllers } from '../../../src/testkit';
import { lines, only } from '../../support/controller-model';
import { NS } from '../../support/testkit-model-fixtures';

describe('checkWebMetrics', () => {
  const webMetric = (name: string, url: string) => ({
    name,
    interval: '1m',
    count: 5,
    failureLimit: 1,
    consecutiveErrorLimit: 1,
    successCondition: "result == '1.2.0'",
    provider: { web: { method: 'GET', url, jsonPath: '{$.version}' } },
  });
  const guardOf = (metric: any, changes: Record<string, unknown> = {}, env: Record<string, string> = {}) => ({
    ...metric,
    successCondition: undefined,
    name: `${metric.name}-answers-json`,
    ...changes,
    provider: {
      job: {
        spec: {
          template: {
            spec: {
              containers: [{
                name: 'check',
                image: 'node:22-alpine',
                command: ['node', '-e', '...'],
                securityContext: { runAsNonRoot: true, allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] }, seccompProfile: { type: 'RuntimeDefault' } },
                env: Object.entries({ CHECK_URL: metric.provider.web.url, CHECK_METHOD: 'GET', ...env }).map(([name, value]) => ({ name, value })),
              }],
            },
          },
        },
      },
    },
  });
  const smoke = (metrics: any[]) => ({
    apiVersion: 'argoproj.io/v1alpha1', kind: 'AnalysisTemplate', metadata: { name: 'smoke', namespace: NS }, spec: { metrics },
  });
  const version = webMetric('version', 'https://shop/version');
  const unguarded = 'web-metric-non-json-passes AnalysisTemplate/smoke /spec/metrics/0/successCondition: web metric "version" checks successCondition "result == \'1.2.0\'", '
    + 'but an answer that is not JSON is counted Successful without evaluating it: a plain-text answer from "https://shop/version" always passes '
    + '(no job metric of the template makes the same request on the same schedule and fails on a non-JSON answer)';

  test.each([
    ['guards another url', guardOf(version, {}, { CHECK_URL: 'https://shop/ready' })],
    ['uses another method', guardOf(version, {}, { CHECK_METHOD: 'POST' })],
    ['measures on another interval', guardOf(version, { interval: '5m' })],
    ['measures fewer times', guardOf(version, { count: 1 })],
    ['is a web metric', { ...guardOf(version), provider: { web: { url: 'https://shop/version' } } }],
  ])('fails if the only candidate guard %s', (_, guard) => {
    expect(only(simulateControllers([smoke([version, guard])]), 'web-metric-non-json-passes')).toEqual([unguarded]);
  });

  test('fails if a web metric checks a condition (a non-JSON answer always passes) without a JSON guard', () => {
    const up = { name: 'up', successCondition: 'true', provider: { web: { url: 'https://shop/ready' } } };
    expect(only(simulateControllers([smoke([version, up])]), 'web-metric-non-json-passes')).toEqual([unguarded]);
  });

  test('accepts a web metric guarded by a job metric with the same request and schedule', () => {
    expect(lines(simulateControllers([smoke([version, guardOf(version)])]))).toEqual([]);
  });

  test('fails if the guard is in another template', () => {
    const other = { ...smoke([guardOf(version)]), metadata: { name: 'other', namespace: NS } };
    expect(only(simulateControllers([smoke([version]), other]), 'web-metric-non-json-passes')).toEqual([unguarded]);
  });
});
