import { ArtifactKind } from './artifact-kind';
import { ArtifactType } from './artifact-type';
import { chartArtifact, HelmChartArtifactOptions } from './chart-artifact';
import { gitArtifact, GitArtifactOptions } from './git-artifact';
import { imageArtifact, ImageArtifactOptions } from './image-artifact';
import { RepositoryCredentials } from './repository-credentials';

// Each kind owns its behaviour in its own file (image-artifact.ts, chart-artifact.ts,
// git-artifact.ts, behind ArtifactType); a new kind adds its file, a factory here, its
// ArtifactKind member and the re-export of its options below.

// The public types of the kinds, re-exported so that index.ts names this module only and none of
// the kinds' @internal helpers becomes API.
export { ArtifactKind } from './artifact-kind';
export { GitCommitSelection } from './git-artifact';
export type { ArtifactOptions } from './artifact-kind';
export type { GitArtifactOptions } from './git-artifact';
export type { HelmChartArtifactOptions } from './chart-artifact';
export type { ImageArtifactOptions } from './image-artifact';

/**
 * Something a release is made of: a container image, a Helm chart or a Git repository.
 * An app's artifacts are promoted together as one Kargo Freight.
 *
 * @example
 * Artifact.image('ghcr.io/acme/api', { versioning: Versioning.semver('^2.0.0') });
 */
export class Artifact {
  /**
   * A container image repository, e.g. `ghcr.io/acme/gateway` (no tag: the versioning rule
   * picks it).
   */
  public static image(repoUrl: string, options: ImageArtifactOptions = {}): Artifact {
    const type = imageArtifact(repoUrl, options);
    return new Artifact(type);
  }

  /**
   * A Helm chart from a chart repository: `https://` with a chart name, or `oci://` with the
   * chart in the URL.
   */
  public static helmChart(repoUrl: string, options: HelmChartArtifactOptions = {}): Artifact {
    const type = chartArtifact(repoUrl, options);
    return new Artifact(type);
  }

  /**
   * A Git repository (`https://`), e.g. configuration that is promoted with the release.
   */
  public static git(repoUrl: string, options: GitArtifactOptions = {}): Artifact {
    const type = gitArtifact(repoUrl, options);
    return new Artifact(type);
  }

  private constructor(
    /** What the kind knows about itself, its options included (no option bag is public API). @internal */
    public readonly _type: ArtifactType) {}

  /** The kind of artifact. */
  public get kind(): ArtifactKind {
    return this._type.kind;
  }

  /** The repository URL. */
  public get repoUrl(): string {
    return this._type.repoUrl;
  }

  /** @internal */
  public get _problems(): string[] {
    return this._type.problems;
  }

  /** How Kargo authenticates to the repository, if declared. */
  public get credentials(): RepositoryCredentials | undefined {
    return this._type.options.credentials;
  }

  /**
   * The registry host of an image (`docker.io` when the reference names none).
   */
  public get registry(): string | undefined {
    return this._type.registry;
  }
}
