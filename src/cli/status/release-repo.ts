import * as fs from 'fs';
import * as path from 'path';
import { GitObjects, runGit } from './git-objects';
import { describe } from '../../util/errors';
import { hasSecretQuery, redactSecrets } from '../../util/redact';
import { UsageError } from '../synth-tree';

/** Where a release branch was read: the ref and the commit it points to. */
export interface BranchRef {
  /** `rendered/<app>/<stage>`. */
  readonly branch: string;
  /** The ref read: `refs/remotes/origin/rendered/…` in a clone, `refs/heads/rendered/…` in a bare repository. */
  readonly ref: string;
  readonly head: string;
}

const RENDERED = 'rendered/';
const URL_LIKE = /^[a-z][a-z0-9+.-]*:\/\//i;
const SCP_LIKE = /^[\w.-]+@[\w.-]+:(?!\/\/)/;

/**
 * A release repository, read only: a path is read in place (no fetch, no write: what its last
 * fetch brought), a URL is fetched into a temporary bare repository (commits and trees only, the
 * last `depth` commits of each `rendered/*` branch) that the caller removes.
 * @internal
 */
export class ReleaseRepository {
  /**
   * Opens `location` (relative to `cwd`), fetching a URL into `scratchDir`.
   * @throws UsageError when it is neither a repository nor a URL git can fetch
   */
  public static open(location: string, cwd: string, scratchDir: string, depth: number): ReleaseRepository {
    const local = path.resolve(cwd, location);
    if (fs.existsSync(local)) {
      const gitDir = runGit(['-C', local, 'rev-parse', '--absolute-git-dir'], `reading ${location} as a git repository`).trim();
      return new ReleaseRepository(gitDir, location, false);
    }
    if (!URL_LIKE.test(location) && !SCP_LIKE.test(location)) {
      throw new UsageError(describe('--release-repo', location, 'is neither a directory nor a URL', 'pass a local clone or a URL git can fetch'));
    }
    checkNoCredentials(location);
    const dir = fs.mkdtempSync(path.join(scratchDir, 'release-'));
    const label = redactSecrets(location);
    const git = (args: string[], what: string) => runGit(['-C', dir, ...args], what);
    git(['init', '--quiet', '--bare'], `creating a temporary repository for ${label}`);
    // a partial clone: commits and trees, no file contents (status never reads a file); the
    // remote is a promisor so that git accepts --filter (as `git clone --filter` sets it up)
    for (const [key, value] of [['core.repositoryformatversion', '1'], ['extensions.partialclone', 'origin'], ['remote.origin.url', location],
      ['remote.origin.promisor', 'true'], ['remote.origin.partialclonefilter', 'blob:none']]) {
      git(['config', key, value], `configuring the temporary repository for ${label}`);
    }
    git(['fetch', '--quiet', '--no-tags', '--filter=blob:none', `--depth=${depth}`, 'origin', `+refs/heads/${RENDERED}*:refs/heads/${RENDERED}*`],
      `fetching the rendered/* branches of ${label}`);
    return new ReleaseRepository(dir, label, true);
  }

  private constructor(
    /** The git directory read. */
    public readonly gitDir: string,
    /** What the user passed, credentials redacted. */
    public readonly label: string,
    /** Whether it was fetched into a temporary repository (else read in place). */
    public readonly fetched: boolean) {}

  /** The bytes of an object id: 20 (SHA-1) or 32 (SHA-256). */
  public oidBytes(): number {
    const format = runGit(['-C', this.gitDir, 'rev-parse', '--show-object-format'], `reading ${this.label}`).trim();
    return format === 'sha256' ? 32 : 20;
  }

  /**
   * Every `rendered/*` branch, by branch name: a remote-tracking ref of `origin` first (what a
   * clone last fetched; its local branches are only as new as the last pull), then a local
   * branch, then another remote's.
   */
  public branches(): Map<string, BranchRef> {
    const out = runGit(['-C', this.gitDir, 'for-each-ref', '--format=%(objectname) %(refname)', `refs/heads/${RENDERED}`, 'refs/remotes/'],
      `listing the branches of ${this.label}`);
    const found = new Map<string, BranchRef & { rank: number }>();
    for (const line of out.split('\n')) {
      const space = line.indexOf(' ');
      if (space < 0) continue;
      const [head, ref] = [line.slice(0, space), line.slice(space + 1)];
      const remote = /^refs\/remotes\/([^/]+)\/(rendered\/.+)$/.exec(ref);
      const branch = remote ? remote[2] : ref.startsWith(`refs/heads/${RENDERED}`) ? ref.slice('refs/heads/'.length) : undefined;
      if (branch === undefined) continue;
      const rank = remote ? (remote[1] === 'origin' ? 0 : 2) : 1;
      const known = found.get(branch);
      if (!known || rank < known.rank || (rank === known.rank && ref < known.ref)) found.set(branch, { branch, ref, head, rank });
    }
    return new Map([...found].map(([branch, { rank: _rank, ...ref }]) => [branch, ref]));
  }

  /** A reader of its objects (close it when done). */
  public objects(): GitObjects {
    return new GitObjects(this.gitDir, this.oidBytes());
  }
}

/** Credentials belong in the user's git configuration (a credential helper), never in a URL on a command line. */
function checkNoCredentials(location: string): void {
  if (!URL_LIKE.test(location)) return;
  let url: URL;
  try {
    url = new URL(location);
  } catch {
    throw new UsageError(describe('--release-repo', redactSecrets(location), 'is not a valid URL', 'pass a local clone or a URL git can fetch', String));
  }
  // a user name alone (`ssh://git@host/…`, `https://me@host/…`) is no secret; git asks its credential helper for the rest
  const tokenAsUser = url.username !== '' && redactSecrets(`${url.username}`) !== url.username;
  if (url.password !== '' || tokenAsUser || hasSecretQuery(url)) {
    throw new UsageError(describe('--release-repo', redactSecrets(location), 'carries credentials',
      'pass the URL without them and let git find them (git config credential.helper, or an SSH key)', String));
  }
}
