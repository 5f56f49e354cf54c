import { Artifact, ArtifactKind, gitBranchProblem, gitUrlProblem } from './artifact';
import { RepositoryCredentials } from './repository-credentials';
import { RELEASE_VARIABLES } from '../contracts/cluster-variables';
import { describe } from '../util/errors';
import { apiVersionProblem } from '../util/names';
import { repoPathProblem } from '../util/repo-paths';

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

/**
 * Options for `ManifestSource.helm()`.
 *
 * Paths are relative to `path`; they may use the tokens `{stage}`, `{cluster}`, `{region}`,
 * `{provider}`, `{accelerator}` and `{tier}`, which are filled in per stage and cluster.
 */
export interface HelmSourceOptions extends ManifestSourceOptions {
  /** The chart's directory in the repository, e.g. `charts/gateway`. */
  readonly path: string;
  /**
   * Values files applied after the chart's `values.yaml`, in order, e.g. per-stage values.
   * @default - none
   */
  readonly valuesFiles?: string[];
  /**
   * Values files applied last that may be missing, e.g. per-cluster overrides
   * (`clusters/{cluster}.yaml`). The ones present are merged into one values file first
   * (Kargo's `yaml-merge`), so a missing file from `valuesFiles` still fails the render. Unlike
   * Helm, that merge combines lists of maps that share a `name` key instead of replacing the
   * whole list, which matters only when several optional files set the same list.
   * @default - none
   */
  readonly optionalValuesFiles?: string[];
  /**
   * API versions beyond Kubernetes' built-in ones that every target cluster serves, for charts
   * that test `.Capabilities.APIVersions.Has` (e.g. `monitoring.coreos.com/v1`): the render is
   * client-only and knows no CRD-provided API otherwise. Each cluster adds its own
   * (`ClusterOptions.apiVersions`), and the render assumes its `kubernetesVersion`.
   * @default - none
   */
  readonly apiVersions?: string[];
  /**
   * The Helm release name.
   * @default - the application's name
   */
  readonly releaseName?: string;
}

/**
 * Options for `ManifestSource.kustomize()`.
 *
 * Paths may use the tokens `{stage}`, `{cluster}`, `{region}`, `{provider}`, `{accelerator}`
 * and `{tier}`, which are filled in per stage and cluster.
 */
export interface KustomizeSourceOptions extends ManifestSourceOptions {
  /** The directory whose `kustomization.yaml` lists the images, e.g. `deploy/base`. */
  readonly basePath: string;
  /** The overlay rendered for each cluster, e.g. `deploy/stages/{stage}`. */
  readonly overlayPath: string;
}

const TOKENS = RELEASE_VARIABLES;

/** The longest release name Helm accepts (chartutil.ValidateReleaseName), even for `helm template`. */
const HELM_RELEASE_NAME_MAX = 53;

/**
 * Returns why Helm would refuse `name` as a release name because of its length, or undefined.
 * @internal
 */
