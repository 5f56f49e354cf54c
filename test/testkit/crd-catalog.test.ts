import { describe, expect, test } from 'vitest';
import { createCrdAjv } from '../../src/testkit/ajv-setup';
import { CrdCatalog } from '../../src/testkit/crd-catalog';
import { shippedSchemaBundle } from '../../src/testkit/schema-bundle';

describe('CrdCatalog', () => {
  const catalog = new CrdCatalog(shippedSchemaBundle().crds, createCrdAjv());

  test('finds the pinned kinds by group and kind, with their served versions and scope', () => {
    const stage = catalog.find('kargo.akuity.io', 'Stage')!;
    expect(stage).toMatchObject({ group: 'kargo.akuity.io', kind: 'Stage', namespaced: true });
    expect(catalog.versions(stage)).toEqual(['v1alpha1']);
    expect(catalog.find('kargo.akuity.io', 'ClusterConfig')!.namespaced).toBe(false);
    expect(catalog.find('apps', 'Deployment')).toBeUndefined();
  });

  test('compiles a version\'s validator once; an unserved version has none', () => {
    const project = catalog.find('argoproj.io', 'AppProject')!;
    const validator = catalog.validator(project, 'v1alpha1');
    expect(typeof validator).toBe('function');
    expect(catalog.validator(project, 'v1alpha1')).toBe(validator);
    expect(catalog.validator(project, 'v9')).toBeUndefined();
  });
});
