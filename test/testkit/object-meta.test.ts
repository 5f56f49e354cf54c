import { describe, expect, test } from 'vitest';
import { expectClean, linesOf, NS, project, stage } from '../support/testkit-objects';

describe('ManifestValidator', () => {
  describe('metadata', () => {
    test('fails if a label value is longer than 63 characters', () => {
      const p = project({ metadata: { name: NS, labels: { 'acme.io/team': 'x'.repeat(64) } } });
      expect(linesOf(p)).toEqual([`/metadata/labels/acme.io~1team: label value "${'x'.repeat(64)}" is longer than 63 characters`]);
    });

    test('fails if a label key is not a qualified name', () => {
      const p = project({ metadata: { name: NS, labels: { 'Acme.io/team/x': 'a', '-bad': 'b' } } });
      expect(linesOf(p)).toEqual([
        '/metadata/labels/-bad: invalid label key: "-bad" is not a qualified name (alphanumerics, \'-\', \'_\' and \'.\', starting and ending alphanumeric, optional dns prefix)',
        '/metadata/labels/Acme.io~1team~1x: invalid label key: "Acme.io/team/x" is not a qualified name (at most one \'/\')',
      ]);
    });

    test('fails if a project name is not a dns label (it becomes a namespace)', () => {
      expect(linesOf(project({ metadata: { name: 'demo.app' } }))).toEqual([
        '/metadata/name: invalid name: "demo.app" is not a dns-1123 label (lowercase alphanumerics and \'-\', starting and ending alphanumeric)',
      ]);
      expectClean(stage({}, 'test.eu-1'));
    });

    test('fails if the namespace is missing on a namespaced kind or set on a cluster-scoped one', () => {
      const s = stage();
      delete s.metadata.namespace;
      expect(linesOf(s)).toEqual(['/metadata/namespace: metadata.namespace is required for a namespaced kind']);
      expect(linesOf(project({ metadata: { name: NS, namespace: NS } }))).toEqual([
        '/metadata/namespace: metadata.namespace must not be set on a cluster-scoped kind, got "demo"',
      ]);
    });

    test('fails if metadata has a missing name, server-managed fields or a non-string annotation', () => {
      expect(linesOf(project({ metadata: { uid: 'abc', annotations: { 'acme.io/n': 1 } } }))).toEqual([
        '/metadata/annotations/acme.io~1n: annotation value must be a string, got 1',
        '/metadata/name: metadata.name is required',
        '/metadata/uid: unknown or server-managed metadata field "uid"',
      ]);
    });
  });
});
