import { describe, expect, test } from 'vitest';
import { Artifact, RepositoryCredentials } from '../../src';
import { define } from '../support/define-app';
import { ofKind } from '../support/fixtures';

describe('defineCredentialSecrets', () => {
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
});
