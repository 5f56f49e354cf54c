import { describe, expect, test } from 'vitest';
import { ClusterSelector, PlatformApp } from '../../src';
import { appProps, errorOf, world } from '../support/fixtures';

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
