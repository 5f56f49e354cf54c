import { describe, expect, test } from 'vitest';
import { linesOf, projectConfig, stage } from '../support/testkit-objects';

describe('ManifestValidator', () => {
  describe('kargo and argo cd rules', () => {
    test('fails if a projectconfig name differs from its namespace', () => {
      expect(linesOf(projectConfig({}, 'other'))).toEqual(['/metadata/name: projectconfig name "other" must equal its namespace (the project) "demo"']);
    });

    test('fails if two promotion policies name the same stage', () => {
      const pc = projectConfig({ promotionPolicies: [{ stageSelector: { name: 'test' } }, { stage: 'test', autoPromotionEnabled: true }] });
      expect(linesOf(pc)).toEqual(['/spec/promotionPolicies/1/stage: stage "test" already has a promotion policy at /spec/promotionPolicies/0']);
    });

    test('fails if a stage requests one origin twice or misuses MatchUpstream', () => {
      const s = stage({
        requestedFreight: [
          { origin: { kind: 'Warehouse', name: 'demo' }, sources: { direct: true, autoPromotionOptions: { selectionPolicy: 'MatchUpstream' } } },
          { origin: { kind: 'Warehouse', name: 'demo' }, sources: { stages: ['dev'] } },
        ],
      });
      expect(linesOf(s)).toEqual([
        '/spec/requestedFreight/0/sources/autoPromotionOptions/selectionPolicy: selectionPolicy MatchUpstream needs exactly one upstream stage and no direct source, got stages [] and direct: true',
        '/spec/requestedFreight/1/origin: origin Warehouse/demo is already requested at /spec/requestedFreight/0',
      ]);
    });

  });
});
