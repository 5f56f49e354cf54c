import { describe, expect, test } from 'vitest';
import { PlatformLabels } from '../../src';
import { labelKeyProblem } from '../../src/util/names';

describe('PlatformLabels', () => {
  const keys = Object.entries(PlatformLabels).filter(([name]) => name !== 'PREFIX');

  test('every key is a valid label and annotation key under the library\'s own prefix', () => {
    expect(keys.length).toBeGreaterThan(10);
    for (const [name, key] of keys) {
      expect([name, labelKeyProblem(key)]).toEqual([name, undefined]);
      expect(key.startsWith(`${PlatformLabels.PREFIX}/`)).toBe(true);
    }
  });

  test('no two names share a key', () => {
    expect(new Set(keys.map(([, key]) => key)).size).toBe(keys.length);
  });
});
