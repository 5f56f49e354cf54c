import { RepositoryCredentials } from './repository-credentials';

/**
 * What kind of artifact Kargo subscribes to.
 */
export enum ArtifactKind {
  /** A container image repository. */
  IMAGE = 'image',
  /** A Helm chart repository (`https://` or `oci://`). */
  HELM_CHART = 'chart',
  /** A Git repository. */
  GIT = 'git',
}

/**
 * Options common to every artifact.
 */
export interface ArtifactOptions {
  /**
   * How many candidate versions Kargo keeps (1–100).
   * @default 20
   */
  readonly discoveryLimit?: number;
  /**
   * How Kargo authenticates to the repository.
   * @default - anonymous access, or whatever credentials the Kargo operators share
   */
  readonly credentials?: RepositoryCredentials;
  /**
   * Accept an `http://` repository URL (Git and Helm chart repositories). Plain HTTP sends the
   * content, and Kargo's credentials, in clear text: only for a repository on a trusted network.
   * @default false
   */
  readonly allowInsecureHttp?: boolean;
}
