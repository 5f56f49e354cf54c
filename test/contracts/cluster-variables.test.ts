import { describe, expect, test } from 'vitest';
import { CLUSTER_VARIABLES, clusterVariables, RELEASE_VARIABLES, RENDER_ONLY_VARIABLES, renderOnlyVariables } from '../../src/contracts/cluster-variables';

const cluster = { name: 'gcp-1', region: 'us-central1', provider: 'gcp', accelerator: 'nvidia-h100', tier: 'prod', kubernetesVersion: '1.31' };

describe('cluster variables', () => {
  test('a cluster\'s values are exactly the declared variables, in their order', () => {
    expect(Object.keys(clusterVariables(cluster))).toEqual(CLUSTER_VARIABLES);
    expect(Object.values(clusterVariables(cluster))).toEqual(['gcp-1', 'us-central1', 'gcp', 'nvidia-h100', 'prod']);
    expect(Object.keys(renderOnlyVariables(cluster))).toEqual(RENDER_ONLY_VARIABLES);
  });

  test('a release is the stage plus the cluster variables; no render-only variable can be a path token or placeholder', () => {
    expect(RELEASE_VARIABLES).toEqual(['stage', ...CLUSTER_VARIABLES]);
    expect(RENDER_ONLY_VARIABLES.filter(v => RELEASE_VARIABLES.includes(v))).toEqual([]);
  });
});
