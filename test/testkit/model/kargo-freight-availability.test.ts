import { describe, expect, test } from 'vitest';
import { isFreightAvailable, listFreightFromWarehouse, ModelFreight } from '../../../src/testkit/model/kargo-freight-availability';

const NS = 'shop';
const HOUR = 3600;

describe('which Freight a Stage may take', () => {
  test('a person could not promote it either: the UI lists nothing, though the webhook would admit it', () => {
    const f: ModelFreight = {
      name: 'f',
      warehouse: NS,
      verifiedIn: new Map([['dev', 0], ['a', 600], ['b', 600]]),
      currentlyIn: new Map([['dev', 0], ['a', 600], ['b', 600]]),
      approvedFor: new Set(),
    };
    const req = { warehouse: NS, direct: false, stages: ['a', 'b'], strategy: 'All', soakSeconds: HOUR };
    expect(listFreightFromWarehouse([f], 'c', req, 2 * HOUR)).toEqual([]);
    expect(isFreightAvailable(f, 'c', [req], 2 * HOUR)).toBe(true);
    // an approval lists it at once, soak or not
    f.approvedFor.add('c');
    expect(listFreightFromWarehouse([f], 'c', req, 700)).toEqual([f]);
  });

  test('OneOf: a soak in any earlier Stage lists the Freight, but the webhook holds it to the upstream\'s own soak', () => {
    const f: ModelFreight = {
      name: 'f',
      warehouse: NS,
      verifiedIn: new Map([['dev', 0], ['staging', 3 * HOUR]]),
      currentlyIn: new Map([['dev', 0], ['staging', 3 * HOUR]]),
      approvedFor: new Set(),
    };
    const req = { warehouse: NS, direct: false, stages: ['staging'], soakSeconds: HOUR };
    expect(listFreightFromWarehouse([f], 'prod', req, 3 * HOUR + 60)).toEqual([f]);
    expect(isFreightAvailable(f, 'prod', [req], 3 * HOUR + 60)).toBe(false);
    expect(isFreightAvailable(f, 'prod', [req], 4 * HOUR)).toBe(true);
  });
});
