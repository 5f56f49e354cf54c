import { ArtifactKind, ArtifactOptions } from './artifact-kind';
import { ArtifactType, checkDiscoveryLimit, checkRegexes, CREDENTIALS_IN_URL, insecureHttp, nonEmpty, normalizedRepoUrl, ReachContext } from './artifact-type';
import { SRC } from './promotion-dirs';
import { re2Problem } from './regex';
import { semverConstraintProblem } from './versioning';
import { commitId } from '../contracts/expressions';
import { commitTrailer } from '../contracts/release-record';
import { field, fieldText, hint, prop } from '../util/code-hint';
import { describe, ProblemList, show } from '../util/errors';
import { goProblem } from '../util/go-parsers';
import { normalizeRepoPath, pathWithin, repoPathProblem } from '../util/repo-paths';
import { urlDefect } from '../util/urls';

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

const GIT_BRANCH = /^[a-zA-Z0-9]([a-zA-Z0-9._/-]*[a-zA-Z0-9_-])?$/;

/**
 * The git artifact `repoUrl` with `options`, validated.
 * @internal
 */
export function gitArtifact(repoUrl: string, options: GitArtifactOptions): ArtifactType<GitArtifactOptions> {
  const problems: string[] = [];
  const urlProblem = gitUrlProblem(repoUrl ?? '', options.allowInsecureHttp);
  if (urlProblem) problems.push(describe(field('git', prop('repoUrl')), repoUrl, urlProblem, 'use the https:// clone URL'));
  const selection = options.selection ?? GitCommitSelection.NEWEST_FROM_BRANCH;
  const fromBranch = selection === GitCommitSelection.NEWEST_FROM_BRANCH;
  if (options.branch !== undefined && !fromBranch) {
    problems.push(describe(field('git', prop('branch')), options.branch, `only applies to NEWEST_FROM_BRANCH selection, not ${selection}`,
      hint`remove ${prop('branch')}, or select NEWEST_FROM_BRANCH`));
  }
  const branch = fromBranch ? options.branch ?? 'main' : undefined;
  const branchProblem = branch === undefined ? undefined : gitBranchProblem(branch);
  if (branchProblem) problems.push(describe(field('git', prop('branch')), branch, branchProblem, 'use a branch name such as "main" or "release/1.x"'));
  if (options.semver !== undefined && selection !== GitCommitSelection.SEMVER) {
    problems.push(describe(field('git', prop('semver')), options.semver, `only applies to SEMVER selection, not ${selection}`,
      hint`remove ${prop('semver')}, or select SEMVER`));
  }
  const semverProblem = semverConstraintProblem(options.semver ?? '');
  if (semverProblem) problems.push(describe(field('git', prop('semver')), options.semver, semverProblem, 'use a range such as "^1.2.0"'));
  if ((options.allowTags || options.ignoreTags) && fromBranch) {
    problems.push(describe(`${fieldText(field('git', prop('allowTags')))}/${fieldText(prop('ignoreTags'))}`, GitCommitSelection.NEWEST_FROM_BRANCH, 'only apply to tag selections (SEMVER, LEXICAL, NEWEST_TAG)',
      'remove them, or select a tag selection'));
  }
  checkRegexes(problems, field('git', prop('allowTags')), options.allowTags);
  checkRegexes(problems, field('git', prop('ignoreTags')), options.ignoreTags);
  for (const p of [...options.includePaths ?? [], ...options.excludePaths ?? []]) {
    const problem = pathFilterProblem(p);
    if (problem) problems.push(describe('git path filter', p, problem.problem, problem.fix));
    if (p.trim() === '') problems.push(describe('git path filters', p, 'must not be empty', 'remove the empty filter'));
  }
  checkDiscoveryLimit(problems, options.discoveryLimit);
  problems.push(...options.credentials?._problems ?? []);
  const checkoutPath = checkCheckoutPath(problems, options.checkoutPath);
  return new GitArtifact(`${repoUrl}`.replace(/\/+$/, ''), { ...options, selection, branch, checkoutPath }, problems);
}

