import { describe, expect, test } from 'vitest';
import { expectClean, linesOf, project, projectConfig, stage, stageWithSteps } from '../support/testkit-objects';

describe('ManifestValidator', () => {
  describe('crd structure', () => {
    test('fails if a stage has a field the crd does not declare', () => {
      expect(linesOf(stage({ autoPromotionEnabled: true }))).toEqual(['/spec/autoPromotionEnabled: unknown field "autoPromotionEnabled"']);
    });

    test('fails if a project has a spec (removed in kargo v1.7)', () => {
      expect(linesOf(project({ spec: { promotionPolicies: [] } }))).toEqual(['/spec: unknown field "spec"']);
    });

    test('fails if requestedFreight is missing', () => {
      const s = stage();
      delete s.spec.requestedFreight;
      expect(linesOf(s)).toEqual(['/spec/requestedFreight: missing required field "requestedFreight"']);
    });

    test('fails if an enum value is not allowed', () => {
      const s = stage({ requestedFreight: [{ origin: { kind: 'Warehouse', name: 'demo' }, sources: { stages: ['dev'], availabilityStrategy: 'Sometimes' } }] });
      expect(linesOf(s)).toEqual(['/spec/requestedFreight/0/sources/availabilityStrategy: "Sometimes" is not one of "All", "OneOf", ""']);
    });

    test('fails if requiredSoakTime does not match the duration pattern', () => {
      const s = stage({ requestedFreight: [{ origin: { kind: 'Warehouse', name: 'demo' }, sources: { stages: ['dev'], requiredSoakTime: '1 hour' } }] });
      expect(linesOf(s)).toEqual(['/spec/requestedFreight/0/sources/requiredSoakTime: "1 hour" does not match pattern ^([0-9]+(\\.[0-9]+)?(s|m|h))+$']);
      const ok = stage({ requestedFreight: [{ origin: { kind: 'Warehouse', name: 'demo' }, sources: { stages: ['dev'], requiredSoakTime: '1h30m' } }] });
      expectClean(ok);
    });

    test('fails if an int-or-string or typed field has the wrong type', () => {
      const s = stageWithSteps([{ uses: 'git-clear', config: { path: './out' }, retry: { errorThreshold: 'three' } }]);
      expect(linesOf(s)).toEqual(['/spec/promotionTemplate/spec/steps/0/retry/errorThreshold: "three" must be integer']);
    });

    test('fails if an object carries status', () => {
      expect(linesOf(project({ status: { conditions: [] } }))).toEqual(['/status: status must not be set in a manifest (controllers write it)']);
    });

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
});
