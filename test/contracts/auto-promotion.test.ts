import { describe, expect, test } from 'vitest';
import { autoPromotedStages, autoPromotionPolicies } from '../../src/contracts/auto-promotion';

describe('auto-promotion', () => {
  test('what the emitter writes reads back as the same Kargo Stages', () => {
    const stages = ['dev', 'staging-w1', 'staging-w2'];
    expect([...autoPromotedStages({ promotionPolicies: autoPromotionPolicies(stages) })]).toEqual(stages);
    expect(autoPromotionPolicies([])).toBeUndefined();
    expect(autoPromotedStages({ promotionPolicies: autoPromotionPolicies([]) }).size).toBe(0);
  });

  test('reads as Kargo does: the first policy matching a Stage decides, and a policy without stageSelector names it in stage', () => {
    const spec = {
      promotionPolicies: [
        { stageSelector: { name: 'prod' }, autoPromotionEnabled: false },
        { stageSelector: { name: 'prod' }, autoPromotionEnabled: true },
        { stage: 'legacy', autoPromotionEnabled: true },
        // stageSelector wins over the deprecated field
        { stageSelector: { name: 'qa' }, stage: 'ignored', autoPromotionEnabled: true },
        // not read: it needs the Stage's labels
        { stageSelector: { name: 'labelled', labelSelector: { matchLabels: { tier: 'dev' } } }, autoPromotionEnabled: true },
        { stageSelector: { name: '' }, autoPromotionEnabled: true },
      ],
    };
    expect([...autoPromotedStages(spec)].sort()).toEqual(['legacy', 'qa']);
    expect(autoPromotedStages(undefined).size).toBe(0);
  });
});
