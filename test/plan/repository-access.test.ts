import { describe, expect, test } from 'vitest';
import { ManifestSource, PlatformApp, RepositoryCredentials } from '../../src';
import { define } from '../support/define-app';
import { appProps, ofKind, world } from '../support/fixtures';

describe('repositoryAccesses', () => {
  test('fails if one repository gets two kinds of credentials', () => {
    const w = world();
    expect(() => new PlatformApp(w.app, 'api', appProps(w, {
      releaseRepo: 'https://github.com/acme/api.git',
      releaseRepoCredentials: RepositoryCredentials.workloadIdentity(),
      source: ManifestSource.helm({ repoUrl: 'https://github.com/acme/api.git', path: 'chart', credentials: RepositoryCredentials.managedSecret({ source: 'vault:x' }) }),
    }))).toThrow(/repository https:\/\/github.com\/acme\/api.git credentials are given differently in two places, got managed-secret and workload-identity; declare one/);
  });

  test('one repository spelled two ways gets one managed Secret (Kargo matches credentials by normalized URL)', () => {
    const github = RepositoryCredentials.managedSecret({ source: 'vault:kv/kargo/github' });
    const { objects } = define(() => ({
      source: ManifestSource.helm({ repoUrl: 'https://github.com/acme/api.git', path: 'chart', credentials: github }),
      releaseRepo: 'https://github.com/acme/api',
      releaseRepoCredentials: github,
    }));
    expect(ofKind(objects, 'Secret').map(o => o.metadata.name)).toEqual(['creds-git-github-com-acme-api']);
  });

  test('fails if two repositories would share a managed Secret\'s name', () => {
    const w = world();
    const github = RepositoryCredentials.managedSecret({ source: 'vault:kv/kargo/github' });
    expect(() => new PlatformApp(w.app, 'api', appProps(w, {
      source: ManifestSource.helm({ repoUrl: 'https://github.com/acme/api-x.git', path: 'chart', credentials: github }),
      releaseRepo: 'https://github.com/acme/api.x',
      releaseRepoCredentials: github,
    }))).toThrow(/credentials Secret "creds-git-github-com-acme-api-x" would be shared by two repositories, .*, got repositories https:\/\/github.com\/acme\/api-x.git and https:\/\/github.com\/acme\/api.x; use workload identity/);
  });
});
