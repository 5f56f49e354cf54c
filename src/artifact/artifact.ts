import { re2Problem } from './regex';
import { RepositoryCredentials } from './repository-credentials';
import { semverConstraintProblem, Versioning } from './versioning';
import { describe, show } from '../util/errors';
import { normalizeRepoPath, repoPathProblem } from '../util/repo-paths';
import { urlDefect } from '../util/urls';

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

/**
 * Options for `Artifact.helmChart()`.
 */
export interface HelmChartArtifactOptions extends ArtifactOptions {
  /**
   * The chart's name: required for `https://` repositories, must be omitted for `oci://`
   * ones (the name is part of the URL).
   * @default - none (OCI)
   */
  readonly name?: string;
  /**
   * Which chart versions become Freight (Masterminds SemVer constraint).
   * @default - every version
   */
  readonly semver?: string;
  /**
   * The name under which the source's umbrella chart depends on this chart; the promotion
   * updates that dependency's version (`helm-update-chart`).
   * @default - the chart's name (last path segment for OCI)
   */
  readonly dependencyName?: string;
}

/**
 * Which commits of a Git repository become Freight.
 */
export enum GitCommitSelection {
  /** The newest commit of a branch. */
  NEWEST_FROM_BRANCH = 'NewestFromBranch',
  /** The commit of the highest semantic version tag. */
  SEMVER = 'SemVer',
  /** The commit of the lexically greatest tag. */
  LEXICAL = 'Lexical',
  /** The commit of the most recently created tag. */
  NEWEST_TAG = 'NewestTag',
}

/**
 * Options for `Artifact.git()`.
 */
export interface GitArtifactOptions extends ArtifactOptions {
  /**
   * Which commits become Freight.
   * @default GitCommitSelection.NEWEST_FROM_BRANCH
   */
  readonly selection?: GitCommitSelection;
  /**
   * The branch, for `NEWEST_FROM_BRANCH`.
   * @default 'main'
   */
  readonly branch?: string;
  /**
   * The tag constraint, for `SEMVER` (Masterminds SemVer syntax).
   * @default - every semantic version tag
   */
  readonly semver?: string;
  /**
   * Only tags matching one of these regular expressions (Go RE2), for tag selections.
   * @default - every tag
   */
  readonly allowTags?: string[];
  /**
   * Tags matching one of these regular expressions (Go RE2) are ignored, for tag selections.
   * @default - none
   */
  readonly ignoreTags?: string[];
  /**
   * Only commits touching these paths count (exact paths, `glob:` or `regex:` prefixed).
   * @default - every path
   */
  readonly includePaths?: string[];
  /**
   * Commits touching only these paths are ignored (exact paths, `glob:` or `regex:` prefixed).
   * @default - none
   */
  readonly excludePaths?: string[];
  /**
   * Where the render reads this repository: a directory of the source repository (relative to
   * its root, no tokens) into which the Freight's commit of this repository is checked out
   * before every render. The directory must not exist in the source repository. For a Helm
   * source it must lie inside the chart directory, which Helm loads whole, so templates read it
   * with `.Files` and `valuesFiles` can name files in it; a Kustomize base or overlay
   * references it as a directory.
   * @default - not checked out; only the git artifact of the source repository itself may omit
   * it (any other git artifact would be subscribed but never read, so synth fails)
   */
  readonly checkoutPath?: string;
}

