import { describe, expect, test } from 'vitest';
import { linesOf, NS } from '../support/testkit-objects';

describe('ObjectValidator', () => {
  test('fails if a kind has no pinned schema', () => {
    expect(linesOf({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'x', namespace: NS } })).toEqual([': no pinned schema for apps/v1/Deployment']);
    expect(linesOf({ apiVersion: 'kargo.akuity.io/v1beta1', kind: 'Stage', metadata: { name: 'x', namespace: NS } })).toEqual([
      ': no pinned schema for kargo.akuity.io/v1beta1/Stage (the pinned crd serves kargo.akuity.io/v1alpha1)',
    ]);
    expect(linesOf({ metadata: { name: 'x' } })).toEqual([': object has no apiVersion/kind (apiVersion undefined, kind undefined)']);
  });
});
