import { ArtifactKind, ArtifactOptions } from './artifact-kind';
import { re2Problem } from './regex';
import { field, hint, idiom, prop } from '../util/code-hint';
import { describe, Field, ProblemList } from '../util/errors';

/**
 * What one kind of artifact knows about itself: its Warehouse subscription, the fragments of
 * promotion steps it contributes, how it reaches the render and what the standards read of it.
 * Each kind implements it in its own file (`image-artifact.ts`, `chart-artifact.ts`,
 * `git-artifact.ts`); `Artifact` delegates to it, and no code outside a kind's file asks which
 * kind it is. The optional fragments are named after the promotion step that consumes them.
 * @internal
 */
export interface ArtifactType<O extends ArtifactOptions = ArtifactOptions> {
  readonly kind: ArtifactKind;
  /** The repository URL, as the output spells it. */
  readonly repoUrl: string;
  /** The options as given, with the kind's defaults filled in. */
  readonly options: O;
  readonly problems: string[];
  /** Kargo's credential type for the repository: `image`, `helm` or `git`. */
  readonly credentialType: string;
  /**
   * What makes two subscriptions the same for Kargo, which rejects a Warehouse that subscribes
   * to one twice.
   */
  readonly subscriptionIdentity: string;
  /**
   * How a verification arg reading this artifact of the Freight finds it (kargo v1.11.2
   * `pkg/controller/freight/finder.go` `FindImage`, `FindCommit`, `FindChart`).
   */
  readonly freightIdentity: string;
  /** What the Freight holds of it, in a message: `image`, `git repository`. */
  readonly freightNoun: string;
  /** The expression function that reads it from the Freight, e.g. `imageFrom()`. */
  readonly freightFunction: string;
  /** The branch it follows, for a branch selection. */
  readonly branch?: string;
  /** The registry host, for an image. */
  readonly registry?: string;
  /** The tag it follows by digest, which can move under the same name. */
  readonly mutableTag?: string;
  /** The Warehouse subscription (Kargo's subscription JSON Schemas, v1.11). */
  subscription(): any;
  /** The trailer of the release commit message recording the Freight's version of it (contracts/release-record.ts). */
  commitTrailer(): string;
  /** Whether its Freight commit is the commit of the source repository `repoUrl`. */
  isSourceRepository(repoUrl: string): boolean;
  /** Problems when the render would never read it (`artifacts[index]`), or reads it ambiguously. */
  checkReach(problems: ProblemList, index: number, ctx: ReachContext): void;
  /** The `setValues` entries of `helm-template` that inject its version. */
  helmTemplateValues?(): any[];
  /** The `images` entry of `kustomize-set-image` that sets its version. */
  kustomizeSetImage?(): any;
  /** The `charts` entry of `helm-update-chart` that updates its version. */
  helmUpdateChart?(): any;
  /** The `git-clone` steps that check it out where the render reads it (`index`: its position). */
  gitClone?(index: number): any[];
}

/**
 * What the reach checks of the artifacts need to know about how the source renders.
 * @internal
 */
export interface SourceReach {
  /** How the source is rendered, as the value of a message (`helm`, `kustomize`). */
  readonly sourceKind: string;
  /** Whether the render updates a Helm chart's dependencies (`helm-update-chart`). */
  readonly updatesChartDependencies: boolean;
  /** The source's own directories, which a checkout must not replace. */
  readonly sourceDirs: string[];
  /** The directory the example of a checkout path lies in. */
  readonly checkoutBase: string;
  /** Why the render would not read a checkout at `path`, or undefined. */
  checkoutProblem(path: string): string | undefined;
}

/**
 * The reach checks of one app's artifacts: the source's facts and what the artifacts checked so
 * far claimed.
 * @internal
 */
export interface ReachContext extends SourceReach {
  /** The artifact subscribing to the source repository itself, if any. */
  readonly own: ArtifactType | undefined;
  /** Chart.yaml dependencies updated so far (`name@repository`), with the field that updates each. */
  readonly dependencies: Map<string, string>;
  /** Checkouts placed so far. */
  readonly checkouts: Array<{ readonly field: string; readonly path: string }>;
}

/** The problem of a repository URL with a user, password or token in it. @internal */
export const CREDENTIALS_IN_URL = 'must not carry credentials (declare them with RepositoryCredentials instead)';

const TRUE = idiom({ typescript: 'true', python: 'True', java: 'true', go: 'jsii.Bool(true)', dotnet: 'true' });

/** The problem of an `http://` repository URL, naming the option that accepts it (as the user's language does). @internal */
export function insecureHttp(option: string = 'allowInsecureHttp'): string {
  return 'must use https: http:// sends the repository content, and Kargo its credentials, in clear text '
    + hint`(set ${prop(option)}: ${TRUE} to accept it for a repository on a trusted network)`;
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

/** Adds a problem for each pattern that is not Go RE2. @internal */
export function checkRegexes(problems: string[], name: Field, patterns: string[] | undefined) {
  for (const p of patterns ?? []) {
    const problem = re2Problem(p);
    if (problem) problems.push(describe(field(name, 'regular expression'), p, problem, 'use Go RE2 syntax (no lookarounds or backreferences)'));
  }
}

/** Adds a problem when the discovery limit is not one Kargo accepts. @internal */
export function checkDiscoveryLimit(problems: string[], limit: number | undefined) {
  if (limit !== undefined && !(Number.isInteger(limit) && limit >= 1 && limit <= 100)) {
    problems.push(describe(prop('discoveryLimit'), limit, 'must be a whole number from 1 to 100', 'use e.g. 20 (the default)'));
  }
}

/** A copy of the list, or undefined when it is empty (Kargo's schemas omit empty lists). @internal */
export function nonEmpty<T>(values: T[] | undefined): T[] | undefined {
  return values && values.length > 0 ? [...values] : undefined;
}
