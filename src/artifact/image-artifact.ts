import { ArtifactKind, ArtifactOptions } from './artifact-kind';
import { ArtifactType, checkDiscoveryLimit, checkRegexes, nonEmpty, normalizedRepoUrl } from './artifact-type';
import { ImageSelectionStrategy, Versioning } from './versioning';
import { imageDigest, imageTag } from '../contracts/expressions';
import { imageTrailer } from '../contracts/release-record';
import { call, hint, prop } from '../util/code-hint';
import { describe, show } from '../util/errors';

/**
 * Options for `Artifact.image()`.
 */
export interface ImageArtifactOptions extends ArtifactOptions {
  /**
   * Which image versions become Freight.
   * @default Versioning.semver()
   */
  readonly versioning?: Versioning;
  /**
   * Only tags matching one of these regular expressions (Go RE2) are considered.
   * @default - every tag
   */
  readonly allowTags?: string[];
  /**
   * Tags matching one of these regular expressions (Go RE2) are ignored.
   * @default - none
   */
  readonly ignoreTags?: string[];
  /**
   * Only images for this platform (`os/arch`, e.g. `linux/amd64`) are considered.
   * @default - any platform
   */
  readonly platform?: string;
  /**
   * The Helm values key the image is injected under: `<key>.repository` and `<key>.tag`
   * (or `<key>.digest` with digest versioning).
   * @default 'image'
   */
  readonly helmValuesKey?: string;
}

// Kargo's own pattern for image repoURLs (schemas/subscriptions/image.json): no scheme, no tag.
const IMAGE_REPO = /^(\w+([.-]\w+)*(:\d+)?\/)?(\w+([.-]\w+)*)(\/\w+([.-]\w+)*)*$/;

/**
 * The image artifact `repoUrl` with `options`, validated.
 * @internal
 */
export function imageArtifact(repoUrl: string, options: ImageArtifactOptions): ArtifactType<ImageArtifactOptions> {
  const problems: string[] = [];
  const repoProblem = imageRepoProblem(repoUrl ?? '');
  if (repoProblem) problems.push(describe('image', repoUrl, repoProblem.message, repoProblem.fix));
  const versioning = options.versioning ?? Versioning.semver();
  problems.push(...versioning._problems);
  checkRegexes(problems, prop('allowTags'), options.allowTags);
  checkRegexes(problems, prop('ignoreTags'), options.ignoreTags);
  if (options.platform !== undefined && !/^\w+\/\w+$/.test(options.platform)) {
    problems.push(describe(prop('platform'), options.platform, 'must be "os/arch"', 'use e.g. "linux/amd64"'));
  }
  const key = options.helmValuesKey ?? 'image';
  if (!/^[A-Za-z_][\w-]*(\.[A-Za-z_][\w-]*)*$/.test(key)) {
    problems.push(describe(prop('helmValuesKey'), key, 'must be a dotted Helm values path', 'use e.g. "gateway.image"'));
  }
  checkDiscoveryLimit(problems, options.discoveryLimit);
  problems.push(...options.credentials?._problems ?? []);
  return new ImageArtifact(repoUrl, { ...options, versioning, helmValuesKey: key }, problems);
}

class ImageArtifact implements ArtifactType<ImageArtifactOptions> {
  public readonly kind = ArtifactKind.IMAGE;
  public readonly credentialType = 'image';
  public readonly freightNoun = 'image';
  public readonly freightFunction = 'imageFrom()';

  constructor(public readonly repoUrl: string, public readonly options: ImageArtifactOptions, public readonly problems: string[]) {}

  public get subscriptionIdentity(): string {
    return `image:${normalizedRepoUrl(this.repoUrl, false)}`;
  }

  /** Images match exactly (kargo `finder.go` `FindImage`). */
  public get freightIdentity(): string {
    return `image:${this.repoUrl}`;
  }

  /** The registry host (`docker.io` when the reference names none). */
  public get registry(): string {
    const first = this.repoUrl.split('/')[0];
    const hasHost = this.repoUrl.includes('/') && (first.includes('.') || first.includes(':') || first === 'localhost');
    return hasHost ? first : 'docker.io';
  }

  public get mutableTag(): string | undefined {
    return this.digest ? this.options.versioning!.constraint : undefined;
  }

  /** Removed fields (`allowTags`, `ignoreTags`, `semverConstraint`) are never written. */
  public subscription(): any {
    const o = this.options;
    const v = o.versioning!;
    return {
      image: {
        repoURL: this.repoUrl,
        imageSelectionStrategy: v.strategy,
        constraint: v.constraint,
        strictSemvers: v.strategy === ImageSelectionStrategy.SEMVER && v.strict === false ? false : undefined,
        allowTagsRegexes: nonEmpty(o.allowTags),
        ignoreTagsRegexes: nonEmpty(o.ignoreTags),
        platform: o.platform,
        discoveryLimit: o.discoveryLimit,
      },
    };
  }

  public commitTrailer(): string {
    return imageTrailer(this.repoUrl);
  }

  public isSourceRepository(): boolean {
    return false;
  }

  /** Both renders read every image: helm-template sets it, kustomize-set-image writes it. */
  public checkReach(): void {}

  public helmTemplateValues(): any[] {
    const key = this.options.helmValuesKey!;
    return [
      { key: `${key}.repository`, value: this.repoUrl, literal: true },
      this.digest
        ? { key: `${key}.digest`, value: imageDigest(this.repoUrl), literal: true }
        : { key: `${key}.tag`, value: imageTag(this.repoUrl), literal: true },
    ];
  }

  public kustomizeSetImage(): any {
    return this.digest ? { image: this.repoUrl, digest: imageDigest(this.repoUrl) } : { image: this.repoUrl, tag: imageTag(this.repoUrl) };
  }

  private get digest(): boolean {
    return this.options.versioning!.strategy === ImageSelectionStrategy.DIGEST;
  }
}

function imageRepoProblem(repoUrl: string): { message: string; fix: string } | undefined {
  if (/^[a-z]+:\/\//.test(repoUrl)) return { message: 'reference must not have a scheme', fix: 'drop the scheme, e.g. "ghcr.io/acme/app"' };
  if (repoUrl.includes('@')) return { message: 'reference must not have a digest', fix: hint`name the repository only; use ${call('Versioning', 'digest')} to follow a tag by digest` };
  const lastSegment = repoUrl.split('/').pop() ?? '';
  if (lastSegment.includes(':')) return { message: 'reference must not have a tag', fix: 'name the repository only; the versioning rule picks the tag' };
  if (!IMAGE_REPO.test(repoUrl)) return { message: 'reference is not a valid image repository', fix: 'use e.g. "ghcr.io/acme/app" or "registry.example.com:5000/team/app"' };
  if (repoUrl !== repoUrl.toLowerCase()) return { message: 'reference must be lowercase', fix: `use ${show(repoUrl.toLowerCase())}` };
  return undefined;
}
