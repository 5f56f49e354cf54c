import { describe, expect, test } from 'vitest';
import { expectClean, linesOf, project, stage, stageWithSteps } from '../support/testkit-objects';

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

  });
});
