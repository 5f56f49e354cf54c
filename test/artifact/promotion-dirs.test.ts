import { describe, expect, test } from 'vitest';
import { clusterManifests, OUT, SRC, withTokens, WORK } from '../../src/artifact/promotion-dirs';

describe('promotion directories', () => {
  test('the source, the release branch and scratch files are three directories; scratch is never inside the committed one', () => {
    expect([SRC, OUT, WORK]).toEqual(['./src', './out', './work']);
    expect(WORK.startsWith(`${OUT}/`)).toBe(false);
  });

  test('a path\'s {tokens} become the render task\'s variables; each cluster renders into its own directory of the release branch', () => {
    expect(withTokens('overlays/{stage}/{region}')).toBe('overlays/${{ vars.stage }}/${{ vars.region }}');
    expect(withTokens('charts/api')).toBe('charts/api');
    expect(clusterManifests()).toBe('./out/${{ vars.cluster }}/manifests.yaml');
  });
});
