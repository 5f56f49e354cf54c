import { describe, expect, test } from 'vitest';
import { createCrdAjv, createKargoAjv } from '../../src/testkit/ajv-setup';

describe('the ajv instances of the test kit', () => {
  test('the CRD one evaluates x-kubernetes-validations (CEL) and list-map keys as the API server does', () => {
    const validate = createCrdAjv().compile({
      'type': 'object',
      'properties': {
        items: {
          'type': 'array',
          'x-kubernetes-list-type': 'map',
          'x-kubernetes-list-map-keys': ['name'],
          'items': { type: 'object', properties: { name: { type: 'string' } } },
        },
      },
      'x-kubernetes-validations': [{ rule: 'size(self.items) <= 2', message: 'at most two items' }],
    });
    expect(validate({ items: [{ name: 'a' }, { name: 'b' }] })).toBe(true);
    expect(validate({ items: [{ name: 'a' }, { name: 'b' }, { name: 'a' }] })).toBe(false);
    expect(validate.errors!.map(e => e.message).sort()).toEqual(['at most two items', 'duplicate list entry with name="a" (same keys as item 0)']);
  });

  test('the Kargo one reads draft 2020-12 step schemas and accepts Go RE2 patterns JavaScript\'s unicode mode would refuse', () => {
    const validate = createKargoAjv().compile({
      $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object', properties: { path: { type: 'string', pattern: '^[\\w\\_]+$' } },
    });
    expect([validate({ path: 'a_b' }), validate({ path: 'a b' })]).toEqual([true, false]);
  });
});
