import { RepositoryCredentials } from './repository-credentials';

/**
 * How an application's manifests are rendered.
 */
export enum ManifestSourceKind {
  /** A Helm chart in a Git repository, rendered with `helm template`. */
  HELM = 'helm',
  /** A Kustomize base and overlays in a Git repository, rendered with `kustomize build`. */
  KUSTOMIZE = 'kustomize',
}

/**
 * Options common to every manifest source.
 */
export interface ManifestSourceOptions {
  /** The Git repository holding the source (`https://`). */
  readonly repoUrl: string;
  /**
   * The branch whose new commits become Freight, so a values change is promoted like a new image.
   * @default 'main'
   */
  readonly branch?: string;
  /**
   * How Kargo authenticates to the repository.
   * @default - anonymous access, or whatever credentials the Kargo operators share
   */
  readonly credentials?: RepositoryCredentials;
  /**
   * Accept an `http://` repository URL. Plain HTTP sends the manifests, and Kargo's
   * credentials, in clear text: only for a repository on a trusted network.
   * @default false
   */
  readonly allowInsecureHttp?: boolean;
}
