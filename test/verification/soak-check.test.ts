import { Duration } from 'cdk8s';
import { describe, expect, test } from 'vitest';
import { Approval, ClusterSelector, PromotionPipeline, Tier, Verification } from '../../src';
import { define } from '../support/define-app';

describe('soak checks', () => {
  test('fails if a check is named like the soak metric of a Stage that waits a soak', () => {
    expect(() => define(w => ({
      pipeline: new PromotionPipeline(w.app, 'soaked', {
        stages: [
          { name: 'dev', clusters: ClusterSelector.tier(Tier.DEV), approval: Approval.automatic() },
          { name: 'prod', clusters: ClusterSelector.tier(Tier.PROD), soak: Duration.hours(2) },
        ],
      }),
      stageVerification: { dev: [Verification.http({ name: 'soak', url: 'https://{cluster}.example.com/healthz' })] },
    }))).toThrow(/stageVerification\["dev"\]: verification "soak": http check name is reserved for the metric that waits a soak \(a dry-run metric: a check of that name would not gate\), got "soak"/);
  });

  test('soak is reserved with or without a soak, and the dry-run rules are anchored: a check named soak-probe still gates', () => {
    expect(() => define(() => ({ verification: [Verification.http({ name: 'soak', url: 'https://{cluster}.example.com/healthz' })] })))
      .toThrow(/verification: verification "soak": http check name is reserved for the metric that waits a soak/);
    const { objects } = define(w => ({
      pipeline: new PromotionPipeline(w.app, 'soaked', {
        stages: [
          { name: 'dev', clusters: ClusterSelector.tier(Tier.DEV), approval: Approval.automatic() },
          { name: 'prod', clusters: ClusterSelector.tier(Tier.PROD), soak: Duration.hours(2) },
        ],
      }),
      stageVerification: { dev: [Verification.http({ name: 'soak-probe', url: 'https://{cluster}.example.com/healthz' })] },
    }));
    const template = objects.find((o: any) => o.kind === 'AnalysisTemplate' && o.spec.dryRun);
    // Rollouts v1.9.1 utils/analysis/helpers.go GetDryRunMetrics: regexp.MatchString(rule, metric.Name) for every rule and metric
    const dryRun = (name: string) => template.spec.dryRun.some((r: any) => new RegExp(r.metricName).test(name));
    const names: string[] = template.spec.metrics.map((m: any) => m.name);
    expect(names.filter(n => n.startsWith('soak-probe'))).not.toEqual([]);
    expect(names.filter(dryRun)).toEqual(['soak']);
  });
});