export function helmReleaseNameLengthProblem(name: string): string | undefined {
  return name.length > HELM_RELEASE_NAME_MAX ? `must be at most ${HELM_RELEASE_NAME_MAX} characters (it has ${name.length})` : undefined;
}

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
    const problems: string[] = [];
    checkRepo(problems, options);
    checkPath(problems, 'helm path', options.path, false);
    for (const f of [...options.valuesFiles ?? [], ...options.optionalValuesFiles ?? []]) checkPath(problems, 'helm values file', f, true);
    for (const v of options.apiVersions ?? []) {
      const problem = apiVersionProblem(v);
      if (problem) problems.push(describe('helm apiVersions', v, problem, 'use "<group>/<version>" or "<group>/<version>/<Kind>"'));
    }
    if (options.releaseName !== undefined && !/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/.test(options.releaseName)) {
      problems.push(describe('helm releaseName', options.releaseName, 'must be a DNS-1123 label', 'use lowercase letters, digits and dashes'));
    } else if (options.releaseName !== undefined && helmReleaseNameLengthProblem(options.releaseName)) {
      problems.push(describe('helm releaseName', options.releaseName, helmReleaseNameLengthProblem(options.releaseName)!,
        'shorten it: helm template refuses longer release names'));
    }
    return new ManifestSource(ManifestSourceKind.HELM, `${options.repoUrl}`.replace(/\/+$/, ''), options.branch ?? 'main', options, undefined, problems);
  }

  /**
   * A Kustomize base and overlays kept in a Git repository. Images are set in the base with
   * `kustomize-set-image`; each cluster's overlay is built with `kustomize build`.
   */
  public static kustomize(options: KustomizeSourceOptions): ManifestSource {
    const problems: string[] = [];
    checkRepo(problems, options);
    checkPath(problems, 'kustomize basePath', options.basePath, false);
    checkPath(problems, 'kustomize overlayPath', options.overlayPath, true);
    return new ManifestSource(ManifestSourceKind.KUSTOMIZE, `${options.repoUrl}`.replace(/\/+$/, ''), options.branch ?? 'main', undefined, options, problems);
  }

  private constructor(
    /** How the manifests are rendered. */
    public readonly kind: ManifestSourceKind,
    /** The Git repository of the source. */
    public readonly repoUrl: string,
    /** The branch whose commits become Freight. */
    public readonly branch: string,
    /** Options, for Helm. */
    public readonly helmOptions: HelmSourceOptions | undefined,
    /** Options, for Kustomize. */
    public readonly kustomizeOptions: KustomizeSourceOptions | undefined,
    /** @internal */
    public readonly _problems: string[]) {}

  /** How Kargo authenticates to the repository, if declared. */
  public get credentials(): RepositoryCredentials | undefined {
    return (this.helmOptions ?? this.kustomizeOptions)?.credentials;
  }

  /** The repository paths whose changes become Freight. */
  public get watchedPaths(): string[] {
    if (this.helmOptions) return [this.helmOptions.path];
    const k = this.kustomizeOptions!;
    const overlayRoot = k.overlayPath.split('/').filter(s => !s.includes('{')).join('/');
    return [...new Set([k.basePath, overlayRoot].filter(p => p.length > 0))];
  }
}

function checkRepo(problems: string[], options: ManifestSourceOptions) {
  problems.push(...options.credentials?._problems ?? []);
  const problem = gitUrlProblem(options.repoUrl ?? '', options.allowInsecureHttp);
  if (problem) problems.push(describe('repoUrl', options.repoUrl, problem, 'use the https:// clone URL'));
  const branchProblem = options.branch === undefined ? undefined : gitBranchProblem(options.branch);
  if (branchProblem) problems.push(describe('branch', options.branch, branchProblem, 'use a branch name such as "main"'));
}

function checkPath(problems: string[], field: string, path: string, tokens: boolean) {
  const problem = repoPathProblem(path);
  if (problem) {
    problems.push(describe(field, path, problem, 'use e.g. "charts/app"'));
    return;
  }
  for (const m of path.matchAll(/\{([^}]*)\}/g)) {
    if (!tokens) {
      problems.push(describe(field, path, 'must not use tokens', 'name one path; per-stage differences go in valuesFiles or the overlay'));
    } else if (!TOKENS.includes(m[1])) {
      problems.push(describe(field, path, `uses unknown token {${m[1]}}`, `use one of ${TOKENS.map(t => `{${t}}`).join(', ')}`));
    }
  }
}

/**
 * The git artifact that subscribes to the source's repository, if the app declares one; otherwise
 * the Warehouse subscribes to the source implicitly (its branch and watched paths).
 * @internal
 */
export function sourceArtifact(source: ManifestSource, artifacts: Artifact[]): Artifact | undefined {
  return artifacts.find(a => a.kind === ArtifactKind.GIT && a.repoUrl === source.repoUrl);
}
