import { GitObjects } from './git-objects';
import { BranchHistory, lastChange } from './release-history';
import { artifactLabel, atVersion, namesArtifact, normalizeRepo, ReleaseQuery } from './status-filters';
import { AppStatus, ArtifactOutput, ClusterStatus, OrphanFolder, QueryOutput, ReleaseOutput, StageStatus } from './status-model';
import { StatusPlan } from './status-plan';
import { didYouMean } from '../../util/closest';
import { describe } from '../../util/errors';
import { AppModel, ReleaseTarget } from '../release-model';
import { UsageError } from '../synth-tree';

/** Which apps, stages and clusters `status` reports. */
export interface StatusSelection {
  readonly app: (name: string) => boolean;
  /** Matches a pipeline stage, a wave or a Kargo Stage name. */
  readonly stage: (name: string) => boolean;
  readonly cluster: (name: string) => boolean;
}

/** The release branches read from one repository, by branch name. */
export interface BranchReads {
  readonly histories: Map<string, BranchHistory>;
  /** The repository's objects, for commits not in the histories read (`--live`: a revision Argo CD synced). */
  readonly objects: GitObjects;
}

/** The release branches of every repository, by normalized repository URL (see `normalizeRepo`). */
export type ReleaseReads = Map<string, BranchReads>;

/** The app a release branch belongs to: `rendered/<app>/<stage>` (app names hold no `/`). */
export function appOfBranch(branch: string): string {
  return branch.split('/')[1] ?? '';
}

// the histories of each repository by app, indexed once: a fleet has thousands of apps and branches
const byAppIndex = new WeakMap<BranchReads, Map<string, BranchHistory[]>>();

/** The release branches read of one app. */
function historiesOf(read: BranchReads | undefined, app: string): BranchHistory[] {
  if (!read) return [];
  let index = byAppIndex.get(read);
  if (!index) {
    index = new Map();
    for (const h of read.histories.values()) {
      const list = index.get(appOfBranch(h.ref.branch));
      if (list) list.push(h);
      else index.set(appOfBranch(h.ref.branch), [h]);
    }
    byAppIndex.set(read, index);
  }
  return index.get(app) ?? [];
}

// a fleet's tens of thousands of targets name a handful of repositories
const normalized = new Map<string, string>();
function repoKey(url: string): string {
  let key = normalized.get(url);
  if (key === undefined) normalized.set(url, key = normalizeRepo(url));
  return key;
}

/** The apps `selection` picks, with the stages and clusters it picks. */
export function selectedApps(plan: StatusPlan, selection: StatusSelection): AppModel[] {
  return plan.apps.filter((a) => selection.app(a.name));
}

/** The targets of an app the selection picks (what is read and reported). */
export function selectedTargets(app: AppModel, selection: StatusSelection): ReleaseTarget[] {
  return app.stages.flatMap((s) => s.waves.flatMap((w) => w.releases.filter((r) =>
    (selection.stage(s.name) || selection.stage(w.name) || selection.stage(r.kargoStage)) && selection.cluster(r.cluster))));
}

/** Every release target of an app. */
export function releasesOf(app: AppModel): ReleaseTarget[] {
  return app.stages.flatMap((s) => s.waves.flatMap((w) => w.releases));
}

/** The branch prefix of an app's release branches. */
export function appBranchPrefix(app: string): string {
  return `rendered/${app}/`;
}

/** The status of every selected app, from its plan and the release branches read. */
export function buildStatus(plan: StatusPlan, selection: StatusSelection, reads: ReleaseReads): AppStatus[] {
  return selectedApps(plan, selection).map((app) => {
    const picked = new Set(selectedTargets(app, selection));
    const stages: StageStatus[] = app.stages.map((s) => ({
      name: s.name,
      production: s.production,
      waves: s.waves.map((w) => ({ name: w.name, clusters: w.releases.filter((r) => picked.has(r)).map((r) => clusterStatus(app, r, reads)) }))
        .filter((w) => w.clusters.length > 0),
    })).filter((s) => s.waves.length > 0);
    return {
      name: app.name,
      project: app.project ?? app.name,
      releaseRepos: [...new Set(releasesOf(app).map((r) => r.repoUrl))].sort(),
      artifacts: (plan.artifacts.get(app.name) ?? []).map((a): ArtifactOutput =>
        ({ kind: a.kind, repoUrl: a.repoUrl, name: a.name, label: artifactLabel(a), ...(a.byDigest ? { byDigest: true } : {}) })),
      stages,
      orphans: orphansOf(app, selection, reads),
    };
  });
}

