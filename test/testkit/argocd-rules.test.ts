import { describe, expect, test } from 'vitest';
import { application, applicationSet, ARGO, expectClean, linesOf } from '../support/testkit-objects';

describe('Argo CD admission rules', () => {
  test('fails if authorized-stage uses a wildcard', () => {
    expect(linesOf(application('demo:*'))).toEqual([
      '/metadata/annotations/kargo.akuity.io~1authorized-stage: authorized-stage entry "demo:*" contains "*": wildcards are not supported, list every <project>:<stage>',
    ]);
    expect(linesOf(applicationSet({}, { 'kargo.akuity.io/authorized-stage': '*:{{stage}}' }))).toEqual([
      '/spec/template/metadata/annotations/kargo.akuity.io~1authorized-stage: authorized-stage entry "*:{{stage}}" contains "*": wildcards are not supported, list every <project>:<stage>',
    ]);
    const generatorTemplate = { metadata: { annotations: { 'kargo.akuity.io/authorized-stage': 'demo:prod-*' } }, spec: { project: 'default', destination: {} } };
    expect(linesOf(applicationSet({ generators: [{ list: { elements: [{ stage: 'prod-eu' }], template: generatorTemplate } }] }))).toEqual([
      '/spec/generators/0/list/template/metadata/annotations/kargo.akuity.io~1authorized-stage: authorized-stage entry "demo:prod-*" contains "*": wildcards are not supported, list every <project>:<stage>',
    ]);
  });

  test('fails if a generator gives a wholly templated authorized-stage a bad value, or none', () => {
    const annotations = { 'kargo.akuity.io/authorized-stage': '{{ .values.authorizedStage }}' };
    const clusters = (values?: Record<string, string>) => ({ clusters: { selector: { matchLabels: { env: 'dev' } }, ...(values ? { values } : {}) } });
    expectClean(applicationSet({ generators: [clusters({ authorizedStage: 'demo:test' }), clusters({ authorizedStage: 'demo:prod' })] }, annotations));
    expect(linesOf(applicationSet({ generators: [clusters({ authorizedStage: 'demo:*' }), clusters()] }, annotations))).toEqual([
      '/spec/generators/0/clusters/values/authorizedStage: authorized-stage entry "demo:*" contains "*": wildcards are not supported, list every <project>:<stage>',
      '/spec/generators/1/clusters/values/authorizedStage: the template\'s authorized-stage "{{ .values.authorizedStage }}" needs "values.authorizedStage", which this generator does not give',
    ]);
  });

  test('accepts a comma list of authorized stages and rejects malformed entries', () => {
    expectClean(application('demo:test, demo:test-eu'));
    expect(linesOf(application('demo:test,,demo'))).toEqual([
      '/metadata/annotations/kargo.akuity.io~1authorized-stage: authorized-stage entry "" in "demo:test,,demo" is not <project>:<stage>',
      '/metadata/annotations/kargo.akuity.io~1authorized-stage: authorized-stage entry "demo" in "demo:test,,demo" is not <project>:<stage>',
    ]);
  });

  test('fails if an applicationset generator item holds two generators', () => {
    const appSet = applicationSet({ generators: [{ list: { elements: [] }, clusters: { selector: { matchLabels: { env: 'dev' } } } }] });
    expect(linesOf(appSet)).toEqual(['/spec/generators/0: generator item must have exactly one generator (clusterDecisionResource, clusters, git, list, matrix, merge, plugin, pullRequest, scmProvider), found list, clusters']);
  });

  test('checks nested matrix generators, which the crd leaves untyped', () => {
    const nested = { matrix: { generators: [{ clusters: {} }, { list: { elements: [] }, lists: {} }] } };
    const appSet = applicationSet({ generators: [{ matrix: { generators: [{ git: { repoURL: 'https://github.com/acme/x.git', revision: 'HEAD' } }, nested] } }] });
    expect(linesOf(appSet)).toEqual([
      '/spec/generators/0/matrix/generators/1/matrix/generators/1/lists: unknown field "lists" in a nested generator',
    ]);
  });

  test('warns if an appproject whitelists no namespaced resources', () => {
    const appProject = (spec: Record<string, unknown>) => ({ apiVersion: ARGO, kind: 'AppProject', metadata: { name: 'demo', namespace: 'argocd' }, spec });
    expect(linesOf(appProject({ namespaceResourceWhitelist: [] }))).toEqual([
      '/spec/namespaceResourceWhitelist: warning: an empty namespaceResourceWhitelist ([]) forbids every namespaced resource; omit the field to allow all',
    ]);
    expectClean(appProject({ sourceRepos: ['https://github.com/acme/*'], namespaceResourceWhitelist: [{ group: '*', kind: '*' }] }));
  });
});
