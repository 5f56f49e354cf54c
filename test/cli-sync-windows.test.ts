import { describe, expect, test } from 'vitest';
import { activeOccurrence, CronSchedule, globMatches, parseGoDuration, wallClock, windowApplies } from '../src/cli/sync-windows';

const at = (iso: string) => wallClock(new Date(iso));

describe('CronSchedule', () => {
  test('fields, lists, ranges, steps and names', () => {
    const s = CronSchedule.parse('*/15 9-17 * jan,dec mon-fri');
    expect(s.matches(at('2026-12-01T09:30:00Z'))).toBe(true); // Tuesday
    expect(s.matches(at('2026-12-01T09:31:00Z'))).toBe(false);
    expect(s.matches(at('2026-12-01T18:00:00Z'))).toBe(false);
    expect(s.matches(at('2026-12-05T09:30:00Z'))).toBe(false); // Saturday
    expect(s.matches(at('2026-11-03T09:30:00Z'))).toBe(false); // November
  });

  test('day of month OR day of week when both are restricted, AND when one is *', () => {
    const both = CronSchedule.parse('0 0 1 * 1');
    expect(both.matches(at('2026-12-01T00:00:00Z'))).toBe(true); // the 1st, a Tuesday
    expect(both.matches(at('2026-12-07T00:00:00Z'))).toBe(true); // a Monday
    expect(both.matches(at('2026-12-08T00:00:00Z'))).toBe(false);
    const dowOnly = CronSchedule.parse('0 0 * * 0');
    expect(dowOnly.matches(at('2026-12-06T00:00:00Z'))).toBe(true); // Sunday
    expect(dowOnly.matches(at('2026-12-07T00:00:00Z'))).toBe(false);
    expect(CronSchedule.parse('0 0 * * 7').matches(at('2026-12-06T00:00:00Z'))).toBe(true);
  });

  test('descriptors', () => {
    expect(CronSchedule.parse('@daily').matches(at('2026-12-06T00:00:00Z'))).toBe(true);
    expect(CronSchedule.parse('@hourly').matches(at('2026-12-06T05:00:00Z'))).toBe(true);
    expect(CronSchedule.parse('@weekly').matches(at('2026-12-07T00:00:00Z'))).toBe(false);
  });

  test('bad schedules say what is wrong', () => {
    expect(() => CronSchedule.parse('* * *')).toThrow(/must have 5 fields .* has 3/);
    expect(() => CronSchedule.parse('60 * * * *')).toThrow(/60 in "60" is outside 0-59/);
    expect(() => CronSchedule.parse('x * * * *')).toThrow(/"x" is not a number/);
    expect(() => CronSchedule.parse('*/0 * * * *')).toThrow(/step "0"/);
    expect(() => CronSchedule.parse('5-1 * * * *')).toThrow(/runs backwards/);
  });
});

test('Go durations', () => {
  expect(parseGoDuration('1h')).toBe(3_600_000);
  expect(parseGoDuration('1h30m')).toBe(5_400_000);
  expect(parseGoDuration('90s')).toBe(90_000);
  expect(() => parseGoDuration('1 day')).toThrow(/"1 day" is not a Go duration/);
});

describe('activeOccurrence', () => {
  const freeze = { kind: 'deny', schedule: '0 18 * * fri', duration: '63h', applications: ['*'] };

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
