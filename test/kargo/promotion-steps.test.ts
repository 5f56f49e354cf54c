import { Duration } from 'cdk8s';
import { describe, expect, test } from 'vitest';
import { Approval, Artifact, ClusterSelector, PromotionPipeline, Tier, Versioning, Waves } from '../../src';
import { define } from '../support/define-app';
import { find, ofKind } from '../support/fixtures';

describe('recovery', () => {
  test('every version a promotion renders comes from the Freight, so promoting older Freight renders the older release', () => {
    const { objects } = define(() => ({ artifacts: [Artifact.image('ghcr.io/acme/api', { versioning: Versioning.semver('^1.0.0') })] }));
    const render = JSON.stringify(find(objects, 'PromotionTask', 'render-cluster'));
    expect(render).toContain('imageFrom(\'ghcr.io/acme/api\').Tag');
    for (const stage of ofKind(objects, 'Stage')) {
      const s = stage.spec.promotionTemplate.spec.steps;
      // the source is checked out at the Freight's commit, never at a branch head
      expect(s[0].config.checkout[0]).toEqual({ commit: '${{ quote(commitFrom(\'https://github.com/acme/api.git\').ID) }}', path: './src' });
      // the release branch is cleared before rendering: each commit is the complete state, so a rollback removes what the newer release added
      const clear = s.findIndex((x: any) => x.uses === 'git-clear');
      const firstRender = s.findIndex((x: any) => x.task);
      expect(clear).toBeGreaterThan(-1);
      expect(clear).toBeLessThan(firstRender);
    }
  });

  test('soak times apply between waves and stages, but a person may promote older Freight at once', () => {
    const { objects } = define(w => ({
      pipeline: new PromotionPipeline(w.app, 'soaked', {
        stages: [
          { name: 'dev', clusters: ClusterSelector.tier(Tier.DEV), approval: Approval.automatic() },
          { name: 'prod', clusters: ClusterSelector.tier(Tier.PROD), waves: Waves.byLabel('ring', ['canary', 'broad']), soak: Duration.hours(2) },
        ],
      }),
    }));
    // waited in the verification of the Stage before each wave (Kargo's requiredSoakTime is never written)
    for (const [stage, upstream] of [['prod-canary', 'dev'], ['prod-broad', 'prod-canary']]) {
      expect(find(objects, 'Stage', stage).spec.requestedFreight[0].sources.requiredSoakTime).toBeUndefined();
      expect(find(objects, 'Stage', stage).metadata.annotations['gitops-platform.io/soak']).toBe('2h');
      expect(find(objects, 'AnalysisTemplate', `${upstream}-verification`).spec.metrics.find((m: any) => m.name === 'soak').initialDelay).toBe('2h');
    }
    // the canary's checks are the soak only: it has none of its own
    expect(find(objects, 'Stage', 'prod-canary').spec.verification.analysisTemplates).toEqual([{ kind: 'AnalysisTemplate', name: 'prod-canary-verification' }]);
    expect(find(objects, 'AnalysisTemplate', 'prod-canary-verification').spec.metrics.map((m: any) => m.name)).toEqual(['soak']);
    // manual stages are not in the ProjectConfig: Kargo never promotes them by itself
    expect(find(objects, 'ProjectConfig', 'api').spec.promotionPolicies.map((p: any) => p.stageSelector.name)).toEqual(['dev']);
  });
});
