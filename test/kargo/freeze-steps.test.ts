import { Duration, Testing } from 'cdk8s';
import { describe, expect, test } from 'vitest';
import { DeployFreeze, FreezeOverride, FreezeSchedule, PlatformApp } from '../../src';
import { activeOccurrence } from '../../src/cli/sync-windows';
import { freezeCondition } from '../../src/kargo/freeze-steps';
import { ManifestValidator } from '../../src/testkit';
import { modelApplications } from '../../src/testkit/model/argocd-applications';
import { evaluateExpression } from '../../src/testkit/model/expr';
import { GoTime } from '../../src/testkit/model/expr-time';
import { SimulatedFreight } from '../../src/testkit/model/freight';
import { GitWorld, WorkDir } from '../../src/testkit/model/git-world';
import { inflateSteps, runPromotion } from '../../src/testkit/model/promotion-runner';
import { goProblem } from '../../src/util/go-parsers';
import { appProps, find, SMALL_FLEET, world } from '../support/fixtures';

const RELEASES = 'https://github.com/acme/releases.git';

/** The api app on the small fleet with one freeze, and a promotion into one of its Stages at a time. */
function frozenApp(freeze: DeployFreeze, overrides: Parameters<typeof appProps>[1] = {}) {
  const w = world(SMALL_FLEET, { freezes: [freeze] });
  const app = new PlatformApp(w.app, 'api', appProps(w, overrides));
  const objects = [...Testing.synth(app), ...w.app.charts.filter(c => c !== app).flatMap(c => c.toJson())];
  const tasks = new Map(objects.filter(o => o.kind === 'PromotionTask').map(o => [`PromotionTask/${o.metadata.name}`, o]));
  const warehouse = objects.find(o => o.kind === 'Warehouse');
  const gitWorld = new GitWorld();
  const promote = (stageName: string, now: Date, actor = '') => {
    const stage = find(objects, 'Stage', stageName);
    const env = {
      world: gitWorld,
      workDir: new WorkDir(),
      project: 'api',
      stage: stageName,
      promotion: `${stageName}.${now.toISOString()}`,
      chartDependencies: 'any' as const,
      applications: modelApplications(objects),
      reviewer: 'merge' as const,
      synced: [],
      now,
      actor,
    };
    const result = runPromotion({ stage, steps: inflateSteps(stage, tasks), freight: SimulatedFreight.of(warehouse, 1), env });
    return { result, env, failed: result.steps.filter(s => s.status === 'Failed' || s.status === 'Errored').map(s => `${s.step.alias}: ${s.error}`) };
  };
  const branch = (stageName: string) => gitWorld.remote(RELEASES).head(`rendered/api/${stageName}`);
  return { objects, promote, branch };
}

const yearEnd = new DeployFreeze({
  reason: 'year-end freeze',
  schedule: FreezeSchedule.cron('0 0 20 12 *', Duration.days(14)),
  timeZone: 'Europe/Berlin',
  stages: ['prod'],
});

