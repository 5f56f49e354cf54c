import { describe, expect, test } from 'vitest';
import { ArgoCdCredentials, PlatformApp } from '../../src';
import { appProps, errorOf, world } from '../support/fixtures';
import { repositorySecrets, synthWithOwnArgoCd as synth } from '../support/release-repo-access';

describe('Argo CD read access to the release repository', () => {
  test('Azure workload identity needs nothing filled in; a managed Secret is a shell', () => {
    const [azure] = repositorySecrets(synth({ releaseRepoArgoCdCredentials: ArgoCdCredentials.azureWorkloadIdentity() }));
    expect(azure.secret.stringData).toEqual({ type: 'git', url: 'https://github.com/acme/releases.git', project: 'api', useAzureWorkloadIdentity: 'true' });
    expect(azure.secret.metadata.annotations).toBeUndefined();
    const [managed] = repositorySecrets(synth({ releaseRepoArgoCdCredentials: ArgoCdCredentials.managedSecret({ source: 'vault:kv/argocd/releases' }) }));
    expect(managed.secret.stringData).toEqual({ type: 'git', url: 'https://github.com/acme/releases.git', project: 'api' });
  });

  test('fails if the GitHub App ids or the source are missing', () => {
    const bad = ArgoCdCredentials.githubApp({ appId: 0, installationId: 1.5, enterpriseBaseUrl: 'http://ghe.acme.com', source: ' ' });
    const message = errorOf(() => synth({ releaseRepoArgoCdCredentials: bad }));
    expect(message).toContain('releaseRepoArgoCdCredentials: githubApp source must say where the secret fields come from, got " "; e.g. "ExternalSecret argocd-releases (merge)"');
    expect(message).toContain('releaseRepoArgoCdCredentials: githubApp appId must be a whole number above 0, got 0; copy it from the App\'s settings page');
    expect(message).toContain('releaseRepoArgoCdCredentials: githubApp installationId must be a whole number above 0, got 1.5');
    expect(message).toContain('releaseRepoArgoCdCredentials: githubApp enterpriseBaseUrl must be an https:// URL without credentials, got "http://ghe.acme.com"');
  });
});

describe('a GitHub App reads only GitHub', () => {
  const app = (releaseRepo: string, enterpriseBaseUrl?: string) => errorOrNothing(() => {
    const w = world();
    new PlatformApp(w.app, 'api', appProps(w, {
      releaseRepo,
      releaseRepoArgoCdCredentials: ArgoCdCredentials.githubApp({ appId: 1, installationId: 2, enterpriseBaseUrl, source: 'ExternalSecret argocd-github-app (merge)' }),
    }));
  });

  test('fails for a release repository on another host: Argo CD asks api.github.com (or the Enterprise API) for the token', () => {
    expect(app('https://gitlab.com/acme/releases.git')).toMatch(/^PlatformApp 'api': releaseRepoArgoCdCredentials is a GitHub App, which authenticates only to github.com \(or to the GitHub Enterprise host of enterpriseBaseUrl\), but the release repository is on gitlab.com, got "github-app"; use ArgoCdCredentials.managedSecret/);
    expect(app('https://git.acme.example/acme/releases.git', 'https://ghe.acme.example/api/v3')).toMatch(/is a GitHub App of the GitHub Enterprise at ghe.acme.example, but the release repository is on git.acme.example/);
  });

  test('github.com, and a GitHub Enterprise repository on the host of enterpriseBaseUrl (or its api. host), are accepted', () => {
    expect(app('https://github.com/acme/releases.git')).toBe('');
    expect(app('https://ghe.acme.example/acme/releases.git', 'https://ghe.acme.example/api/v3')).toBe('');
    expect(app('https://ghe.acme.example/acme/releases.git', 'https://api.ghe.acme.example')).toBe('');
  });
});

function errorOrNothing(fn: () => unknown): string {
  try {
    fn();
    return '';
  } catch (e) {
    return (e as Error).message;
  }
}
