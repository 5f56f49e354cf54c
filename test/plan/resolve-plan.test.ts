import { describe, expect, test } from 'vitest';
import { Accelerator, ClusterSelector, PlatformApp } from '../../src';
import { appProps, errorOf, synthApp, world } from '../support/fixtures';

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
