import { describe, expect, test } from 'vitest';
import { expectClean, linesOf, NS } from '../support/testkit-objects';

describe('ManifestValidator', () => {
  describe('core kinds', () => {
    test('accepts the built-in kinds the library emits', () => {
      expectClean(
        { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'demo', labels: { 'kargo.akuity.io/project': 'true' } } },
        { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cfg', namespace: NS }, data: { 'values.yaml': 'a: 1' } },
        { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'promoter', namespace: NS } },
        { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'hook', namespace: NS }, type: 'Opaque', data: { repoURL: Buffer.from('https://x').toString('base64') } },
        { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name: 'promoter', namespace: NS }, rules: [{ apiGroups: ['kargo.akuity.io'], resources: ['stages'], verbs: ['promote'] }] },
        {
          apiVersion: 'rbac.authorization.k8s.io/v1',
          kind: 'RoleBinding',
          metadata: { name: 'promoter', namespace: NS },
          roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'promoter' },
          subjects: [{ kind: 'ServiceAccount', name: 'promoter', namespace: NS }, { kind: 'Group', apiGroup: 'rbac.authorization.k8s.io', name: 'team' }],
        },
        { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'system:acme:viewer' }, rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }] },
        {
          apiVersion: 'rbac.authorization.k8s.io/v1',
          kind: 'ClusterRoleBinding',
          metadata: { name: 'acme-viewer' },
          roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'system:acme:viewer' },
          subjects: [{ kind: 'ServiceAccount', name: 'viewer', namespace: NS }],
        },
        {
          apiVersion: 'batch/v1',
          kind: 'Job',
          metadata: { name: 'smoke', namespace: NS },
          spec: { backoffLimit: 0, template: { spec: { restartPolicy: 'Never', containers: [{ name: 'curl', image: 'curlimages/curl:8.8.0', args: ['-f', 'https://x'] }] } } },
        },
      );
    });

    test('fails if a secret has an unknown top-level field or non-base64 data', () => {
      const secret = { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's', namespace: NS }, data: { url: 'not base64!' }, spec: {} };
      expect(linesOf(secret)).toEqual(['/data/url: "not base64!" is not a valid base64 value (format byte)', '/spec: unknown field "spec"']);
    });

    test('fails if a rolebinding has no roleRef or a subject without name', () => {
      const binding = { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'RoleBinding', metadata: { name: 'b', namespace: NS }, subjects: [{ kind: 'ServiceAccount' }] };
      expect(linesOf(binding)).toEqual(['/roleRef: missing required field "roleRef"', '/subjects/0/name: missing required field "name"']);
    });

    test('fails if a job container has an unknown field (schema borrowed from the pinned rollouts crd)', () => {
      const job = {
        apiVersion: 'batch/v1',
        kind: 'Job',
        metadata: { name: 'smoke', namespace: NS },
        spec: { template: { spec: { containers: [{ name: 'c', image: 'busybox', command: ['true'], cmd: 'x' }] } } },
      };
      expect(linesOf(job)).toEqual(['/spec/template/spec/containers/0/cmd: unknown field "cmd"']);
    });

  });
});
