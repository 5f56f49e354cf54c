import { describe, expect, test } from 'vitest';
import { measureWarehouseHosts } from '../../src/load/warehouse-requests';
import { argoCd, kargo } from '../support/load-objects';

describe('measureWarehouseHosts', () => {
  test('counts the polling requests per host from each Warehouse interval and selection strategy', () => {
    expect(measureWarehouseHosts([...argoCd, ...kargo])).toEqual([
      // one ls-remote per 10-minute poll
      { host: 'github.com', kind: 'git', warehouses: 1, subscriptions: 1, pollsPerHour: 6, listingsPerHour: 6, manifestGetsPerHour: 0, unbounded: false },
      // SemVer every 10m: a listing and up to 5 manifests; NewestBuild every 5m (the default): a listing and up to 20 (or more) manifests
      { host: 'ghcr.io', kind: 'registry', warehouses: 2, subscriptions: 2, pollsPerHour: 18, listingsPerHour: 18, manifestGetsPerHour: 6 * 5 + 12 * 20, unbounded: true },
      // Digest: the one tag's manifest, no listing; an image without a registry is Docker Hub's
      { host: 'index.docker.io', kind: 'registry', warehouses: 1, subscriptions: 1, pollsPerHour: 6, listingsPerHour: 0, manifestGetsPerHour: 6, unbounded: false },
    ]);
  });
});
