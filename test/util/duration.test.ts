import { expect, test } from 'vitest';
import { parseGoDuration } from '../../src/util/duration';

test('Go durations', () => {
  expect(parseGoDuration('1h')).toBe(3_600_000);
  expect(parseGoDuration('1h30m')).toBe(5_400_000);
  expect(parseGoDuration('90s')).toBe(90_000);
  expect(() => parseGoDuration('1 day')).toThrow(/duration is not a Go duration, got "1 day"; use e.g. 1h or 90m/);
  expect(parseGoDuration('2562047h')).toBe(2_562_047 * 3_600_000);
  expect(() => parseGoDuration('2562048h')).toThrow(/duration is longer than a Go duration can be \(2562047h47m16.854775807s\), got "2562048h"/);
});
