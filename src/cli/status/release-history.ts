import { GitCommit, GitObjects, TreeDirs } from './git-objects';
import { BranchRef } from './release-repo';
import { LegacyArtifact, parseReleaseRecord, ReleaseRecord } from '../../contracts/release-record';

/** One commit of a release branch's first-parent history: usually one promotion. */
export interface BranchCommit {
  readonly id: string;
  /** Committer time (seconds since the epoch): when the promotion (or the merge of its pull request) landed. */
  readonly committedAt: number;
  readonly subject: string;
  /** The release it records; undefined for a commit Kargo did not write (by hand, the empty first commit). */
  readonly record?: ReleaseRecord;
  /** The commit the record was read from when it is not this one: the promotion's commit a pull request merged. */
  readonly recordCommit?: string;
  /** The cluster directories at the top of its tree, with their tree ids. */
  readonly folders: TreeDirs;
}

/** Why a history ends where it does. */
export type HistoryEnd =
  /** the branch's first commit was read */
  | 'root'
  /** every folder's last change and the newest record were found */
  | 'enough'
  /** the commit limit (`--history`) */
  | 'limit'
  /** a parent the repository does not have (a shallow clone) */
  | 'missing';

/** What was read of one release branch. */
export interface BranchHistory {
  readonly ref: BranchRef;
  /** First-parent commits from the head, newest first. */
  readonly commits: BranchCommit[];
  readonly end: HistoryEnd;
}

/** Reading options. */
export interface HistoryOptions {
  /** The most commits read per branch. */
  readonly limit: number;
  /** The artifacts of the branch's app, to read records written before the trailers. */
  readonly artifactsOf: (branch: string) => LegacyArtifact[];
}

interface Walk {
  readonly ref: BranchRef;
  readonly commits: BranchCommit[];
  next?: string;
  end?: HistoryEnd;
}

/**
 * Reads the first-parent history of many branches at once, one round of `cat-file` requests per
 * depth: the head of every branch, then the parent of those whose folders all changed at the
 * head… until each folder's last change (and the newest release record) is known, the branch
 * starts, or `limit` commits were read.
 */
export async function readHistories(objects: GitObjects, refs: BranchRef[], options: HistoryOptions): Promise<Map<string, BranchHistory>> {
  const walks: Walk[] = refs.map((ref) => ({ ref, commits: [], next: ref.head }));
  for (let active = walks; active.length > 0; active = walks.filter((w) => w.next !== undefined)) {
    const commits = await objects.commits(active.map((w) => w.next!));
    const found = commits.filter((c): c is GitCommit => c !== undefined);
    const trees = await objects.treeDirs(found.map((c) => c.tree));
    const folders = new Map(found.map((c, i) => [c.id, trees[i] ?? new Map()]));
    const records = await recordsOf(objects, active.flatMap((w, i) => (commits[i] ? [{ commit: commits[i]!, branch: w.ref.branch }] : [])), options);
    active.forEach((walk, i) => {
      const commit = commits[i];
      walk.next = undefined;
      if (!commit) {
        walk.end = 'missing';
        return;
      }
      const read = records.get(commit.id);
      walk.commits.push({
        id: commit.id,
        committedAt: commit.committedAt,
        subject: commit.message.split('\n')[0],
        record: read?.record,
        recordCommit: read?.from,
        folders: folders.get(commit.id)!,
      });
      if (commit.parents.length === 0) walk.end = 'root';
      else if (walk.commits.length >= options.limit) walk.end = 'limit';
      else if (needsMore(walk.commits)) walk.next = commit.parents[0];
      else walk.end = 'enough';
    });
  }
  return new Map(walks.map((w) => [w.ref.branch, { ref: w.ref, commits: w.commits, end: w.end ?? 'root' }]));
}

/**
 * The record of each commit: its own message's, else (a merge of a promotion's pull request)
 * its last parent's, the commit the promotion pushed. A message without trailers is read as the
 * library's earlier format, against the artifacts of the branch's app.
 */
async function recordsOf(objects: GitObjects, items: Array<{ commit: GitCommit; branch: string }>, options: HistoryOptions)
  : Promise<Map<string, { record?: ReleaseRecord; from?: string }>> {
  const out = new Map<string, { record?: ReleaseRecord; from?: string }>();
  const merges: Array<{ commit: GitCommit; branch: string }> = [];
  for (const item of items) {
    const record = parseReleaseRecord(item.commit.message, options.artifactsOf(item.branch));
    if (record) out.set(item.commit.id, { record });
    else if (item.commit.parents.length > 1) merges.push(item);
    else out.set(item.commit.id, {});
  }
  const promoted = await objects.commits(merges.map(({ commit }) => commit.parents[commit.parents.length - 1]));
  merges.forEach(({ commit, branch }, i) => {
    const p = promoted[i];
    const record = p ? parseReleaseRecord(p.message, options.artifactsOf(branch)) : undefined;
    out.set(commit.id, record ? { record, from: p!.id } : {});
  });
  return out;
}

/** One commit read on its own (a revision Argo CD synced that the histories do not hold); undefined when the repository does not have it. */
export async function readCommit(objects: GitObjects, id: string, branch: string, options: HistoryOptions): Promise<BranchCommit | undefined> {
  const [commit] = await objects.commits([id]);
  if (!commit) return undefined;
  const [folders] = await objects.treeDirs([commit.tree]);
  const read = (await recordsOf(objects, [{ commit, branch }], options)).get(commit.id);
  return {
    id: commit.id,
    committedAt: commit.committedAt,
    subject: commit.message.split('\n')[0],
    record: read?.record,
    recordCommit: read?.from,
    folders: folders ?? new Map(),
  };
}

/** Whether a folder of the head is the same in every commit read (its last change is further back) or no record was found yet. */
function needsMore(commits: BranchCommit[]): boolean {
  if (!commits.some((c) => c.record)) return true;
  const head = commits[0].folders;
  const last = commits[commits.length - 1].folders;
  for (const [name, tree] of head) {
    if (last.get(name) === tree) return true;
  }
  return false;
}

/**
 * How many commits before the head a folder last changed (0: the head changed it), and that
 * commit; `atLeast` when the history read ends before the change was found.
 */
export function lastChange(history: BranchHistory, folder: string): { ago: number; commit: BranchCommit; atLeast: boolean } | undefined {
  const tree = history.commits[0]?.folders.get(folder);
  if (tree === undefined) return undefined;
  let i = 0;
  while (i + 1 < history.commits.length && history.commits[i + 1].folders.get(folder) === tree) i++;
  const atLeast = i + 1 === history.commits.length && history.end !== 'root';
  return { ago: i, commit: history.commits[i], atLeast };
}