/**
 * Why Kargo v1.11.2 refuses a path filter, or undefined: `pkg/pattern/matcher.go`
 * `ParsePathPattern` compiles `regex:` and `regexp:` with Go's `regexp` and checks `glob:` with
 * doublestar v4.9.2 `ValidatePattern` (both run by the Go parsers); any other text is a base
 * directory.
 */
function pathFilterProblem(filter: string): { problem: string; fix: string } | undefined {
  const regex = /^(regex|regexp):([\s\S]*)$/.exec(filter);
  if (regex) {
    const problem = re2Problem(regex[2]);
    return problem ? { problem, fix: 'use a Go RE2 expression after "regex:"' } : undefined;
  }
  if (filter.startsWith('glob:')) {
    const error = goProblem('glob', filter.slice('glob:'.length));
    return error ? { problem: `is refused by Kargo's glob matcher, doublestar v4.9.2 (${error})`, fix: 'close every [ and {, e.g. "glob:charts/**/*.yaml"' } : undefined;
  }
  return undefined;
}

/**
 * The git artifact of a manifest source's repository, which the Warehouse subscribes to when
 * the app declares none: its newest commit of `branch` that touches `watchedPaths`. Not
 * validated here: the source checks its own repository, branch and paths.
 * @internal
 */
export function sourceGitArtifact(repoUrl: string, branch: string, watchedPaths: string[]): ArtifactType<GitArtifactOptions> {
  return new GitArtifact(repoUrl, { selection: GitCommitSelection.NEWEST_FROM_BRANCH, branch, includePaths: watchedPaths }, []);
}

function checkCheckoutPath(problems: string[], given: string | undefined): string | undefined {
  if (given === undefined) return undefined;
  const pathProblem = repoPathProblem(given) ?? (/[{}]/.test(given) ? 'must not use tokens (one checkout serves every cluster)' : undefined);
  if (pathProblem) problems.push(describe(field('git', prop('checkoutPath')), given, pathProblem, 'use e.g. "chart/model-config"'));
  const checkoutPath = normalizeRepoPath(given);
  if (!pathProblem && checkoutPath === '') {
    problems.push(describe(field('git', prop('checkoutPath')), given, 'names the root of the source repository, which holds the source itself', 'use a directory inside it, e.g. "chart/model-config"'));
  }
  return checkoutPath;
}

/**
 * Returns why `url` is not an https Git URL Kargo accepts, or undefined; `insecureOption` is the
 * option that accepts `http://` where the URL is given (`releaseRepoAllowInsecureHttp` for the release repository).
 * @internal
 */
export function gitUrlProblem(url: string, allowInsecureHttp: boolean = false, insecureOption: string = 'allowInsecureHttp'): string | undefined {
  if (/^(git@|ssh:\/\/)/.test(url)) return 'must use https (SSH URLs are deprecated in Kargo and removed in v1.13)';
  switch (urlDefect(url, { schemes: allowInsecureHttp ? ['https:', 'http:'] : ['https:'], requirePath: true })) {
    case 'not-a-url': return 'must be a URL';
    case 'credentials': return CREDENTIALS_IN_URL;
    case 'scheme': return url.startsWith('http:') ? insecureHttp(insecureOption) : 'must use https';
    case 'no-path': return 'must name a repository';
    default: return undefined;
  }
}

/**
 * Returns why `branch` is not a branch name Kargo accepts (its subscription schema's pattern), or undefined.
 * @internal
 */
export function gitBranchProblem(branch: string): string | undefined {
  return GIT_BRANCH.test(branch) ? undefined : 'is not a valid branch name';
}

class GitArtifact implements ArtifactType<GitArtifactOptions> {
  public readonly kind = ArtifactKind.GIT;
  public readonly credentialType = 'git';
  public readonly freightNoun = 'git repository';
  public readonly freightFunction = 'commitFrom()';