function clusterStatus(app: AppModel, target: ReleaseTarget, reads: ReleaseReads): ClusterStatus {
  const base = {
    cluster: target.cluster,
    kargoStage: target.kargoStage,
    branch: target.branch,
    path: target.path,
    application: target.application,
    applicationNamespace: target.applicationNamespace,
    ownArgoCd: target.ownArgoCd,
  };
  const read = reads.get(repoKey(target.repoUrl));
  const history = read?.histories.get(target.branch);
  const head = history?.commits[0];
  if (!history || !head) return { ...base, state: 'not-rendered', reason: 'no-branch', ...renderedOn(app, target, reads) };
  if (!head.folders.has(target.path)) return { ...base, state: 'not-rendered', reason: 'no-folder', ...renderedOn(app, target, reads) };
  const change = lastChange(history, target.path);
  return {
    ...base,
    head: head.id,
    state: 'rendered',
    release: releaseOf(history),
    changed: change && { commitsAgo: change.ago, atLeast: change.atLeast, commit: change.commit.id, at: iso(change.commit.committedAt) },
  };
}

/** The other branches of the app whose head has a folder for the cluster: where a moved cluster still is. */
function renderedOn(app: AppModel, target: ReleaseTarget, reads: ReleaseReads): { renderedOn?: string[] } {
  const on = historiesOf(reads.get(repoKey(target.repoUrl)), app.name)
    .filter((h) => h.ref.branch !== target.branch && h.commits[0]?.folders.has(target.path))
    .map((h) => h.ref.branch).sort();
  return on.length > 0 ? { renderedOn: on } : {};
}

/** The newest release recorded on a branch, and how many commits without a record came after it. */
export function releaseOf(history: BranchHistory): ReleaseOutput | undefined {
  const i = history.commits.findIndex((c) => c.record !== undefined);
  if (i < 0) return undefined;
  const c = history.commits[i];
  const r = c.record!;
  return {
    freight: r.freight,
    freightAlias: r.freightAlias,
    promotion: r.promotion,
    commit: c.id,
    recordCommit: c.recordCommit,
    promotedAt: iso(c.committedAt),
    commitsAfter: i,
    artifacts: r.artifacts,
    format: r.format,
  };
}

export function iso(seconds: number): string {
  return new Date(seconds * 1000).toISOString().replace('.000Z', 'Z');
}

/**
 * Folders on the app's release branches for clusters the app does not render there: a cluster
 * that moved to another wave (until its old wave is promoted again, which clears the branch), or
 * one the app no longer targets.
 */
function orphansOf(app: AppModel, selection: StatusSelection, reads: ReleaseReads): OrphanFolder[] {
  const targets = releasesOf(app);
  const rendersHere = new Set(targets.map((t) => `${t.branch}\n${t.path}`));
  const stageOfBranch = new Map(app.stages.flatMap((s) => s.waves.flatMap((w) =>
    w.releases.map((r) => [r.branch, [s.name, w.name, r.kargoStage]] as const))));
  const repos = new Set(targets.map((t) => repoKey(t.repoUrl)));
  const out: OrphanFolder[] = [];
  for (const repo of repos) {
    for (const history of historiesOf(reads.get(repo), app.name)) {
      const branch = history.ref.branch;
      const names = stageOfBranch.get(branch) ?? [branch.slice(appBranchPrefix(app.name).length)];
      if (!names.some((n) => selection.stage(n))) continue;
      for (const folder of [...history.commits[0]?.folders.keys() ?? []].sort()) {
        if (rendersHere.has(`${branch}\n${folder}`) || !selection.cluster(folder)) continue;
        out.push({ branch, cluster: folder, targetedOn: targets.filter((t) => t.path === folder).map((t) => t.branch).sort() });
      }
    }
  }
  return out.sort((a, b) => (a.branch < b.branch ? -1 : a.branch > b.branch ? 1 : a.cluster < b.cluster ? -1 : 1));
}

/**
 * `--has` / `--lacks`: marks each selected cluster of the apps with such an artifact, and drops
 * the apps without one. A release no selected app subscribes to is a usage error.
 */
export function applyQuery(apps: AppStatus[], query: ReleaseQuery, mode: 'has' | 'lacks'): { apps: AppStatus[]; query: QueryOutput } {
  const inScope = apps.filter((a) => a.artifacts.some((x) => namesArtifact(query.artifact, x)));
  if (inScope.length === 0) {
    const labels = [...new Set(apps.flatMap((a) => a.artifacts.map((x) => x.label)))].sort();
    throw new UsageError(describe(`--${mode}`, query.text, 'names an artifact no selected app subscribes to',
      labels.length > 0 ? didYouMean(query.artifact, labels) : 'select apps with --app'));
  }
  let selected = 0;
  let having = 0;
  const marked = inScope.map((app) => ({
    ...app,
    stages: app.stages.map((s) => ({
      ...s,
      waves: s.waves.map((w) => ({
        ...w,
        clusters: w.clusters.map((c) => {
          const has = c.state === 'rendered' && (c.release?.artifacts ?? []).some((a) => namesArtifact(query.artifact, a) && atVersion(a, query.version));
          selected++;
          if (has) having++;
          return { ...c, has };
        }),
      })),
    })),
  }));
  return {
    apps: marked,
    query: {
      mode,
      release: query.text,
      artifact: query.artifact,
      version: query.version,
      selected,
      having,
      lacking: selected - having,
      all: having === selected,
    },
  };
}
