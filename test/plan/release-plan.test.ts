import { Duration, Testing } from 'cdk8s';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  Accelerator, Approval, ClusterFleet, ClusterOptions, ClusterSelector, CloudProvider, PlatformApp, PromotionPipeline,
  PromotionPipelineProps, Tier, WaveBudget, Waves,
} from '../../src';
import { appProps, managedAuth } from '../support/fixtures';

/** n prod clusters cycling over providers and accelerators, plus one dev cluster. */
function prodFleet(n: number): ClusterOptions[] {
  const kinds: Array<[CloudProvider, Accelerator]> = [
    [CloudProvider.AWS, Accelerator.NONE], [CloudProvider.GCP, Accelerator.NVIDIA_H100], [CloudProvider.AZURE, Accelerator.AMD_MI300X],
  ];
  const clusters: ClusterOptions[] = [{ name: 'dev-1', server: 'https://dev-1.example.com', provider: CloudProvider.AWS, region: 'r1', tier: Tier.DEV, kubernetesVersion: '1.31', auth: managedAuth(CloudProvider.AWS, 'dev-1') }];
  for (let i = 0; i < n; i++) {
    const [provider, accelerator] = kinds[i % kinds.length];
    const name = `prod-${String(i + 1).padStart(2, '0')}`;
    clusters.push({
      name,
      server: `https://${name}.example.com`,
      provider,
      region: 'r1',
      tier: Tier.PROD,
      accelerator,
      acceleratorCount: accelerator === Accelerator.NONE ? 0 : 8,
      kubernetesVersion: '1.31',
      auth: managedAuth(provider, name),
    });
  }
  return clusters;
}

function plan(n: number, waves: Waves, budget?: WaveBudget) {
  const app = Testing.app();
  const fleet = new ClusterFleet(app, 'fleet', { clusters: prodFleet(n) });
  const props: PromotionPipelineProps = {
    waveBudget: budget,
    stages: [
      { name: 'dev', clusters: ClusterSelector.tier(Tier.DEV), approval: Approval.automatic() },
      { name: 'prod', clusters: ClusterSelector.tier(Tier.PROD), waves, soak: Duration.hours(2) },
    ],
  };
  const pipeline = new PromotionPipeline(app, 'p', props);
  const w = { app, fleet, pipeline } as any;
  return new PlatformApp(app, 'api', appProps(w)).plan;
}

describe('ReleasePlan', () => {
  test('a single wave keeps the stage name and takes Freight from the previous stage', () => {
    const p = plan(3, Waves.single());
    expect(p.stages[1].waves).toEqual([{
      name: 'prod',
      kargoStage: 'prod',
      upstreams: ['dev'],
      soak: '2h',
      earliestSeconds: 7200,
      clusters: ['prod-01', 'prod-02', 'prod-03'],
      applications: ['api-prod-01', 'api-prod-02', 'api-prod-03'],
      releaseBranch: 'rendered/api/prod',
      applicationSet: 'api',
      argoCd: 'central',
      argoCdNamespace: 'argocd',
      kargoShard: undefined,
    }]);
    expect(p.stages[0].waves[0].upstreams).toEqual([]);
    expect(p.stages[0].waves[0].soak).toBeUndefined();
    // prod's soak is waited in dev's verification
    expect(p.stages[0].waves[0].verificationSoak).toBe('2h');
  });

  test('count waves: earlier waves are never larger, the first covers every provider x accelerator pair', () => {
    const p = plan(10, Waves.byCount(3));
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
    const p = plan(20, Waves.byPercentage([5, 50, 100]));
    const sizes = p.stages[1].waves.map(w => w.clusters.length);
    // 5% of 20 is 1 cluster, enlarged to the 3 provider x accelerator pairs
    expect(sizes).toEqual([3, 7, 10]);
    const first = p.stages[1].waves[0].clusters;
    expect(new Set(first.map(c => Number(c.slice(5)) % 3)).size).toBe(3);
  });

  test('every cluster of a stage is in exactly one wave', () => {
    for (const waves of [Waves.byCount(4), Waves.byPercentage([10, 30, 60, 100]), Waves.single()]) {
      const p = plan(17, waves);
      const all = p.stages[1].waves.flatMap(w => w.clusters);
      expect(all.sort()).toEqual(prodFleet(17).slice(1).map(c => c.name));
    }
  });

  test('a wave budget limits the first wave\'s coverage growth', () => {
    const p = plan(12, Waves.byPercentage([1, 50, 100]), { maxClusters: 6 });
    expect(p.stages[1].waves.map(w => w.clusters.length)).toEqual([3, 3, 6]);
  });

  test('fails if a single-wave stage exceeds the wave budget', () => {
    expect(() => plan(10, Waves.single(), { maxPercent: 25 })).toThrow(
      /stage "prod" wave "prod" has more clusters than the wave budget allows \(3\), got 10 clusters; split the stage into at least 4 waves \(e.g. Waves.byCount\(4\)\) or raise the budget/);
  });

  test('fails if count waves cannot meet the wave budget', () => {
    expect(() => plan(10, Waves.byCount(2), { maxClusters: 4 })).toThrow(/wave "w1" has more clusters than the wave budget allows \(4\), got 5 clusters/);
  });

  test('fails if a stage is named like the Kargo Stage of another stage\'s wave', () => {
    const app = Testing.app();
    const fleet = new ClusterFleet(app, 'fleet', { clusters: prodFleet(4) });
    const pipeline = new PromotionPipeline(app, 'p', {
      stages: [
        { name: 'prod-w1', clusters: ClusterSelector.tier(Tier.DEV), approval: Approval.automatic() },
        { name: 'prod', clusters: ClusterSelector.tier(Tier.PROD), waves: Waves.byCount(2) },
      ],
    });
    // both would be Kargo Stage "prod-w1", with one release branch and one ApplicationSet
    expect(() => new PlatformApp(app, 'api', appProps({ app, fleet, pipeline } as any))).toThrow(
      /^PlatformApp 'api': stage "prod" wave "w1" Kargo Stage name is also the Kargo Stage name of stage "prod-w1", got "prod-w1"; each stage, wave and cluster with its own Argo CD needs its own Kargo Stage/);
  });

  test('fails if a cluster has no wave label', () => {
    expect(() => plan(3, Waves.byLabel('ring', ['canary', 'broad'])))
      .toThrow(/stage "prod" waves by label "ring" cannot place clusters without one of the wave values \(canary, broad\), got prod-01 \(ring=<unset>\)/);
  });
});

describe('Waves.byCount', () => {
  test('22 clusters in 4 waves are 5, 5, 6, 6', () => {
    expect(plan(22, Waves.byCount(4)).stages[1].waves.map(w => w.clusters.length)).toEqual([5, 5, 6, 6]);
  });

  test('property: earlier waves are never larger, every cluster is in one wave, at most n waves', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 40 }), fc.integer({ min: 1, max: 12 }), (clusters, count) => {
      const sizes = plan(clusters, Waves.byCount(count)).stages[1].waves.map(w => w.clusters.length);
      expect(sizes.length).toBe(Math.min(count, clusters));
      expect(sizes.reduce((a, b) => a + b, 0)).toBe(clusters);
      sizes.slice(1).forEach((size, i) => expect(size).toBeGreaterThanOrEqual(sizes[i]));
      expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(1);
    }), { numRuns: 60 });
  });
});
