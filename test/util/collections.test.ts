import * as fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { compact } from '../../src/util/collections';

describe('compact', () => {
  test('is the JSON round trip', () => {
    const outcome = (f: () => unknown) => {
      try {
        return { value: f() };
      } catch (e) {
        return { error: (e as Error).name };
      }
    };
    fc.assert(fc.property(fc.anything({ withDate: true, withNullPrototype: true, withSparseArray: true, withBoxedValues: true }), v => {
      expect(outcome(() => compact(v))).toStrictEqual(outcome(() => JSON.parse(JSON.stringify(v))));
    }), { numRuns: 500, examples: [[{ ['__proto__']: [] }], [JSON.parse('{"__proto__": {"a": 1}}')]] });
  });
});
