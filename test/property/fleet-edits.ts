import fc from 'fast-check';
import { RINGS, TIERS } from './generators';
import { WorldSpec } from './model';

/*
 * Fleet changes of a property-test world: label swaps (waves, zones, regions), a cluster's ring
 * set or removed, a cluster changing tier (stage), a cluster leaving; the reverse of an edit is
 * the way back (a cluster joining, rings moving back). Used by test/property/fleet-change.test.ts
 * (the test kit model) and conformance/differential.ts (the model against Argo CD's own
 * ApplicationSet controller).
 */

export interface FleetEdit {
  /** Pairs of clusters (by index) that swap the value of a label (or the region) both carry: wave or stage moves that keep every wave. */
  readonly swaps: Array<[number, number, 'ring' | 'zone' | 'region']>;
  /** Clusters whose `ring` label changes (null: removed). */
  readonly rings: Array<{ at: number; ring: string | null }>;
  /** Clusters whose tier changes: they leave one stage and join another. */
  readonly tiers: Array<{ at: number; tier: string }>;
  /** A cluster that leaves the fleet. */
  readonly leaves: number | null;
}

export const editArb = (n: number): fc.Arbitrary<FleetEdit> => fc.record({
  swaps: fc.array(fc.tuple(fc.nat(n - 1), fc.nat(n - 1), fc.constantFrom('ring' as const, 'zone' as const, 'region' as const)), { minLength: 1, maxLength: 4 }),
  rings: fc.array(fc.record({ at: fc.nat(n - 1), ring: fc.option(fc.constantFrom(...RINGS), { freq: 6 }) }), { maxLength: 1 }),
  tiers: fc.array(fc.record({ at: fc.nat(n - 1), tier: fc.constantFrom(...TIERS) }), { maxLength: 1 }),
  leaves: fc.option(fc.nat(n - 1), { freq: 2 }),
});

export function edited(spec: WorldSpec, edit: FleetEdit): WorldSpec {
  const clusters = spec.fleet.clusters.map(c => ({ ...c, labels: { ...c.labels } }));
  const setLabel = (i: number, key: string, value: string | null | undefined) => {
    const labels: Record<string, string> = { ...clusters[i].labels };
    if (value === null || value === undefined) delete labels[key];
    else labels[key] = value;
    clusters[i].labels = labels;
  };
  const valueOf = (i: number, key: string) => (key === 'region' ? clusters[i].region : clusters[i].labels?.[key]);
  const setValue = (i: number, key: string, value: string) => (key === 'region' ? (clusters[i].region = value) : setLabel(i, key, value));
  for (const [i, j, key] of edit.swaps) {
    // the i-th cluster carrying the value swaps with the next one (from the j-th) carrying another
    const carriers = clusters.map((_c, k) => k).filter(k => valueOf(k, key) !== undefined);
    if (carriers.length < 2) continue;
    const a = carriers[i % carriers.length];
    const b = [...carriers.slice(j % carriers.length), ...carriers].find(k => valueOf(k, key) !== valueOf(a, key));
    if (b === undefined) continue;
    const [va, vb] = [valueOf(a, key)!, valueOf(b, key)!];
    setValue(a, key, vb);
    setValue(b, key, va);
  }
  for (const { at, ring } of edit.rings) setLabel(at, 'ring', ring);
  for (const { at, tier } of edit.tiers) clusters[at].tier = tier;
  if (edit.leaves !== null && clusters.length > 1) clusters.splice(edit.leaves, 1);
  return { ...spec, fleet: { ...spec.fleet, clusters } };
}
