import { describe, expect, test } from 'vitest';
import { date, duration, GoDuration, GoTime, nowAt, timeOperation, timezone } from '../../../src/testkit/model/expr-time';

// Go's time values as expr-lang v1.17.8 hands them to Kargo's expressions
describe('time in expressions', () => {
  test('time.ParseDuration: units, fractions, signs; anything else is an error', () => {
    expect(duration('1h30m').ns).toBe(5400e9);
    expect(duration('1.5s').ns).toBe(1.5e9);
    expect(duration('-2m').ns).toBe(-120e9);
    expect(duration('0').ns).toBe(0);
    expect(() => duration('1d')).toThrow('time: invalid duration "1d"');
    expect(() => duration('5')).toThrow('time: invalid duration "5"');
  });

  test('date() parses its layouts in UTC and refuses what Go refuses; Format writes the layout elements', () => {
    const t = date('2026-12-24 18:30:00', '2006-01-02 15:04:05');
    expect(t.format('Mon Jan 2 15:04')).toBe('Thu Dec 24 18:30');
    expect(date('2026-02-03').format('01/02/2006')).toBe('02/03/2026');
    expect(() => date('2026-02-30')).toThrow();
    expect(() => t.format('Monday')).toThrow();
  });

  test('now(tz) reads the wall clock in the zone; an unknown zone is an error', () => {
    const clock = new Date('2026-06-15T12:00:00Z');
    expect(nowAt(clock, [timezone('Asia/Tokyo')]).format('15:04')).toBe('21:00');
    expect(nowAt(clock, [timezone('UTC')]).format('15:04')).toBe('12:00');
    expect(() => timezone('Mars/Olympus')).toThrow('unknown time zone Mars/Olympus');
  });

  test('time plus or minus a duration, int times duration, comparisons; other mixes fail as in Go', () => {
    const t = new GoTime(Date.UTC(2026, 0, 1));
    const later = timeOperation('+', t, timeOperation('*', 90, duration('1m'))) as GoTime;
    expect(later.format('15:04')).toBe('01:30');
    expect((timeOperation('-', later, t) as GoDuration).ns).toBe(5400e9);
    expect(timeOperation('<', t, later)).toBe(true);
    expect(timeOperation('+', 1, 2)).toBeUndefined();
    expect(() => timeOperation('+', t, t)).toThrow('invalid operation: time.Time + time.Time');
  });
});
