import { k8s } from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { CredentialsKind } from '../artifact/repository-credentials';
import { PlatformLabels } from '../contracts/labels';
import { credentialSecretName, RepositoryAccess } from '../plan/repository-access';

/**
 * Credential Secret shells for the repositories whose credentials are managed elsewhere: the
 * label Kargo looks for and the repository URL, no secret values.
 * @internal
 */
export function defineCredentialSecrets(scope: Construct, app: string, namespace: string, accesses: RepositoryAccess[]): void {
  for (const access of accesses.filter(a => a.credentials.kind === CredentialsKind.MANAGED_SECRET)) {
    const name = credentialSecretName(access);
    new k8s.KubeSecret(scope, `Credentials-${name}`, {
      metadata: {
        name,
        namespace,
        labels: { 'kargo.akuity.io/cred-type': access.credType, [PlatformLabels.APP]: app },
        annotations: { 'gitops-platform.io/credentials-source': access.credentials.source! },
      },
      type: 'Opaque',
      stringData: { repoURL: access.repoUrl },
    });
  }
}
