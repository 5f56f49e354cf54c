import { Testing } from 'cdk8s';
import { describe, expect, test } from 'vitest';
import { Accelerator, Approval, ClusterFleet, ClusterSelector, PlatformApp, PromotionPipeline, Tier, Waves } from '../../src';
import { appProps, errorOf, synthApp, world } from '../support/fixtures';
import { prodFleet, prodPlan } from '../support/prod-fleet';

describe('resolveReleasePlan', () => {
  test('targets narrow every stage to matching clusters', () => {
    const { app } = synthApp(() => ({ targets: ClusterSelector.accelerator(Accelerator.NVIDIA_H100) }));
    expect(app.plan.stages.map(s => [s.name, s.waves.map(w => w.clusters)])).toEqual([
      ['dev', [['gcp-dev-h100']]],
      ['staging', [['gcp-stg-h100']]],
      ['prod', [['gcp-prod-h100-1'], ['gcp-prod-h100-2']]],
    ]);
  });

  test('fails if a pipeline stage selects no cluster of the fleet', () => {
    const w = world();
    w.pipeline.addStage({ name: 'dr', clusters: ClusterSelector.matchLabels({ role: 'disaster-recovery' }) });
    expect(() => new PlatformApp(w.app, 'api', appProps(w)))
      .toThrow(/pipeline 'standard': stage "dr" selector selects no cluster of fleet 'fleet', got role=disaster-recovery; fix the stage's selector/);
  });

  test('fails if two stages select the same cluster', () => {
    const w = world();
    w.pipeline.addStage({ name: 'gpu', clusters: ClusterSelector.accelerator(Accelerator.NVIDIA_H100) });
    expect(() => new PlatformApp(w.app, 'api', appProps(w))).toThrow(/cluster "gcp-dev-h100" is selected by both stage "dev" and stage "gpu"/);
  });

  test('fails if a wave name makes an invalid Kargo Stage name', () => {
    const w = world();
    w.pipeline.addStage({ name: 'x'.repeat(60), clusters: ClusterSelector.matchLabels({ nothing: 'here' }) });
    expect(() => new PlatformApp(w.app, 'api', appProps(w))).toThrow(/selects no cluster/);
  });
});

describe('resolveReleasePlan: waves', () => {
  test('a single wave keeps the stage name and takes Freight from the previous stage', () => {
    const p = prodPlan(3, Waves.single());
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
});

// Selectors that name clusters: a misspelt name silently selects one cluster fewer.
describe('a selector that names a cluster the fleet lacks', () => {
  test('fails for the app\'s targets, with the cluster meant', () => {
    const w = world();
    const message = errorOf(() => new PlatformApp(w.app, 'api', appProps(w, { targets: ClusterSelector.names('aws-dev-cpu', 'aws-stg-cpu', 'aws-prod-cpu-1', 'aws-prdo-cpu-2') })));
    expect(message).toContain('targets names no cluster of the fleet, got "aws-prdo-cpu-2"; did you mean "aws-prod-cpu-2"?');
  });

  test('fails for a stage\'s clusters, once, naming the pipeline and stage', () => {
    const w = world();
    w.pipeline.addStage({ name: 'canary', clusters: ClusterSelector.names('gcp-prod-h100-1', 'gcp-prod-h100-9'), after: ['prod'], namespace: '{app}-{stage}' });
    const message = errorOf(() => new PlatformApp(w.app, 'api', appProps(w)));
    expect(message.match(/names no cluster/g)).toHaveLength(1);
    expect(message).toContain('pipeline \'standard\' stage "canary" clusters names no cluster of the fleet, got "gcp-prod-h100-9"; did you mean "gcp-prod-h100-1"?');
  });
});
