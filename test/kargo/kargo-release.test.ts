import { describe, expect, test } from 'vitest';
import { find, synthApp } from '../support/fixtures';

describe('defineKargoRelease', () => {
  test('the ProjectConfig enables auto-promotion exactly for the automatic stages', () => {
    const { objects } = synthApp();
    expect(find(objects, 'ProjectConfig', 'api').spec.promotionPolicies).toEqual([
      { stageSelector: { name: 'dev' }, autoPromotionEnabled: true },
      { stageSelector: { name: 'staging' }, autoPromotionEnabled: true },
    ]);
  });

  test('stages chain dev -> staging -> prod waves; the soak before each prod wave is waited in the verification before it', () => {
    const { objects } = synthApp();
    const stage = (name: string) => find(objects, 'Stage', name);
    const sources = (name: string) => stage(name).spec.requestedFreight[0].sources;
    expect(sources('dev')).toEqual({ direct: true });
    expect(sources('staging')).toEqual({ stages: ['dev'] });
    expect(sources('prod-canary')).toEqual({ stages: ['staging'] });
    expect(sources('prod-broad')).toEqual({ stages: ['prod-canary'] });
    expect(['dev', 'staging', 'prod-canary', 'prod-broad'].map(s => stage(s).metadata.annotations['gitops-platform.io/soak'])).toEqual([undefined, undefined, '30m', '30m']);
    expect(['dev', 'staging', 'prod-canary', 'prod-broad'].map(s => stage(s).spec.verification?.analysisTemplates))
      .toEqual([undefined, [{ kind: 'AnalysisTemplate', name: 'staging-verification' }], [{ kind: 'AnalysisTemplate', name: 'prod-canary-verification' }], undefined]);
    const soak = find(objects, 'AnalysisTemplate', 'staging-verification').spec;
    expect(soak.dryRun).toEqual([{ metricName: '^soak$' }]);
    expect(soak.metrics.map((m: any) => [m.name, m.initialDelay, m.count, m.provider.job.spec.template.spec.containers[0].command]))
      .toEqual([['soak', '30m', 1, ['node', '-e', '']]]);
  });
});
