import { describe, expect, test } from 'vitest';
import { ArgoCdCredentials } from '../../src';
import { formatIssues, ManifestValidator } from '../../src/testkit';
import { findSecretMaterial } from '../../src/testkit/secret-guard';
import { repositorySecrets, synthWithOwnArgoCd as synth } from '../support/release-repo-access';

describe('defineRepositorySecret', () => {
  const githubApp = ArgoCdCredentials.githubApp({ appId: 123, installationId: 456, source: 'ExternalSecret argocd-github-app (merge)' });

  test('one repository Secret per Argo CD that syncs the app: the hub\'s namespace and each cluster\'s own', () => {
    const charts = synth({ releaseRepoArgoCdCredentials: githubApp });
    const secrets = repositorySecrets(charts);
    expect(secrets.map(s => [s.chart, s.namespace]).sort()).toEqual([
      ['api', 'argo'],
      ['api--aws-prod-cpu-2', 'gitops'],
      ['api--gcp-dev-h100', 'gitops'],
    ]);
    for (const { secret } of secrets) {
      expect(secret.metadata).toMatchObject({
        name: 'api-release-repo',
        labels: { 'argocd.argoproj.io/secret-type': 'repository' },
        annotations: { 'gitops-platform.io/credentials-source': 'ExternalSecret argocd-github-app (merge)' },
      });
      // the url is the one the Applications read, scoped to the app's AppProject
      expect(secret.stringData).toEqual({ type: 'git', url: 'https://github.com/acme/releases.git', project: 'api', githubAppID: '123', githubAppInstallationID: '456' });
      expect(findSecretMaterial(secret)).toEqual([]);
    }
    const sources = charts.flatMap(c => c.objects).flatMap(o => o.kind === 'Application' ? [o.spec.source.repoURL]
      : o.kind === 'ApplicationSet' ? [o.spec.template.spec.source.repoURL] : []);
    expect(new Set(sources)).toEqual(new Set([secrets[0].secret.stringData.url]));
    expect(formatIssues(ManifestValidator.load().validateObjects(charts.flatMap(c => c.objects)))).toBe('');
  });

  test('nothing is declared by default', () => {
    expect(repositorySecrets(synth({}))).toEqual([]);
  });
});
