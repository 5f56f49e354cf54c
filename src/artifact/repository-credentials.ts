import { field, prop } from '../util/code-hint';
import { describe } from '../util/errors';

/**
 * How Kargo authenticates to a repository the app reads or writes.
 */
export enum CredentialsKind {
  /** Kargo's own cloud identity; no Secret. */
  WORKLOAD_IDENTITY = 'workload-identity',
  /** A Secret whose values another system fills in (External Secrets, Vault, ...). */
  MANAGED_SECRET = 'managed-secret',
}

/**
 * Options for `RepositoryCredentials.managedSecret()`.
 */
export interface ManagedSecretOptions {
  /**
   * Where the values come from, for people reading the output (e.g.
   * `vault:kv/kargo/github-app` or `ExternalSecret kargo-ghcr (merge)`).
   */
  readonly source: string;
}

/**
 * How Kargo authenticates to one repository, never with secret values in the output.
 *
 * - `workloadIdentity()`: no Secret. Kargo finds no matching credentials Secret and falls back to
 *   its cloud identity: on EKS the controller assumes the IAM role `kargo-project-<project>`
 *   (IRSA or Pod Identity); on GKE it impersonates
 *   `kargo-project-<project>@<gcp-project>.iam.gserviceaccount.com`; on AKS it uses the
 *   controller's workload identity (grant it `AcrPull`).
 * - `managedSecret()`: a credentials Secret shell in the project namespace, labelled with
 *   `kargo.akuity.io/cred-type` and holding only `repoURL`; the username/password or GitHub App
 *   fields are merged in by the system named in `source` (e.g. an ExternalSecret with
 *   `creationPolicy: Merge`).
 *
 * @see https://docs.kargo.io/user-guide/security/managing-credentials
 *
 * @example
 * Artifact.image('registry.acme.example/api', { credentials: RepositoryCredentials.managedSecret({ source: 'vault:kv/kargo/registry' }) });
 */
export class RepositoryCredentials {
  /** Kargo's workload identity (EKS, GKE, AKS); nothing is written. */
  public static workloadIdentity(): RepositoryCredentials {
    return new RepositoryCredentials(CredentialsKind.WORKLOAD_IDENTITY, undefined, []);
  }

  /** A credentials Secret shell whose values are filled in elsewhere. */
  public static managedSecret(options: ManagedSecretOptions): RepositoryCredentials {
    const problems = (options.source ?? '').trim() === ''
      ? [describe(field(prop('managedSecret'), prop('source')), options.source, 'must say where the values come from', 'e.g. "vault:kv/kargo/github"')]
      : [];
    return new RepositoryCredentials(CredentialsKind.MANAGED_SECRET, options.source, problems);
  }

  private constructor(
    /** How Kargo authenticates. */
    public readonly kind: CredentialsKind,
    /** Where the values of a managed Secret come from. */
    public readonly source: string | undefined,
    /** @internal */
    public readonly _problems: string[]) {}
}
