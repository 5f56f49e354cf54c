import * as fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { modelApplications, renderTemplate } from '../../../src/testkit/model/argocd-applications';
import { selectorMatches } from '../../../src/testkit/model/kargo-steps';

describe('renderTemplate', () => {
  const params = { name: 'c1', metadata: { labels: { tier: 'prod' } }, values: { ns: 'team-a' } };

  test('renders paths and index expressions at any depth, and leaves other expressions as written', () => {
    const template = {
      metadata: { name: 'app-{{ .name }}', labels: { tier: '{{ index .metadata.labels "tier" }}' } },
      spec: { destination: { namespace: '{{.values.ns}}' }, list: ['{{ .name }}', 3, true, null], other: '{{ .name | upper }}' },
    };
    expect(renderTemplate(template, params)).toEqual({
      metadata: { name: 'app-c1', labels: { tier: 'prod' } },
      spec: { destination: { namespace: 'team-a' }, list: ['c1', 3, true, null], other: '{{ .name | upper }}' },
    });
  });

  test('keeps a `__proto__` key of the YAML as a member, not as the prototype', () => {
    const template = JSON.parse('{"__proto__": {"name": "{{ .name }}"}, "b": "x"}');
    const rendered = renderTemplate(template, params);
    expect(Object.getPrototypeOf(rendered)).toBe(Object.prototype);
    expect(Object.keys(rendered)).toEqual(['__proto__', 'b']);
    expect(Object.getOwnPropertyDescriptor(rendered, '__proto__')?.value).toEqual({ name: 'c1' });
  });
});

describe('modelApplications', () => {
  const secret = (name: string, tier: string) => ({
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name, namespace: 'argocd', labels: { 'argocd.argoproj.io/secret-type': 'cluster', tier } },
    stringData: { name, server: `https://${name}.example.com` },
  });
  const appSet = {
    apiVersion: 'argoproj.io/v1alpha1',
    kind: 'ApplicationSet',
    metadata: { name: 'web', namespace: 'argocd' },
    spec: {
      generators: [{ clusters: { selector: { matchLabels: { tier: 'prod' } }, values: { ns: 'web-{{ .name }}' } } }],
      template: {
        metadata: { name: 'web-{{ .name }}' },
        spec: { project: 'web', destination: { server: '{{ .server }}', namespace: '{{ .values.ns }}' }, source: { repoURL: 'https://git.example.com/web.git' } },
      },
    },
  };

  test('generates one Application per selected cluster, with the values rendered per cluster', () => {
    const apps = modelApplications([secret('c1', 'prod'), secret('c2', 'dev'), secret('c3', 'prod'), appSet]);
    expect(apps.map(a => [a.name, a.destination])).toEqual([
      ['web-c1', { server: 'https://c1.example.com', namespace: 'web-c1' }],
      ['web-c3', { server: 'https://c3.example.com', namespace: 'web-c3' }],
    ]);
    expect(apps[0].sources).toEqual([{ repoURL: 'https://git.example.com/web.git' }]);
  });

  // Argo CD v3.5.1's validateGeneratedApplications keys its error by the qualified name, and
  // Reconcile writes only names without one: both Applications of a duplicated name are dropped
  // (conformance/controllers/argocd TestOneNameGeneratedTwiceIsDroppedEntirely runs that code).
  test('a name one ApplicationSet generates twice: Argo CD writes neither', () => {
    const oneName = { ...appSet, spec: { ...appSet.spec, template: { ...appSet.spec.template, metadata: { name: 'web' } } } };
    const objects = [secret('c1', 'prod'), secret('c3', 'prod'), oneName];
    expect(modelApplications(objects)).toEqual([]);
    expect(modelApplications(objects, { keepDuplicates: true }).map(a => a.name)).toEqual(['web', 'web']);
  });

  test('placementOnly keeps where each Application runs and drops the rest of the template', () => {
    const apps = modelApplications([secret('c1', 'prod'), appSet], { placementOnly: true });
    expect(apps).toHaveLength(1);
    expect(apps[0]).toMatchObject({ name: '', namespace: 'argocd', project: 'web', sources: [], destination: { server: 'https://c1.example.com', namespace: 'web-c1' } });
  });

  test('an In selector picks its clusters in the Secrets\' order, whatever the order of its values', () => {
    const secrets = ['a', 'b', 'c'].map(tier => secret(`c-${tier}`, tier));
    const set = { ...appSet, spec: { ...appSet.spec, generators: [{ clusters: { selector: { matchExpressions: [{ key: 'tier', operator: 'In', values: ['c', 'a', 'c'] }] } } }] } };
    expect(modelApplications([...secrets, set], { placementOnly: true }).map(a => (a.destination as any).server))
      .toEqual(['https://c-a.example.com', 'https://c-c.example.com']);
  });

  test('property: a generator selects exactly the Secrets its selector matches, in the Secrets\' order', () => {
    const value = fc.constantFrom('a', 'b', 'c', 'd');
    const labels = fc.dictionary(fc.constantFrom('tier', 'ring', 'gitops-platform.io/cluster'), value, { maxKeys: 3 });
    const requirement = fc.record({
      key: fc.constantFrom('tier', 'ring', 'gitops-platform.io/cluster'),
      operator: fc.constantFrom('In', 'NotIn', 'Exists', 'DoesNotExist'),
      values: fc.array(value, { maxLength: 3 }),
    });
    const selector = fc.option(fc.record({
      matchLabels: fc.option(labels, { nil: undefined }),
      matchExpressions: fc.option(fc.array(requirement, { maxLength: 3 }), { nil: undefined }),
    }, { requiredKeys: [] }), { nil: undefined });
    fc.assert(fc.property(fc.array(labels, { maxLength: 8 }), selector, (clusterLabels, sel) => {
      const secrets = clusterLabels.map((l, i) => ({
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: { name: `c${i}`, labels: { ...l, 'argocd.argoproj.io/secret-type': 'cluster' } },
        stringData: { name: `c${i}`, server: `https://c${i}` },
      }));
      const set = { ...appSet, spec: { ...appSet.spec, generators: [{ clusters: { selector: sel } }] } };
      const expected = secrets.filter(s => !sel || Object.keys(sel).length === 0 || selectorMatches(sel, s.metadata.labels))
        .map(s => s.stringData.server);
      expect(modelApplications([...secrets, set], { placementOnly: true }).map(a => (a.destination as any).server)).toEqual(expected);
    }), { numRuns: 400 });
  });
});
