import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { Waves } from '../../src';
import { prodFleet, prodPlan } from '../support/prod-fleet';

describe('splitIntoWaves', () => {
  test('count waves: earlier waves are never larger, the first covers every provider x accelerator pair', () => {
    const p = prodPlan(10, Waves.byCount(3));
    const waves = p.stages[1].waves;
    expect(waves.map(w => w.kargoStage)).toEqual(['prod-w1', 'prod-w2', 'prod-w3']);
    expect(waves.map(w => w.clusters.length)).toEqual([3, 3, 4]);
    expect(waves.map(w => w.upstreams)).toEqual([['dev'], ['prod-w1'], ['prod-w2']]);
    expect(waves.every(w => w.soak === '2h')).toBe(true);
    // each wave's verification waits the next wave's soak; the soaks add up along the chain
    expect(waves.map(w => [w.verificationSoak, w.earliestSeconds])).toEqual([['2h', 7200], ['2h', 14400], [undefined, 21600]]);
    // prod-01 aws/none, prod-02 gcp/h100, prod-03 azure/mi300x
    expect(waves[0].clusters).toEqual(['prod-01', 'prod-02', 'prod-03']);
  });

  test('percentage waves reach the cumulative percentages; the first wave grows to cover every pair', () => {
    const p = prodPlan(20, Waves.byPercentage([5, 50, 100]));
    const sizes = p.stages[1].waves.map(w => w.clusters.length);
    // 5% of 20 is 1 cluster, enlarged to the 3 provider x accelerator pairs
    expect(sizes).toEqual([3, 7, 10]);
    const first = p.stages[1].waves[0].clusters;
    expect(new Set(first.map(c => Number(c.slice(5)) % 3)).size).toBe(3);
  });

  test('every cluster of a stage is in exactly one wave', () => {
    for (const waves of [Waves.byCount(4), Waves.byPercentage([10, 30, 60, 100]), Waves.single()]) {
      const p = prodPlan(17, waves);
      const all = p.stages[1].waves.flatMap(w => w.clusters);
      expect(all.sort()).toEqual(prodFleet(17).slice(1).map(c => c.name));
    }
  });

  test('a wave budget limits the first wave\'s coverage growth', () => {
    const p = prodPlan(12, Waves.byPercentage([1, 50, 100]), { maxClusters: 6 });
    expect(p.stages[1].waves.map(w => w.clusters.length)).toEqual([3, 3, 6]);
  });

  test('fails if a single-wave stage exceeds the wave budget', () => {
    expect(() => prodPlan(10, Waves.single(), { maxPercent: 25 })).toThrow(
      /stage "prod" wave "prod" has more clusters than the wave budget allows \(3\), got 10 clusters; split the stage into at least 4 waves \(e.g. Waves.byCount\(4\)\) or raise the budget/);
  });

  test('fails if count waves cannot meet the wave budget', () => {
    expect(() => prodPlan(10, Waves.byCount(2), { maxClusters: 4 })).toThrow(/wave "w1" has more clusters than the wave budget allows \(4\), got 5 clusters/);
  });

  test('fails if a cluster has no wave label', () => {
    expect(() => prodPlan(3, Waves.byLabel('ring', ['canary', 'broad'])))
      .toThrow(/stage "prod" waves by label "ring" cannot place clusters without one of the wave values \(canary, broad\), got prod-01 \(ring=<unset>\)/);
  });
});

describe('Waves.byCount', () => {
  test('22 clusters in 4 waves are 5, 5, 6, 6', () => {
    expect(prodPlan(22, Waves.byCount(4)).stages[1].waves.map(w => w.clusters.length)).toEqual([5, 5, 6, 6]);
  });

  test('property: earlier waves are never larger, every cluster is in one wave, at most n waves', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 40 }), fc.integer({ min: 1, max: 12 }), (clusters, count) => {
      const sizes = prodPlan(clusters, Waves.byCount(count)).stages[1].waves.map(w => w.clusters.length);
      expect(sizes.length).toBe(Math.min(count, clusters));
      expect(sizes.reduce((a, b) => a + b, 0)).toBe(clusters);
      sizes.slice(1).forEach((size, i) => expect(size).toBeGreaterThanOrEqual(sizes[i]));
      expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(1);
    }), { numRuns: 60 });
  });
});
