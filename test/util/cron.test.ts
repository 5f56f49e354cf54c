import { describe, expect, test } from 'vitest';
import { CronSchedule, CronTime } from '../../src/util/cron';

/** The wall-clock fields of an instant in UTC. */
const at = (iso: string): CronTime => {
  const d = new Date(iso);
  return { minute: d.getUTCMinutes(), hour: d.getUTCHours(), dayOfMonth: d.getUTCDate(), month: d.getUTCMonth() + 1, dayOfWeek: d.getUTCDay() };
};

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
  });

  test('steps count: */2 is every other value, and on a day field it drops the star (robfig getRange)', () => {
    const everyOther = CronSchedule.parse('*/2 * * * *');
    expect(everyOther.matches(at('2026-12-06T00:02:00Z'))).toBe(true);
    expect(everyOther.matches(at('2026-12-06T00:03:00Z'))).toBe(false);
    // `*/2` in day-of-month has no star bit: with a restricted day-of-week either one may match
    const oddDaysOrMondays = CronSchedule.parse('0 0 */2 * 1');
    expect(oddDaysOrMondays.matches(at('2026-12-07T00:00:00Z'))).toBe(true); // the 7th, a Monday
    expect(oddDaysOrMondays.matches(at('2026-12-03T00:00:00Z'))).toBe(true); // the 3rd, a Thursday
    expect(oddDaysOrMondays.matches(at('2026-12-04T00:00:00Z'))).toBe(false);
    // `*` keeps the star bit: both must match (Mondays only)
    expect(CronSchedule.parse('0 0 * * 1').matches(at('2026-12-03T00:00:00Z'))).toBe(false);
    // `*/1` keeps it too, `?` is `*`, `n/step` runs to the end of the field
    expect(CronSchedule.parse('0 0 */1 * 1').matches(at('2026-12-03T00:00:00Z'))).toBe(false);
    expect(CronSchedule.parse('0 0 ? * 1').matches(at('2026-12-07T00:00:00Z'))).toBe(true);
    const from50 = CronSchedule.parse('50/5 * * * *');
    expect([49, 50, 55, 59].map(m => from50.matches({ ...at('2026-12-06T00:00:00Z'), minute: m }))).toEqual([false, true, true, false]);
  });

  test('names are case-insensitive and work in ranges', () => {
    const s = CronSchedule.parse('0 0 * JAN-Mar Mon-FRI');
    expect(s.matches(at('2026-02-02T00:00:00Z'))).toBe(true); // a Monday in February
    expect(s.matches(at('2026-04-06T00:00:00Z'))).toBe(false); // April
  });

  test('knows a schedule that never fires (Argo CD holds its window active for ever)', () => {
    expect(CronSchedule.parse('0 0 30 2 *').firesNever).toBe(true);
    expect(CronSchedule.parse('0 0 29 2 *').firesNever).toBe(false);
  });

  test('fails if the schedule is one Argo CD v3.5.1 refuses, naming the field, the value and the fix', () => {
    expect(() => CronSchedule.parse('* * *')).toThrow(/cron schedule is refused by Argo CD v3.5.1's cron parser \(robfig\/cron\): expected exactly 5 fields, found 3: \[\* \* \*\], got "\* \* \*"; write minute hour/);
    expect(() => CronSchedule.parse('0 0 * * 7'))
      .toThrow(/day-of-week "7": end of range \(7\) above maximum \(6\): 7, got "0 0 \* \* 7"; day-of-week takes 0-6 or sun-sat.*; Argo CD counts Sunday as 0 only/);
    expect(() => CronSchedule.parse('@weekly')).toThrow(/parser does not accept descriptors: @weekly, got "@weekly"; write its 5 fields instead: "0 0 \* \* 0"/);
    expect(() => CronSchedule.parse('@every 1h')).toThrow(/parser does not accept descriptors/);
    expect(() => CronSchedule.parse('60 * * * *')).toThrow(/minute "60": end of range \(60\) above maximum \(59\).*; minute takes 0-59/);
    expect(() => CronSchedule.parse('x * * * *')).toThrow(/minute "x": failed to parse int from x/);
    expect(() => CronSchedule.parse('* * * * x')).toThrow(/day-of-week "x": failed to parse int from x.*day-of-week takes 0-6 or sun-sat/);
    expect(() => CronSchedule.parse('*/0 * * * *')).toThrow(/minute "\*\/0": step of range should be a positive number/);
    expect(() => CronSchedule.parse('1/2/3 * * * *')).toThrow(/too many slashes/);
    expect(() => CronSchedule.parse('1-2-3 * * * *')).toThrow(/too many hyphens/);
    expect(() => CronSchedule.parse('5-1 * * * *')).toThrow(/minute "5-1": beginning of range \(5\) beyond end of range \(1\)/);
    expect(() => CronSchedule.parse('0 0 0 * *')).toThrow(/day-of-month "0": beginning of range \(0\) below minimum \(1\)/);
    expect(() => CronSchedule.parse('TZ=UTC 0 0 * * *')).toThrow(/starts with a time zone.*set the time zone in timeZone/);
    // every field Go refuses, at once (robfig's own message stops at the first)
    expect(() => CronSchedule.parse('60 24 * * *')).toThrow(/minute "60": end of range \(60\) above maximum \(59\): 60; hour "24": end of range \(24\) above maximum \(23\): 24/);
  });

  test('what robfig accepts besides the obvious: ? , empty list items, a leading +, *-n', () => {
    expect(CronSchedule.parse('0,,30 +1 ? * *').matches(at('2026-12-06T01:30:00Z'))).toBe(true);
    expect(CronSchedule.parse('*-5 * * * *').matches(at('2026-12-06T01:30:00Z'))).toBe(true);
  });
});
