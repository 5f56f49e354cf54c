import { describe, expect, test } from 'vitest';
import { expectClean, linesOf, projectConfig, stageWithSteps } from '../support/testkit-objects';

describe("evaluateCelRules: the CRDs' x-kubernetes-validations", () => {
  test('reports a cel rule: a stage step with both uses and task', () => {
    const s = stageWithSteps([{ uses: 'git-clear', task: { name: 'promote' }, config: { path: './out' } }]);
    expect(linesOf(s)).toContain('/spec/promotionTemplate/spec/steps/0: PromotionTemplate step must have exactly one of uses or task set');
  });

  test('reports a cel rule: a task step with retry', () => {
    const s = stageWithSteps([{ task: { name: 'promote' }, retry: { timeout: '10m' } }]);
    expect(linesOf(s)).toEqual(['/spec/promotionTemplate/spec/steps/0: PromotionTemplate step referencing a task cannot set retry']);
  });

  test('reports a cel rule: a promotion policy with both stage and stageSelector', () => {
    const pc = projectConfig({ promotionPolicies: [{ stage: 'test', stageSelector: { name: 'test' }, autoPromotionEnabled: true }] });
    expect(linesOf(pc)).toEqual(['/spec/promotionPolicies/0: PromotionPolicy must have exactly one of stage or stageSelector set']);
    expectClean(projectConfig({ promotionPolicies: [{ stageSelector: { name: 'test' }, autoPromotionEnabled: true }] }));
  });

  test('reports a cel rule on list items: autoRollback.onPromotion values', () => {
    const pc = projectConfig({ promotionPolicies: [{ stageSelector: { name: 'prod' }, autoRollback: { onPromotion: ['Failed', 'Broken'] } }] });
    expect(linesOf(pc)).toEqual(['/spec/promotionPolicies/0/autoRollback/onPromotion: onPromotion[1] must be Failed or Errored']);
  });
});