// Kargo's own pattern for image repoURLs (schemas/subscriptions/image.json): no scheme, no tag.
const IMAGE_REPO = /^(\w+([.-]\w+)*(:\d+)?\/)?(\w+([.-]\w+)*)(\/\w+([.-]\w+)*)*$/;
const GIT_BRANCH = /^[a-zA-Z0-9]([a-zA-Z0-9._/-]*[a-zA-Z0-9_-])?$/;

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
    const problems: string[] = [];
    const repoProblem = imageRepoProblem(repoUrl ?? '');
    if (repoProblem) problems.push(describe('image', repoUrl, repoProblem.message, repoProblem.fix));
    const versioning = options.versioning ?? Versioning.semver();
    problems.push(...versioning._problems);
    checkRegexes(problems, 'allowTags', options.allowTags);
    checkRegexes(problems, 'ignoreTags', options.ignoreTags);
    if (options.platform !== undefined && !/^\w+\/\w+$/.test(options.platform)) {
      problems.push(describe('platform', options.platform, 'must be "os/arch"', 'use e.g. "linux/amd64"'));
    }
    const key = options.helmValuesKey ?? 'image';
    if (!/^[A-Za-z_][\w-]*(\.[A-Za-z_][\w-]*)*$/.test(key)) {
      problems.push(describe('helmValuesKey', key, 'must be a dotted Helm values path', 'use e.g. "gateway.image"'));
    }
    checkDiscoveryLimit(problems, options.discoveryLimit);
    problems.push(...options.credentials?._problems ?? []);
    return new Artifact(ArtifactKind.IMAGE, repoUrl, { ...options, versioning, helmValuesKey: key }, {}, {}, problems);
  }

  /**
   * A Helm chart from a chart repository: `https://` with a chart name, or `oci://` with the
   * chart in the URL.
   */
  public static helmChart(repoUrl: string, options: HelmChartArtifactOptions = {}): Artifact {
    const problems: string[] = [];
    let url: URL | undefined;
    try {
      url = new URL(repoUrl);
    } catch {
      url = undefined;
    }
    const oci = url?.protocol === 'oci:';
    const defect = urlDefect(`${repoUrl}`, { schemes: options.allowInsecureHttp ? ['https:', 'http:', 'oci:'] : ['https:', 'oci:'] });
    if (defect === 'credentials') {
      problems.push(describe('helm chart repoUrl', repoUrl, CREDENTIALS_IN_URL, 'remove them from the URL and pass { credentials }'));
    } else if (url?.protocol === 'http:' && defect === 'scheme') {
      problems.push(describe('helm chart repoUrl', repoUrl, INSECURE_HTTP, 'use the https:// URL of the chart repository'));
    } else if (!url || defect !== undefined) {
      problems.push(describe('helm chart repoUrl', repoUrl, 'must start with https:// (chart repository) or oci:// (OCI registry)',
        'use e.g. "https://charts.example.com" with { name } or "oci://ghcr.io/acme/charts/app"'));
    } else if (oci && options.name !== undefined) {
      problems.push(describe('helm chart name', options.name, `must be omitted for oci:// repositories (the chart is the last path segment of ${show(repoUrl)})`,
        'remove { name }'));
    } else if (!oci && !options.name) {
      problems.push(describe('helm chart name', undefined, `is required for ${url.protocol}// repositories such as ${show(repoUrl)}`, 'pass { name: \'<chart>\' }'));
    }
    const semverProblem = semverConstraintProblem(options.semver ?? '');
    if (semverProblem) problems.push(describe('helm chart semver', options.semver, semverProblem, 'use a range such as "^1.2.0"'));
    checkDiscoveryLimit(problems, options.discoveryLimit);
    problems.push(...options.credentials?._problems ?? []);
    const chartName = options.name ?? `${repoUrl}`.replace(/\/+$/, '').split('/').pop()!;
    return new Artifact(ArtifactKind.HELM_CHART, repoUrl, {}, { ...options, dependencyName: options.dependencyName ?? chartName }, {}, problems);
  }

  /**
   * A Git repository (`https://`), e.g. configuration that is promoted with the release.
   */
  public static git(repoUrl: string, options: GitArtifactOptions = {}): Artifact {
    const problems: string[] = [];
    const urlProblem = gitUrlProblem(repoUrl ?? '', options.allowInsecureHttp);
    if (urlProblem) problems.push(describe('git repoUrl', repoUrl, urlProblem, 'use the https:// clone URL'));
    const selection = options.selection ?? GitCommitSelection.NEWEST_FROM_BRANCH;
    const fromBranch = selection === GitCommitSelection.NEWEST_FROM_BRANCH;
    if (options.branch !== undefined && !fromBranch) {
      problems.push(describe('git branch', options.branch, `only applies to NEWEST_FROM_BRANCH selection, not ${selection}`, 'remove branch, or select NEWEST_FROM_BRANCH'));
    }
    const branch = fromBranch ? options.branch ?? 'main' : undefined;
    const branchProblem = branch === undefined ? undefined : gitBranchProblem(branch);
    if (branchProblem) problems.push(describe('git branch', branch, branchProblem, 'use a branch name such as "main" or "release/1.x"'));
    if (options.semver !== undefined && selection !== GitCommitSelection.SEMVER) {
      problems.push(describe('git semver', options.semver, `only applies to SEMVER selection, not ${selection}`, 'remove semver, or select SEMVER'));
    }
    const semverProblem = semverConstraintProblem(options.semver ?? '');
    if (semverProblem) problems.push(describe('git semver', options.semver, semverProblem, 'use a range such as "^1.2.0"'));
    if ((options.allowTags || options.ignoreTags) && fromBranch) {
      problems.push(describe('git allowTags/ignoreTags', GitCommitSelection.NEWEST_FROM_BRANCH, 'only apply to tag selections (SEMVER, LEXICAL, NEWEST_TAG)',
        'remove them, or select a tag selection'));
    }
    checkRegexes(problems, 'git allowTags', options.allowTags);
    checkRegexes(problems, 'git ignoreTags', options.ignoreTags);
    for (const p of [...options.includePaths ?? [], ...options.excludePaths ?? []]) {
      const m = /^(regex|regexp):(.*)$/.exec(p);
      const rp = m ? re2Problem(m[2]) : undefined;
      if (rp) problems.push(describe('git path filter', p, rp, 'use a Go RE2 expression after "regex:"'));
      if (p.trim() === '') problems.push(describe('git path filters', p, 'must not be empty', 'remove the empty filter'));
    }
    checkDiscoveryLimit(problems, options.discoveryLimit);
    problems.push(...options.credentials?._problems ?? []);
    let checkoutPath = options.checkoutPath;
    if (checkoutPath !== undefined) {
      const pathProblem = repoPathProblem(checkoutPath) ?? (/[{}]/.test(checkoutPath) ? 'must not use tokens (one checkout serves every cluster)' : undefined);
      if (pathProblem) problems.push(describe('git checkoutPath', checkoutPath, pathProblem, 'use e.g. "chart/model-config"'));
      checkoutPath = normalizeRepoPath(checkoutPath);
      if (!pathProblem && checkoutPath === '') {
        problems.push(describe('git checkoutPath', options.checkoutPath, 'names the root of the source repository, which holds the source itself', 'use a directory inside it, e.g. "chart/model-config"'));
      }
    }
    return new Artifact(ArtifactKind.GIT, `${repoUrl}`.replace(/\/+$/, ''), {}, {}, { ...options, selection, branch, checkoutPath }, problems);
  }

  private constructor(
    /** The kind of artifact. */
    public readonly kind: ArtifactKind,
    /** The repository URL. */
    public readonly repoUrl: string,
    /** Options, for images. */
    public readonly imageOptions: ImageArtifactOptions,
    /** Options, for Helm charts. */
    public readonly chartOptions: HelmChartArtifactOptions,
    /** Options, for Git repositories. */
    public readonly gitOptions: GitArtifactOptions,
    /** @internal */
    public readonly _problems: string[]) {}

  /** How Kargo authenticates to the repository, if declared. */
  public get credentials(): RepositoryCredentials | undefined {
    return this.imageOptions.credentials ?? this.chartOptions.credentials ?? this.gitOptions.credentials;
  }

  /**
   * The registry host of an image (`docker.io` when the reference names none).
   */
  public get registry(): string | undefined {
    if (this.kind !== ArtifactKind.IMAGE) return undefined;
    const first = this.repoUrl.split('/')[0];
    const hasHost = this.repoUrl.includes('/') && (first.includes('.') || first.includes(':') || first === 'localhost');
    return hasHost ? first : 'docker.io';
  }
}

