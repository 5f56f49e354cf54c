/**
 * Paths inside a Git repository, as the promotion steps join them to their work directory
 * (kargo v1.11.2 `pkg/promotion/runner/builtin/git_cloner.go` joins checkout paths with
 * `securejoin.SecureJoin`, so a path that climbs out is silently kept inside, at another place).
 */

/**
 * Returns why `path` is not a relative path inside a repository, or undefined.
 * @internal
 */
export function repoPathProblem(path: string): string | undefined {
  if (!path || path.startsWith('/') || path.split('/').includes('..') || /\s/.test(path)) {
    return 'must be a relative path inside the repository without ".."';
  }
  return undefined;
}

/** `./a//b/` → `a/b`. @internal */
export function normalizeRepoPath(path: string): string {
  return path.split('/').filter(s => s !== '' && s !== '.').join('/');
}

/** True when `inner` is `outer` or lies below it (both normalized). @internal */
export function pathWithin(inner: string, outer: string): boolean {
  return outer === '' || inner === outer || inner.startsWith(`${outer}/`);
}
