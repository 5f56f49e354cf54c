import { describe as group, expect, test } from 'vitest';
import { describe, show } from '../src/util/errors';

// Every validation message shows its value through show(): one quoting for the whole library.
group('show', () => {
  test('quotes strings as JSON and names a missing value', () => {
    expect(show('prod')).toBe('"prod"');
    expect(show('')).toBe('""');
    expect(show(undefined)).toBe('nothing');
    expect(show(null)).toBe('null');
    expect(show(3)).toBe('3');
    expect(show(['a', 1])).toBe('["a",1]');
  });

  test('shows numbers JSON has no form for as themselves, and never prints a function', () => {
    expect(show(NaN)).toBe('NaN');
    expect(show(-Infinity)).toBe('-Infinity');
    expect(show(() => 'token')).toBe('a function');
  });

  test('describe() is field, problem, value and fix', () => {
    expect(describe('job user', 0, 'must be a whole number above 0 (not root)', 'use e.g. 65532'))
      .toBe('job user must be a whole number above 0 (not root), got 0; use e.g. 65532');
    expect(describe('arg value', undefined, 'must not be empty')).toBe('arg value must not be empty, got nothing');
  });
});
