import { Artifact } from './artifact';
import { SourceReach } from './artifact-type';
import { gitBranchProblem, gitUrlProblem } from './git-artifact';
import { ManifestSourceKind, ManifestSourceOptions } from './manifest-source-kind';
import { ClusterVariableSource, RELEASE_VARIABLES } from '../contracts/cluster-variables';
import { hint, prop } from '../util/code-hint';
import { describe, Field, ProblemList } from '../util/errors';
import { repoPathProblem } from '../util/repo-paths';

/**
 * What one kind of manifest source knows about itself: how it is rendered for one cluster (the
 * render task's variables and steps), which steps update it from the Freight before rendering,
 * what the render reads of the artifacts, and what it needs of the app and its clusters. Each
 * kind implements it in its own file (`helm-source.ts`, `kustomize-source.ts`);
 * `ManifestSource` delegates to it, and no code outside a kind's file asks which kind it is.
 * @internal
 */
export interface SourceType<O extends ManifestSourceOptions = ManifestSourceOptions> {
  readonly kind: ManifestSourceKind;
  /** The Git repository, as the output spells it. */
  readonly repoUrl: string;
  /** The branch whose commits become Freight. */
  readonly branch: string;
  readonly options: O;
  readonly problems: string[];
  /** The repository paths whose changes become Freight. */
  readonly watchedPaths: string[];
  /** What the reach checks of the artifacts need to know about the render. */
  readonly reach: SourceReach;
  /** Whether the render needs each cluster's Kubernetes version. */
  readonly needsKubernetesVersion: boolean;
  /** Problems of the app's name as the render uses it. */
  checkAppName(problems: ProblemList, appName: string): void;
  /** The variables the render task takes. */
  renderVarNames(options: RenderOptions): string[];
  /** The values of those variables for one cluster, whose stage deploys to `namespace`. */
  renderVariables(options: RenderOptions, cluster: RenderedCluster, namespace: string): Record<string, string>;
  /** The steps of the render task, which render one cluster into `./out/<cluster>/manifests.yaml`. */
  renderTaskSteps(ctx: RenderContext): any[];
  /** The steps that change the source before rendering: artifact versions from the Freight. */
  updateSteps(ctx: RenderContext): any[];
}

/**
 * What the plan decided about the render task of one app (`AppRelease.render`).
 * @internal
 */
export interface RenderOptions {
  /** Whether some stage deploys to a namespace of its own, which the render task then takes as a variable. */
  readonly stageNamespaces: boolean;
  /** Whether some cluster serves API versions of its own, which the render task then takes as a variable. */
  readonly clusterApiVersions: boolean;
}

/**
 * What the render of one cluster reads of it (the plan's placed cluster).
 * @internal
 */
export interface RenderedCluster {
  /** What the cluster variables are made of. */
  readonly variables: ClusterVariableSource;
  /** The API versions the cluster serves beyond Kubernetes' own. */
  readonly apiVersions: string[];
}

/**
 * Everything the render of one app is derived from.
 * @internal
 */
export interface RenderContext extends RenderOptions {
  readonly app: string;
  readonly artifacts: Artifact[];
  readonly destinationNamespace: string;
}

/** Adds the problems of the source repository and branch. @internal */
export function checkRepo(problems: string[], options: ManifestSourceOptions) {
  problems.push(...options.credentials?._problems ?? []);
  const problem = gitUrlProblem(options.repoUrl ?? '', options.allowInsecureHttp);
  if (problem) problems.push(describe(prop('repoUrl'), options.repoUrl, problem, 'use the https:// clone URL'));
  const branchProblem = options.branch === undefined ? undefined : gitBranchProblem(options.branch);
  if (branchProblem) problems.push(describe(prop('branch'), options.branch, branchProblem, 'use a branch name such as "main"'));
}

/** Adds the problems of a path of the source, which may use the release variables as tokens when `tokens`. @internal */
export function checkPath(problems: string[], field: Field, path: string, tokens: boolean) {
  const problem = repoPathProblem(path);
  if (problem) {
    problems.push(describe(field, path, problem, 'use e.g. "charts/app"'));
    return;
  }
  for (const m of path.matchAll(/\{([^}]*)\}/g)) {
    if (!tokens) {
      problems.push(describe(field, path, 'must not use tokens', hint`name one path; per-stage differences go in ${prop('valuesFiles')} or the overlay`));
    } else if (!RELEASE_VARIABLES.includes(m[1])) {
      problems.push(describe(field, path, `uses unknown token {${m[1]}}`, `use one of ${RELEASE_VARIABLES.map(t => `{${t}}`).join(', ')}`));
    }
  }
}
