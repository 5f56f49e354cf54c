import { describe, expect, test } from 'vitest';
import { Accelerator, CloudProvider, ClusterSelector, PlatformApp, Requirement, Tier } from '../../src';
import { appProps, errorOf, world } from '../support/fixtures';

describe('an accelerator or provider that is not known and not declared custom fails with the closest known value', () => {
  test('in a cluster, a selector and a requirement', () => {
    const typo = Accelerator.of('nvidia-h10O');
    const expected = 'name is not a known accelerator family, got "nvidia-h10O"; did you mean "nvidia-h100"? '
      + '(to add a family, declare it with Accelerator.custom("nvidia-h10O"))';
    expect(errorOf(() => world([{ name: 'c1', server: 'https://10.0.0.1', provider: CloudProvider.GCP, region: 'r', tier: Tier.DEV, accelerator: typo, acceleratorCount: 8 }])))
      .toContain(expected);
    expect(ClusterSelector.accelerator(typo)._problems).toEqual([`accelerator ${expected}`]);
    expect(errorOf(() => { const w = world(); new PlatformApp(w.app, 'api', appProps(w, { requires: [Requirement.accelerator(typo)] })); })).toContain(expected);
    expect(ClusterSelector.provider('amazon' as CloudProvider)._problems).toEqual(['provider is not a known provider, got "amazon"; use one of "aws", "gcp", "azure", "oci", "on-prem"']);
    expect(ClusterSelector.provider('gpc' as CloudProvider)._problems).toEqual(['provider is not a known provider, got "gpc"; did you mean "gcp"?']);
  });

  test('a declared custom family is accepted', () => {
    expect(Accelerator.custom('nvidia-b200')._problems).toEqual([]);
    expect(Accelerator.custom('nvidia-h100')).toBe(Accelerator.NVIDIA_H100);
    expect(Accelerator.of('nvidia-h100')).toBe(Accelerator.NVIDIA_H100);
  });
});
