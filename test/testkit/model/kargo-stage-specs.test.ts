import { describe, expect, test } from 'vitest';
import { goDurationSeconds, modelStages } from '../../../src/testkit/model/kargo-stage-specs';

const NS = 'shop';
const template = (name: string, metrics: any[]) => ({ kind: 'AnalysisTemplate', metadata: { name, namespace: NS }, spec: { metrics } });
const stage = (name: string, spec: any, annotations?: Record<string, string>) => ({ kind: 'Stage', metadata: { name, namespace: NS, annotations }, spec });

describe('modelStages', () => {
  test('a verification runs until its last metric completes: initialDelay + (count - 1) x interval; with an interval and no count, never', () => {
    const objects = [
      template('probe', [{ name: 'p', initialDelay: '2m', count: 3, interval: '5m' }, { name: 'q', count: 1 }]),
      template('endless', [{ name: 'e', interval: '5m' }]),
      stage('dev', { verification: { analysisTemplates: [{ name: 'probe' }] }, promotionTemplate: { spec: { steps: [{ uses: 'git-clone' }] } } }),
      stage('qa', { verification: { analysisTemplates: [{ name: 'endless' }] } }),
      stage('prod', { verification: { analysisTemplates: [{ name: 'installed-by-the-platform' }] } }),
    ];
    const seconds = modelStages(objects, { externalTemplateSeconds: 90 }).map(s => [s.name, s.verificationSeconds, s.controlFlow]);
    expect(seconds).toEqual([['dev', 12 * 60, false], ['qa', Infinity, true], ['prod', 90, true]]);
  });

  test('a Stage\'s requests, the soak it asks (requiredSoakTime or the library\'s annotation) and its auto-promotion policy', () => {
    const objects = [
      { kind: 'ProjectConfig', metadata: { name: NS, namespace: NS }, spec: { promotionPolicies: [{ stageSelector: { name: 'prod' }, autoPromotionEnabled: true }] } },
      stage('prod', { requestedFreight: [{ origin: { name: NS }, sources: { stages: ['a', 'b'], availabilityStrategy: 'All' } }] }, { 'gitops-platform.io/soak': '1h' }),
      stage('old', { requestedFreight: [{ origin: { name: NS }, sources: { direct: true, requiredSoakTime: '30m' } }] }),
    ];
    const [prod, old] = modelStages(objects);
    expect(prod).toMatchObject({ autoPromote: true, askedSoakSeconds: 3600, requests: [{ warehouse: NS, direct: false, stages: ['a', 'b'], strategy: 'All' }] });
    expect(old).toMatchObject({ autoPromote: false, askedSoakSeconds: 1800, requests: [{ direct: true, soakSeconds: 1800 }] });
    expect([goDurationSeconds('1h30m'), goDurationSeconds('1.5h'), goDurationSeconds('500ms')]).toEqual([5400, 5400, 0.5]);
  });
});
