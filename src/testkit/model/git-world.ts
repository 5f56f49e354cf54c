import { createHash } from 'crypto';

/**
 * An in-memory Git remote and the work directory of one promotion: enough of Git for Kargo's git
 * steps. Branches exist only after a push (`git-clone` with `create: true` pushes an empty
 * "Initial commit" itself, after Kargo v1.11.2 `pkg/promotion/runner/builtin/git_cloner.go`
 * `ensureRemoteBranch`). Source repositories checked out at a Freight commit are virtual: any
 * file exists there, and only what steps change in them is recorded.
 */

export interface Commit {
  readonly id: string;
  readonly parents: string[];
  readonly tree: Record<string, string>;
  readonly message: string;
}

export interface PullRequest {
  readonly id: number;
  readonly source: string;
  readonly target: string;
  readonly head: string;
  merged: boolean;
  open: boolean;
  mergeCommit?: string;
}

export function shortHash(...parts: unknown[]): string {
  return createHash('sha1').update(JSON.stringify(parts)).digest('hex');
}

/** A 40-character commit id of digits only, for a SHA that reads as a number. */
export function digitsOnly(hex: string): string {
  return hex.replace(/[a-f]/g, (c) => String(c.charCodeAt(0) - 97)).replace(/^0/, '1');
}

/** Git URLs compare case-insensitively, without `.git` or a trailing slash (Kargo `urls.NormalizeGit`). */
export function normalizeGitUrl(url: string): string {
  return url.trim().toLowerCase().replace(/\/+$/, '').replace(/\.git$/, '');
}

export class GitRemote {
  public readonly branches = new Map<string, string>();
  public readonly commits = new Map<string, Commit>();
  public readonly pullRequests: PullRequest[] = [];

  constructor(public readonly url: string, private readonly world: GitWorld) {}

  public commit(tree: Record<string, string>, parents: string[], message: string): Commit {
    const hash = shortHash(tree, parents, message, this.commits.size);
    const commit: Commit = { id: this.world.numericCommitIds ? digitsOnly(hash) : hash, parents, tree: { ...tree }, message };
    this.commits.set(commit.id, commit);
    return commit;
  }

  public head(branch: string): Commit | undefined {
    const id = this.branches.get(branch);
    return id === undefined ? undefined : this.commits.get(id);
  }

  /** True when `id` is the branch head or one of its ancestors. */
  public reachable(branch: string, id: string): boolean {
    const seen = new Set<string>();
    const queue = [this.branches.get(branch)];
    while (queue.length > 0) {
      const next = queue.pop();
      if (next === undefined || seen.has(next)) continue;
      if (next === id) return true;
      seen.add(next);
      queue.push(...(this.commits.get(next)?.parents ?? []));
    }
    return false;
  }
}

/** The remotes every promotion of a run shares (the release repository lives on between promotions). */
export class GitWorld {
  /** New commits get ids of digits only: the rare SHA that reads as a number. */
  public numericCommitIds = false;
  private readonly remotes = new Map<string, GitRemote>();

  public remote(url: string): GitRemote {
    const key = normalizeGitUrl(url);
    let remote = this.remotes.get(key);
    if (!remote) {
      remote = new GitRemote(url, this);
      this.remotes.set(key, remote);
    }
    return remote;
  }
}

/** One checkout in the promotion's work directory. */
export interface WorkTree {
  readonly path: string;
  readonly repoUrl: string;
  /** The checked-out branch (undefined for a detached commit checkout). */
  readonly branch?: string;
  /** The remote commit the checkout started from, or the Freight commit of a virtual source tree. */
  head: string;
  /** A virtual tree stands for a source repository at a Freight commit: every path exists. */
  readonly virtual: boolean;
  /** The files (virtual trees: only the files steps changed). */
  files: Record<string, string>;
}

/** `./out/x/` → `out/x`: paths of one promotion's work directory compare in this form. */
export function normalizePath(p: string): string {
  return p.split('/').filter((s) => s !== '' && s !== '.').join('/');
}

export class WorkDir {
  public readonly trees: WorkTree[] = [];

  public add(tree: WorkTree): void {
    this.trees.push({ ...tree, path: normalizePath(tree.path) });
  }

  /** The checkout that holds a path, and the path inside it. */
  public locate(p: string): { tree: WorkTree; rel: string } | undefined {
    const norm = normalizePath(p);
    const tree = [...this.trees]
      .sort((a, b) => b.path.length - a.path.length)
      .find((t) => norm === t.path || norm.startsWith(t.path + '/') || t.path === '');
    if (!tree) return undefined;
    return { tree, rel: tree.path === '' ? norm : norm.slice(tree.path.length + 1) };
  }
}

/** True when a tree has a file at `path` or below it (a directory). */
export function treeHasPath(tree: Record<string, string>, path: string): boolean {
  const norm = normalizePath(path);
  return Object.keys(tree).some((f) => norm === '' || f === norm || f.startsWith(norm + '/'));
}
