import { describe, expect, test } from 'vitest';
import { Artifact, ManifestSource, PlatformApp, RepositoryCredentials } from '../../src';
import { define } from '../support/define-app';
import { appProps, ofKind, world } from '../support/fixtures';

describe('repository credentials', () => {
  test('managed Secrets are labelled shells with the repository URL and no secret values; workload identity writes nothing', () => {
    const { objects } = define(() => ({
      artifacts: [
        Artifact.image('registry.acme.example/team/api', { credentials: RepositoryCredentials.managedSecret({ source: 'vault:kv/registry' }) }),
        Artifact.image('123456789012.dkr.ecr.us-east-1.amazonaws.com/team/worker', { credentials: RepositoryCredentials.workloadIdentity(), helmValuesKey: 'worker.image' }),
      ],
      releaseRepoCredentials: RepositoryCredentials.managedSecret({ source: 'ExternalSecret github-app (merge)' }),
    }));
    const secrets = ofKind(objects, 'Secret');
    expect(secrets).toEqual([
      {
        apiVersion: 'v1',
        kind: 'Secret',
        type: 'Opaque',
        metadata: {
          name: 'creds-git-github-com-acme-releases',
          namespace: 'api',
          labels: { 'kargo.akuity.io/cred-type': 'git', 'gitops-platform.io/app': 'api' },
          annotations: { 'gitops-platform.io/credentials-source': 'ExternalSecret github-app (merge)' },
        },
        stringData: { repoURL: 'https://github.com/acme/releases.git' },
      },
      {
        apiVersion: 'v1',
        kind: 'Secret',
        type: 'Opaque',
        metadata: {
          name: 'creds-image-registry-acme-example-team-api',
          namespace: 'api',
          labels: { 'kargo.akuity.io/cred-type': 'image', 'gitops-platform.io/app': 'api' },
          annotations: { 'gitops-platform.io/credentials-source': 'vault:kv/registry' },
        },
        stringData: { repoURL: 'registry.acme.example/team/api' },
      },
    ]);
  });

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

  test('fails if a managed Secret does not say where its values come from', () => {
    const w = world();
    expect(() => new PlatformApp(w.app, 'api', appProps(w, { releaseRepoCredentials: RepositoryCredentials.managedSecret({ source: '' }) })))
      .toThrow(/releaseRepoCredentials: managedSecret source must say where the values come from/);
  });
});
