import { describe, expect, test } from 'vitest';
import { changeRules, checkChange, FREEZE_OVERRIDE_ANNOTATION, maxProductionWaveGrowth, noProductionChangeDuringFreeze } from '../../src/cli/change-rules';
import { diffTrees } from '../../src/cli/release-diff';
import { API, AppSpec, prod, range, tree, withProdWaves } from '../support/cli-fixtures';

describe('change rules', () => {
  const now = { now: new Date('2026-12-05T12:00:00Z') }; // a Saturday
  const grow = (n: number): AppSpec => withProdWaves(prod(1), prod(2, 3), prod(...range(4, 7 + n)));
  /** The objects and models of the change from `before` to `after` (app `api` only). */
  const changeOf = (before: AppSpec, after: AppSpec) => diffTrees(tree({ api: before }), tree({ api: after }));

  test('max-production-wave-growth', () => {
    const change = diffTrees(tree({ api: API }), tree({ api: grow(6) }));
    expect(checkChange(change, [maxProductionWaveGrowth()], now)).toEqual([{
      ruleId: 'max-production-wave-growth',
      app: 'api',
      message: 'api: production wave prod-w3 grows by 6 cluster(s) (prod-10, prod-11, prod-12, prod-13, prod-8, prod-9), more than 5',
      fix: 'add at most 5 cluster(s) to prod-w3 per change (split the change, or add a wave), or raise maxClusters in the config',
    }]);
    expect(checkChange(diffTrees(tree({ api: API }), tree({ api: grow(5) })), [maxProductionWaveGrowth()], now)).toEqual([]);
    expect(checkChange(change, [maxProductionWaveGrowth({ maxClusters: 6 })], now)).toEqual([]);
    // a new app is exempt
    expect(checkChange(diffTrees(tree({}), tree({ api: grow(10) })), [maxProductionWaveGrowth()], now)).toEqual([]);
    expect(() => maxProductionWaveGrowth({ maxClusters: -1 })).toThrow(/got -1/);
  });

  describe('no-production-change-during-freeze', () => {
    const weekend = { kind: 'deny', schedule: '0 18 * * fri', duration: '63h', clusters: ['prod-*'] };
    const rule = [noProductionChangeDuringFreeze()];

    test('a production change during an active deny window breaks the rule', () => {
      const before = { ...API, syncWindows: [weekend] };
      const change = diffTrees(tree({ api: before }), tree({ api: { ...grow(1), syncWindows: [weekend] } }));
      const [v] = checkChange(change, rule, now);
      expect(v.ruleId).toBe('no-production-change-during-freeze');
      expect(v.message).toBe('api: changes production (0 added, 1 changed, 0 removed object(s)) during the freeze "0 18 * * fri" for 63h, active from 2026-12-04T18:00:00.000Z to 2026-12-07T09:00:00.000Z for Application api-prod-1');
      expect(v.fix).toBe(`merge after 2026-12-07T09:00:00.000Z, or give the PlatformApp freezeOverride: FreezeOverride.of({ by, reason }), which writes the ${FREEZE_OVERRIDE_ANNOTATION} annotation`);
      // outside the window, with an override, for a window of other clusters, or removing the window: see below
      expect(checkChange(change, rule, { now: new Date('2026-12-07T09:00:00Z') })).toEqual([]);
      const overridden = diffTrees(tree({ api: before }), tree({ api: { ...grow(1), syncWindows: [weekend], projectAnnotations: { [FREEZE_OVERRIDE_ANNOTATION]: 'CHG-42, approved by the release board' } } }));
      expect(checkChange(overridden, rule, now)).toEqual([]);
      const elsewhere = { ...weekend, clusters: ['eu-*'] };
      expect(checkChange(changeOf({ ...API, syncWindows: [elsewhere] }, { ...grow(1), syncWindows: [elsewhere] }), rule, now)).toEqual([]);
      // removing the freeze in the same change does not lift it
      expect(checkChange(diffTrees(tree({ api: before }), tree({ api: grow(1) })), rule, now)).toHaveLength(1);
    });

    test('changes outside production and allow windows pass', () => {
      const devOnly: AppSpec = { ...API, syncWindows: [weekend], stages: [{ ...API.stages[0], soak: '5m', waves: [['dev-1']], auto: false }, API.stages[1]] };
      expect(checkChange(diffTrees(tree({ api: { ...API, syncWindows: [weekend] } }), tree({ api: devOnly })), rule, now)).toEqual([]);
      const allow = { ...weekend, kind: 'allow' };
      expect(checkChange(changeOf({ ...API, syncWindows: [allow] }, { ...grow(1), syncWindows: [allow] }), rule, now)).toEqual([]);
    });

    test('an invalid window is reported, not thrown', () => {
      const bad = { ...weekend, schedule: '0 18 * *' };
      const [v] = checkChange(diffTrees(tree({ api: { ...API, syncWindows: [bad] } }), tree({ api: { ...grow(1), syncWindows: [bad] } })), rule, now);
      expect(v.message).toMatch(/cannot be evaluated: cron schedule is refused by Argo CD v3.5.1.s cron parser \(robfig\/cron\): expected exactly 5 fields, found 4: \[0 18 \* \*\], got "0 18 \* \*"/);
    });
  });

  test('configuration: defaults, options, turning rules off, unknown ids', () => {
    expect(changeRules().map((r) => r.id)).toEqual(['max-production-wave-growth', 'no-production-change-during-freeze']);
    expect(changeRules({ 'max-production-wave-growth': false }).map((r) => r.id)).toEqual(['no-production-change-during-freeze']);
    expect(changeRules({ 'max-production-wave-growth': { maxClusters: 2 } })[0].description).toBe('a change may add at most 2 cluster(s) to one production wave');
    expect(() => changeRules({ 'no-such-rule': true })).toThrow('change rule is not known, got "no-such-rule"; use one of');
  });
});
