import { Testing } from 'cdk8s';
import { describe, expect, test } from 'vitest';
import { Accelerator, ClusterFleet, ClusterSelector, Requirement } from '../../src';
import { SMALL_FLEET, synthApp } from '../support/fixtures';

const clusters = new ClusterFleet(Testing.app(), 'fleet', { clusters: SMALL_FLEET }).clusters;
const satisfying = (r: Requirement) => clusters.filter(c => r.isSatisfiedBy(c)).map(c => c.name);

describe('Requirement', () => {
  test('each factory selects by the cluster attribute it names', () => {
    expect(satisfying(Requirement.accelerator(Accelerator.NVIDIA_H100, Accelerator.AMD_MI300X)))
      .toEqual(['gcp-dev-h100', 'gcp-prod-h100-1', 'gcp-prod-h100-2', 'gcp-stg-h100']);
    expect(satisfying(Requirement.minAccelerators(64))).toEqual(['gcp-prod-h100-1', 'gcp-prod-h100-2']);
    expect(satisfying(Requirement.labels(ClusterSelector.matchLabels({ ring: 'canary' })))).toEqual(['aws-prod-cpu-1', 'gcp-prod-h100-1']);
  });

  test('a minimum Kubernetes version compares minor versions as numbers; a cluster of unknown version does not qualify', () => {
    expect(satisfying(Requirement.minKubernetesVersion('1.31'))).not.toContain('gcp-dev-h100');
    expect(satisfying(Requirement.minKubernetesVersion('v1.30.2'))).toHaveLength(SMALL_FLEET.length);
    expect(satisfying(Requirement.minKubernetesVersion('1.4'))).toHaveLength(SMALL_FLEET.length);
    const unknown = new ClusterFleet(Testing.app(), 'f', { clusters: [{ ...SMALL_FLEET[0], kubernetesVersion: undefined }] }).clusters[0];
    expect(Requirement.minKubernetesVersion('1.0').isSatisfiedBy(unknown)).toBe(false);
  });

  test('describes what it asks for, and records the problems of its input for the app to report', () => {
    expect(Requirement.minKubernetesVersion('v1.30.2').description).toBe('kubernetes >= 1.30');
    expect(Requirement.minAccelerators(0)._problems).toEqual(['Requirement.minAccelerators() needs a whole number >= 1, got 0']);
    expect(Requirement.minKubernetesVersion('latest')._problems).toEqual(['Requirement.minKubernetesVersion() needs a version such as "1.30", got "latest"']);
    expect(Requirement.accelerator()._problems).toEqual(['Requirement.accelerator() needs at least one family, got none']);
  });

  test('requirements place the app only where they hold', () => {
    const { app } = synthApp(() => ({ requires: [Requirement.minKubernetesVersion('1.31')] }));
    expect(app.plan.clusters).not.toContain('gcp-dev-h100');
    expect(app.plan.clusters).toContain('aws-dev-cpu');
  });
});
