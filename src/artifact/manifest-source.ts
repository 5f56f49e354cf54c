import { Artifact } from './artifact';
import { ArtifactType } from './artifact-type';
import { sourceGitArtifact } from './git-artifact';
import { helmSource, HelmSourceOptions } from './helm-source';
import { kustomizeSource, KustomizeSourceOptions } from './kustomize-source';
import { ManifestSourceKind } from './manifest-source-kind';
import { RepositoryCredentials } from './repository-credentials';
import { SourceType } from './source-type';

// Each kind owns its behaviour in its own file (helm-source.ts, kustomize-source.ts, behind
// SourceType); a new kind adds its file, a factory here, its ManifestSourceKind member and the
// re-export of its options below.

// The public types of the kinds, re-exported so that index.ts names this module only and none of
// the kinds' @internal helpers becomes API.
export { ManifestSourceKind } from './manifest-source-kind';
export type { ManifestSourceOptions } from './manifest-source-kind';
export type { HelmSourceOptions } from './helm-source';
export type { KustomizeSourceOptions } from './kustomize-source';

/**
 * Where an application's manifests come from and how they are rendered for each cluster.
 * Every promotion renders them once per target cluster into the release branch.
 *
 * @example
 * ManifestSource.helm({ repoUrl: 'https://github.com/acme/deploy.git', path: 'charts/api', valuesFiles: ['values/{stage}.yaml'] });
 */
export class ManifestSource {
  /**
   * A Helm chart kept in a Git repository. Images are injected from Freight with `--set`, and
   * each cluster's name, region, provider, accelerator and tier are set under `platform.*`.
   */
  public static helm(options: HelmSourceOptions): ManifestSource {
    return new ManifestSource(helmSource(options));
  }

  /**
   * A Kustomize base and overlays kept in a Git repository. Images are set in the base with
   * `kustomize-set-image`; each cluster's overlay is built with `kustomize build`.
   */
  public static kustomize(options: KustomizeSourceOptions): ManifestSource {
    return new ManifestSource(kustomizeSource(options));
  }

  private constructor(
    /** What the kind knows about itself, its options included (no option bag is public API). @internal */
    public readonly _type: SourceType) {}

  /** How the manifests are rendered. */
  public get kind(): ManifestSourceKind {
    return this._type.kind;
  }

  /** The Git repository of the source. */
  public get repoUrl(): string {
    return this._type.repoUrl;
  }

  /** The branch whose commits become Freight. */
  public get branch(): string {
    return this._type.branch;
  }

  /** @internal */
  public get _problems(): string[] {
    return this._type.problems;
  }

  /** How Kargo authenticates to the repository, if declared. */
  public get credentials(): RepositoryCredentials | undefined {
    return this._type.options.credentials;
  }

  /** The repository paths whose changes become Freight. */
  public get watchedPaths(): string[] {
    return this._type.watchedPaths;
  }
}

/**
 * The git artifact that subscribes to the source's repository, if the app declares one; otherwise
 * the Warehouse subscribes to the source implicitly (its branch and watched paths).
 * @internal
 */
export function sourceArtifact(source: ManifestSource, artifacts: Artifact[]): Artifact | undefined {
  return artifacts.find(a => a._type.isSourceRepository(source.repoUrl));
}

/**
 * What the app's Warehouse subscribes to, in order: every artifact, then the source's repository
 * (so a values change becomes Freight like a new image) unless an artifact already subscribes to
 * it, as a git artifact following the source's branch and watched paths.
 * @internal
 */
export function warehouseArtifacts(source: ManifestSource, artifacts: Artifact[]): ArtifactType[] {
  const explicit = artifacts.map(a => a._type);
  return sourceArtifact(source, artifacts) ? explicit : [...explicit, sourceSubscription(source)];
}

/** The source's repository as the git artifact the Warehouse subscribes to when the app declares none. @internal */
export function sourceSubscription(source: ManifestSource): ArtifactType {
  return sourceGitArtifact(source.repoUrl, source.branch, source.watchedPaths);
}
