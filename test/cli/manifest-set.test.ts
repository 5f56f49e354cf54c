import { describe, expect, test } from 'vitest';
import { canonicalJson, FLEET_GROUP, ManifestSet } from '../../src/cli/manifest-set';

const app = (name: string, labels: Record<string, string> = {}) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'api', labels } });
const clusterSecret = { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'c1', namespace: 'argocd', labels: { 'argocd.argoproj.io/secret-type': 'cluster' } } };

describe('ManifestSet', () => {
  test('an object belongs to its app label, else to its file\'s app; cluster Secrets to the fleet', () => {
    const set = ManifestSet.fromObjects([
      { file: 'api.k8s.yaml', obj: app('a') },
      { file: 'shared.k8s.yaml', obj: app('b', { 'gitops-platform.io/app': 'web' }) },
      { file: 'fleet.k8s.yaml', obj: clusterSecret },
    ]);
    expect(set.groups()).toEqual(['api', FLEET_GROUP, 'web']);
    expect(set.ofGroup('web').map(o => o.key)).toEqual(['v1 ConfigMap api/b']);
  });

  test('the objects of a cluster\'s own chart (<app>--<cluster>) are the app\'s, keyed with the cluster', () => {
    const [object] = ManifestSet.fromObjects([{ file: 'sub/api--edge-1.k8s.yaml', obj: app('a') }]).objects;
    expect([object.group, object.cluster, object.key]).toEqual(['api', 'edge-1', '[edge-1] v1 ConfigMap api/a']);
  });

  test('a file\'s documents, an empty one skipped; a document that does not parse names the file', () => {
    expect(ManifestSet.parseFile('api.k8s.yaml', 'kind: A\nmetadata: {name: a}\n---\n---\nkind: B\nmetadata: {name: b}\n').map(o => o.key))
      .toEqual([' A a', ' B b']);
    expect(() => ManifestSet.parseFile('api.k8s.yaml', 'kind: [')).toThrow(/^api.k8s.yaml does not parse as YAML, got "/);
  });

  test('canonical JSON: equal objects give equal text whatever their key order', () => {
    expect(canonicalJson({ b: 1, a: { d: [2, { z: 1, y: 2 }], c: null } })).toBe(canonicalJson({ a: { c: null, d: [2, { y: 2, z: 1 }] }, b: 1 }));
  });
});
