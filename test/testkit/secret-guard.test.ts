import { describe, expect, test } from 'vitest';
import { clusterSecret, expectClean, linesOf, NS } from '../support/testkit-objects';

describe('ManifestValidator', () => {
  describe('secret material guard', () => {
    test('fails if a cluster secret carries a bearer token inside its config json', () => {
      expect(linesOf(clusterSecret({ bearerToken: 'eyJhbGciOi', tlsClientConfig: { insecure: false, caData: 'LS0tLS1CRUdJTg==' } }))).toEqual([
        '/stringData/config: secret material: stringData.config json has a value at "bearerToken"; use exec/iam-based auth instead of credentials in git',
      ]);
    });

    test('accepts exec-based cluster auth with a public ca certificate', () => {
      expectClean(clusterSecret({
        execProviderConfig: { command: 'argocd-k8s-auth', args: ['gcp'], apiVersion: 'client.authentication.k8s.io/v1beta1' },
        tlsClientConfig: { insecure: false, caData: 'LS0tLS1CRUdJTg==' },
      }));
    });

    test('fails if credentials sit in data (base64) or stringData', () => {
      const secret = {
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: { name: 'repo', namespace: NS, labels: { 'kargo.akuity.io/cred-type': 'git' } },
        data: { config: Buffer.from(JSON.stringify({ tlsClientConfig: { keyData: 'a2V5' } })).toString('base64') },
        stringData: { repoURL: 'https://github.com/acme/deploy.git', username: 'bot', password: '${GITHUB_PAT}', githubAppPrivateKey: '' },
      };
      expect(linesOf(secret)).toEqual([
        '/data/config: secret material: data.config json has a value at "tlsClientConfig.keyData"; use exec/iam-based auth instead of credentials in git',
        '/stringData/password: secret material: stringData.password carries a value; reference an identity (iam role, workload identity, exec plugin) or an external secret instead',
      ]);
    });
  });
});