  constructor(public readonly repoUrl: string, public readonly options: GitArtifactOptions, public readonly problems: string[]) {}

  /** Kargo compares Git URLs without case, trailing slashes and `.git`. */
  public get subscriptionIdentity(): string {
    return `git:${normalizedRepoUrl(this.repoUrl, true)}`;
  }

  /** As `urls.NormalizeGit` compares them (kargo `finder.go` `FindCommit`). */
  public get freightIdentity(): string {
    return `git:${normalizedRepoUrl(this.repoUrl, true)}`;
  }

  public get branch(): string | undefined {
    return this.options.branch;
  }

  public subscription(): any {
    const o = this.options;
    return {
      git: {
        repoURL: this.repoUrl,
        commitSelectionStrategy: o.selection,
        branch: o.branch,
        semverConstraint: o.semver || undefined,
        allowTagsRegexes: nonEmpty(o.allowTags),
        ignoreTagsRegexes: nonEmpty(o.ignoreTags),
        includePaths: nonEmpty(o.includePaths),
        excludePaths: nonEmpty(o.excludePaths),
        discoveryLimit: o.discoveryLimit,
      },
    };
  }

  public commitTrailer(): string {
    return commitTrailer(this.repoUrl);
  }

  public isSourceRepository(repoUrl: string): boolean {
    return this.repoUrl === repoUrl;
  }

  /**
   * The source repository is checked out whole; any other git repository reaches the render
   * only where `checkoutPath` puts it, which the source must read and which must not replace
   * the source's own directories or another checkout.
   */
  public checkReach(problems: ProblemList, index: number, ctx: ReachContext): void {
    if (this.problems.length > 0) return;
    const checkout = fieldText(field(prop('artifacts', index), `(git ${this.repoUrl})`, prop('checkoutPath')));
    const path = this.options.checkoutPath;
    if (this === ctx.own) {
      if (path !== undefined) {
        problems.add(describe(checkout, path, 'is set on the source repository, which every render checks out whole', hint`remove ${prop('checkoutPath')}`));
      }
      return;
    }
    const example = `${ctx.checkoutBase}/${this.repoUrl.split('/').pop()!.replace(/\.git$/, '')}`;
    if (path === undefined) {
      problems.add(describe(checkout, path, 'is required: no render reads this repository, so Freight made by its new commits would change nothing',
        hint`set ${prop('checkoutPath')} to the directory of the source repository the render reads it from (e.g. ${show(example)}), or drop the artifact`));
      return;
    }
    const unread = ctx.checkoutProblem(path);
    if (unread) problems.add(describe(checkout, path, unread, `use a directory inside it, e.g. ${show(example)}`));
    const covered = ctx.sourceDirs.filter(d => pathWithin(d, path));
    if (covered.length > 0) {
      problems.add(describe(checkout, path, `would replace the source's own directory ${show(covered[0])}`, 'check it out into a new directory below it'));
    }
    for (const other of ctx.checkouts) {
      if (pathWithin(path, other.path) || pathWithin(other.path, path)) {
        problems.add(describe(checkout, path, `overlaps ${other.field} ${show(other.path)}`, 'give each git artifact its own directory'));
      }
    }
    ctx.checkouts.push({ field: checkout, path });
  }

  /**
   * Read where `checkoutPath` puts it inside the source checkout, at the Freight's commit: kargo
   * v1.11.2 `git_cloner.go` adds one work tree per checkout (`repo.AddWorkTree`, which creates the
   * missing directories) at the path joined to the work directory.
   */
  public gitClone(index: number): any[] {
    const path = this.options.checkoutPath;
    if (path === undefined) return [];
    return [{
      uses: 'git-clone',
      as: `clone-artifact-${index}`,
      config: { repoURL: this.repoUrl, checkout: [{ commit: commitId(this.repoUrl), path: `${SRC}/${path}` }] },
    }];
  }
}
