import { expect, test } from 'vitest';
import { parseGoDuration, toMetaV1Duration } from '../../src/util/duration';

test('Go durations', () => {
  expect(parseGoDuration('1h')).toBe(3_600_000);
  expect(parseGoDuration('1h30m')).toBe(5_400_000);
  expect(parseGoDuration('90s')).toBe(90_000);
  expect(() => parseGoDuration('1 day')).toThrow(/duration is not a Go duration, got "1 day"; use e.g. 1h or 90m/);
  expect(parseGoDuration('2562047h')).toBe(2_562_047 * 3_600_000);
  expect(() => parseGoDuration('2562048h')).toThrow(/duration is longer than a Go duration can be \(2562047h47m16.854775807s\), got "2562048h"/);
});

// the pairs as Go's time.ParseDuration(in).String() prints them (go1.26), the form a metav1.Duration
// field is stored in and Kargo's defaulting webhooks re-encode Stages and Warehouses to
test.each([
  ['30m', '30m0s'], ['1h', '1h0m0s'], ['90s', '1m30s'], ['45s', '45s'], ['1h30m', '1h30m0s'], ['0s', '0s'], ['1.5s', '1.5s'],
  ['500ms', '500ms'], ['1500ms', '1.5s'], ['2h0m5s', '2h0m5s'], ['1.5h', '1h30m0s'], ['100us', '100µs'], ['3ns', '3ns'], ['25h', '25h0m0s'],
])('%s is stored as metav1.Duration %s', (text, stored) => {
  expect(toMetaV1Duration(text)).toBe(stored);
  expect(parseGoDuration(stored)).toBe(parseGoDuration(text));
});

test('a Kargo duration that is not a Go duration fails as parseGoDuration does', () => {
  expect(() => toMetaV1Duration('1 day')).toThrow(/duration is not a Go duration, got "1 day"/);
});