function imageRepoProblem(repoUrl: string): { message: string; fix: string } | undefined {
  if (/^[a-z]+:\/\//.test(repoUrl)) return { message: 'reference must not have a scheme', fix: 'drop the scheme, e.g. "ghcr.io/acme/app"' };
  if (repoUrl.includes('@')) return { message: 'reference must not have a digest', fix: 'name the repository only; use Versioning.digest() to follow a tag by digest' };
  const lastSegment = repoUrl.split('/').pop() ?? '';
  if (lastSegment.includes(':')) return { message: 'reference must not have a tag', fix: 'name the repository only; the versioning rule picks the tag' };
  if (!IMAGE_REPO.test(repoUrl)) return { message: 'reference is not a valid image repository', fix: 'use e.g. "ghcr.io/acme/app" or "registry.example.com:5000/team/app"' };
  if (repoUrl !== repoUrl.toLowerCase()) return { message: 'reference must be lowercase', fix: `use ${show(repoUrl.toLowerCase())}` };
  return undefined;
}

/** The problem of a repository URL with a user, password or token in it. @internal */
export const CREDENTIALS_IN_URL = 'must not carry credentials (declare them with RepositoryCredentials instead)';

/** The problem of an `http://` repository URL. @internal */
export const INSECURE_HTTP = 'must use https: http:// sends the repository content, and Kargo its credentials, in clear text '
  + '(set allowInsecureHttp: true to accept it for a repository on a trusted network)';

/**
 * Returns why `url` is not an https Git URL Kargo accepts, or undefined.
 * @internal
 */
export function gitUrlProblem(url: string, allowInsecureHttp: boolean = false): string | undefined {
  if (/^(git@|ssh:\/\/)/.test(url)) return 'must use https (SSH URLs are deprecated in Kargo and removed in v1.13)';
  switch (urlDefect(url, { schemes: allowInsecureHttp ? ['https:', 'http:'] : ['https:'], requirePath: true })) {
    case 'not-a-url': return 'must be a URL';
    case 'credentials': return CREDENTIALS_IN_URL;
    case 'scheme': return url.startsWith('http:') ? INSECURE_HTTP : 'must use https';
    case 'no-path': return 'must name a repository';
    default: return undefined;
  }
}

/**
 * What makes two subscriptions the same for Kargo, which compares repository URLs without case
 * and trailing slashes (and Git URLs without `.git`), tells the charts of a classic (https) Helm
 * repository apart by name, and rejects a Warehouse that subscribes to one twice.
 * @internal
 */
export function subscriptionIdentity(kind: ArtifactKind, repoUrl: string, chartName?: string): string {
  const url = normalizedRepoUrl(repoUrl, kind === ArtifactKind.GIT);
  return kind === ArtifactKind.HELM_CHART && !url.startsWith('oci://') ? `${kind}:${url}#${chartName ?? ''}` : `${kind}:${url}`;
}

/**
 * The `repository` of the Chart.yaml dependency a chart artifact updates. An OCI dependency names
 * its registry path without the chart, which is the dependency's `name` (kargo v1.11.2
 * `pkg/helm/dependency_manager.go` matches name and repository exactly; docs
 * `helm-update-chart.md`, "OCI Chart Repository"); the Freight keeps the full URL (`chartFrom`).
 * @internal
 */
export function chartDependencyRepository(repoUrl: string): string {
  return repoUrl.startsWith('oci://') ? repoUrl.replace(/\/+$/, '').replace(/\/[^/]+$/, '') : repoUrl;
}

/**
 * A repository URL as Kargo compares it (subscriptions, credentials): without case and trailing
 * slashes, and for Git without `.git`.
 * @internal
 */
export function normalizedRepoUrl(repoUrl: string, git: boolean): string {
  const url = `${repoUrl}`.trim().toLowerCase().replace(/\/+$/, '');
  return git ? url.replace(/\.git$/, '') : url;
}

/**
 * Returns why `branch` is not a branch name Kargo accepts (its subscription schema's pattern), or undefined.
 * @internal
 */
export function gitBranchProblem(branch: string): string | undefined {
  return GIT_BRANCH.test(branch) ? undefined : 'is not a valid branch name';
}

function checkRegexes(problems: string[], field: string, patterns: string[] | undefined) {
  for (const p of patterns ?? []) {
    const problem = re2Problem(p);
    if (problem) problems.push(describe(`${field} regular expression`, p, problem, 'use Go RE2 syntax (no lookarounds or backreferences)'));
  }
}

function checkDiscoveryLimit(problems: string[], limit: number | undefined) {
  if (limit !== undefined && !(Number.isInteger(limit) && limit >= 1 && limit <= 100)) {
    problems.push(describe('discoveryLimit', limit, 'must be a whole number from 1 to 100', 'use e.g. 20 (the default)'));
  }
}
