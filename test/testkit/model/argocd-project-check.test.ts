import { describe, expect, test } from 'vitest';
import { findingCodes, simulateControllers } from '../../../src/testkit';
import { CLUSTERS, only } from '../../support/controller-model';
import { appProject, directStage, NS, RELEASE, world } from '../../support/testkit-model-fixtures';

describe('controller model: Argo CD', () => {
  test('fails if CreateNamespace=true and the AppProject does not permit Namespace', () => {
    const findings = simulateControllers(world([directStage('dev', CLUSTERS)], { project: appProject({ clusterResourceWhitelist: undefined }) }));
    expect(only(findings, 'namespace-not-permitted')).toEqual([
      'namespace-not-permitted ApplicationSet/shop-dev /spec/template/spec/syncPolicy/syncOptions: CreateNamespace=true makes Argo CD create Namespace "shop", but AppProject shop has no clusterResourceWhitelist entry matching group "" kind Namespace name "shop": every first sync fails with "resource :Namespace is not permitted in project shop" (Applications shop-east, shop-west)',
    ]);
  });

  test('fails if the whitelist name glob does not match the namespace; passes when it does', () => {
    const miss = simulateControllers(world([directStage('dev', CLUSTERS)], { project: appProject({ clusterResourceWhitelist: [{ group: '', kind: 'Namespace', name: 'team-*' }] }) }));
    expect(findingCodes(miss)).toEqual(['namespace-not-permitted']);
    const hit = simulateControllers(world([directStage('dev', CLUSTERS)], { project: appProject({ clusterResourceWhitelist: [{ group: '', kind: 'Namespace', name: 'sh?p' }] }) }));
    expect(findingCodes(hit)).toEqual([]);
  });

  test('fails if the destination or the source repository is not permitted', () => {
    const findings = simulateControllers(world([directStage('dev', CLUSTERS)], { project: appProject({ destinations: [{ name: 'east', namespace: NS }], sourceRepos: ['https://github.com/other/*'] }) }));
    expect(findingCodes(findings)).toEqual(['destination-not-permitted', 'source-repo-not-permitted']);
    expect(only(findings, 'destination-not-permitted')[0]).toContain('(Application shop-west)');
  });

  test('a repository Secret scoped to the project permits its repository, as Argo CD adds it to sourceRepos; one in another namespace does not', () => {
    const scoped = (namespace: string) => ({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'release-repo', namespace, labels: { 'argocd.argoproj.io/secret-type': 'repository' } },
      stringData: { project: NS, type: 'git', url: RELEASE },
    });
    const closed = { project: appProject({ sourceRepos: [] }) };
    const objects = (namespace: string) => [...world([directStage('dev', CLUSTERS)], closed), scoped(namespace)];
    expect(findingCodes(simulateControllers(world([directStage('dev', CLUSTERS)], closed)))).toEqual(['source-repo-not-permitted']);
    expect(findingCodes(simulateControllers(objects('argocd')))).toEqual([]);
    expect(findingCodes(simulateControllers(objects('other')))).toEqual(['source-repo-not-permitted']);
  });

});
