import { describe, expect, test } from 'vitest';
import { normalizeFindings, show } from '../../src/testkit/finding';

describe('findings', () => {
  test('sorted by path (indexes as numbers), then message; exact duplicates from two rules count once', () => {
    expect(normalizeFindings([
      { path: '/spec/10', message: 'b' }, { path: '/spec/9', message: 'z' }, { path: '/spec/9', message: 'a' }, { path: '/spec/9', message: 'a' },
    ])).toEqual([{ path: '/spec/9', message: 'a' }, { path: '/spec/9', message: 'z' }, { path: '/spec/10', message: 'b' }]);
  });

  test('a value shows as JSON, cut at 100 characters', () => {
    expect([show('x'), show(undefined), show({ a: 1 })]).toEqual(['"x"', 'undefined', '{"a":1}']);
    expect(show('y'.repeat(200))).toHaveLength(100);
  });
});
