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
    }))).toThrow(/stage "dev" verification: verification name is the name of the metric that waits the soak of 2h in Stage "dev", got "soak"; rename the check/);
  });
});