describe('a freeze stops Kargo before it pushes', () => {
  test('during the freeze the promotion fails at its first step with the reason, and the release branch is untouched', () => {
    const { objects, promote, branch } = frozenApp(yearEnd);
    const steps = find(objects, 'Stage', 'prod-canary').spec.promotionTemplate.spec.steps;
    expect(steps[0]).toMatchObject({ uses: 'fail', as: 'freeze-1', config: { message: expect.stringContaining('year-end freeze') } });
    expect(find(objects, 'Stage', 'dev').spec.promotionTemplate.spec.steps[0].uses).not.toBe('fail');
    // Dec 24, noon in Berlin: inside the window (Dec 20 00:00 to Jan 3 00:00, Berlin)
    const during = promote('prod-canary', new Date('2026-12-24T11:00:00Z'));
    expect(during.result.phase).toBe('Failed');
    expect(during.failed).toEqual([
      'freeze-1: failed: deploy freeze of stage prod: year-end freeze; its window "0 0 20 12 *" for 336h (Europe/Berlin) is open or opens within 30m, so nothing was pushed: promote this Freight again once it has ended',
    ]);
    expect(during.result.steps.filter(s => s.status === 'Succeeded')).toEqual([]);
    expect(branch('prod-canary')).toBeUndefined();
    expect(during.env.synced).toEqual([]);
    // Jan 3, 00:00 Berlin (23:00 UTC): the window has closed, the same promotion goes through
    const after = promote('prod-canary', new Date('2027-01-02T23:00:00Z'));
    expect(after.failed).toEqual([]);
    expect(after.result.steps[0].status).toBe('Skipped');
    expect(branch('prod-canary')).toBeDefined();
    expect(after.env.synced.length).toBeGreaterThan(0);
    expect(ManifestValidator.load().validateObjects(objects)).toEqual([]);
  });

  test('a promotion that would meet the window within the sync timeout does not start either', () => {
    const { promote, branch } = frozenApp(yearEnd);
    // Dec 19, 23:45 Berlin: the window opens in 15 minutes, inside the 30m argocd-update timeout
    expect(promote('prod-canary', new Date('2026-12-19T22:45:00Z')).result.phase).toBe('Failed');
    expect(promote('prod-canary', new Date('2026-12-19T22:29:00Z')).failed).toEqual([]);
    expect(branch('prod-canary')).toBeDefined();
  });

  test('the Kargo check agrees with the Argo CD window model every 2 hours around a weekly freeze in a DST zone', () => {
    const weekly = new DeployFreeze({ reason: 'weekend', schedule: FreezeSchedule.cron('0 22 * * 5', Duration.hours(56)), timeZone: 'America/New_York' });
    const { objects } = frozenApp(weekly);
    const condition = find(objects, 'Stage', 'dev').spec.promotionTemplate.spec.steps[0].if.slice(4, -3);
    const window = { kind: 'deny', schedule: '0 22 * * 5', duration: '56h', timeZone: 'America/New_York' };
    const env = { ctx: { meta: { promotion: { actor: '' } } } };
    let open = 0;
    // across the end of daylight saving time (Nov 1, 2026)
    for (let t = Date.parse('2026-10-20T00:00:00Z'); t < Date.parse('2026-11-20T00:00:00Z'); t += 2 * 3_600_000) {
      const now = new Date(t);
      const soon = new Date(t + 30 * 60_000);
      const argoCd = activeOccurrence(window, now) !== undefined || activeOccurrence(window, soon) !== undefined;
      const kargo = evaluateExpression(condition, env, { now: (zone: any) => new GoTime(t, zone.name) });
      expect([now.toISOString(), kargo]).toEqual([now.toISOString(), argoCd]);
      if (kargo) open++;
    }
    // four weekends of 56h (Fri 22:00 to Mon 06:00) sampled at even UTC hours: 28 samples each,
    // and one more for the weekend of Oct 30, whose wall clock repeats 1:00-2:00 on Nov 1
    expect(open).toBe(4 * 28 + 1);
  });

  test('a freeze that lets people through stops only automatic promotions (ctx.meta.promotion.actor is empty)', () => {
    const { promote } = frozenApp(yearEnd, { freezeOverride: FreezeOverride.of({ by: 'alice@acme.example', reason: 'CVE-2026-1234 hotfix' }) });
    const christmas = new Date('2026-12-24T11:00:00Z');
    expect(promote('prod-canary', christmas).failed).toHaveLength(1);
    expect(promote('prod-canary', christmas, 'admin:alice@acme.example').failed).toEqual([]);
  });
});

describe('the freeze condition compiles as Kargo compiles a step if (expr-lang v1.17.8)', () => {
  test.each([
    ['0 0 20 12 *', 14 * 86_400, 'Europe/Berlin', false],
    ['*/15 9-17 * jan,dec mon-fri', 3_600, 'UTC', true],
    ['0 22 ? * 5', 56 * 3_600, 'America/New_York', false],
    ['30 2 1-7 * 0', 60, 'Asia/Kolkata', true],
    ['0 0 * * *', 400 * 86_400, 'Pacific/Chatham', false],
  ])('%s for %ss in %s (manual %s)', (schedule, durationSeconds, timeZone, manualSync) => {
    const freeze = { reason: 'r', schedule, duration: `${durationSeconds}s`, durationSeconds, timeZone, manualSync, origin: 'pipeline' };
    const condition = freezeCondition(freeze as any, 600);
    expect(goProblem('kargo-template', `\${{ ${condition} }}`, 'promotion')).toBeUndefined();
  });
});
