import { describe, expect, test } from 'vitest';
import { activeOccurrence, globMatches, wallClock, windowApplies } from '../../src/cli/sync-windows';

describe('wallClock', () => {
  test('the fields a cron schedule sees of an instant, in the window\'s time zone, across a DST change', () => {
    expect(wallClock(new Date('2026-12-06T01:30:00Z'))).toEqual({ minute: 30, hour: 1, dayOfMonth: 6, month: 12, dayOfWeek: 0 });
    expect(wallClock(new Date('2026-03-29T00:59:00Z'), 'Europe/Berlin')).toMatchObject({ hour: 1, minute: 59 });
    expect(wallClock(new Date('2026-03-29T01:00:00Z'), 'Europe/Berlin')).toMatchObject({ hour: 3, minute: 0 });
    expect(wallClock(new Date('2026-12-31T23:30:00Z'), 'Asia/Tokyo')).toEqual({ minute: 30, hour: 8, dayOfMonth: 1, month: 1, dayOfWeek: 5 });
  });
});

describe('activeOccurrence', () => {
  const freeze = { kind: 'deny', schedule: '0 18 * * fri', duration: '63h', applications: ['*'] };

  test('a schedule that never fires is active for ever, as in Argo CD', () => {
    expect(activeOccurrence({ kind: 'deny', schedule: '0 0 30 2 *', duration: '1h' }, new Date('2026-12-01T00:00:00Z'))?.start)
      .toEqual(new Date('0001-01-01T00:00:00Z'));
  });

  test('active from the scheduled minute for the duration', () => {
    expect(activeOccurrence(freeze, new Date('2026-12-04T17:59:00Z'))).toBeUndefined();
    expect(activeOccurrence(freeze, new Date('2026-12-04T18:00:00Z'))).toEqual({
      start: new Date('2026-12-04T18:00:00Z'), end: new Date('2026-12-07T09:00:00Z'),
    });
    expect(activeOccurrence(freeze, new Date('2026-12-06T12:00:00Z'))?.start).toEqual(new Date('2026-12-04T18:00:00Z'));
    expect(activeOccurrence(freeze, new Date('2026-12-07T09:00:00Z'))).toBeUndefined();
  });

  test('schedules run in the window time zone', () => {
    const berlin = { ...freeze, schedule: '0 18 * * *', duration: '1h', timeZone: 'Europe/Berlin' };
    // 18:00 in Berlin is 17:00 UTC in winter
    expect(activeOccurrence(berlin, new Date('2026-12-01T17:30:00Z'))).toBeDefined();
    expect(activeOccurrence(berlin, new Date('2026-12-01T18:30:00Z'))).toBeUndefined();
    expect(() => activeOccurrence({ ...berlin, timeZone: 'Mars/Olympus' }, new Date())).toThrow(/Mars\/Olympus/);
  });
});

describe('windowApplies', () => {
  const target = { application: 'api-prod-1', namespace: 'api', clusters: ['prod-1', 'https://prod-1.example.com'] };

  test('any list matches, all with andOperator', () => {
    expect(globMatches('api-*', 'api-prod-1')).toBe(true);
    expect(globMatches('api-?', 'api-10')).toBe(false);
    expect(globMatches('a.b', 'axb')).toBe(false);
    expect(windowApplies({ applications: ['other'], clusters: ['prod-*'] }, target)).toBe(true);
    expect(windowApplies({ applications: ['other'], clusters: ['prod-*'], andOperator: true }, target)).toBe(false);
    expect(windowApplies({ namespaces: ['api'], clusters: ['https://prod-1.*'], andOperator: true }, target)).toBe(true);
    expect(windowApplies({}, target)).toBe(false);
  });
});
