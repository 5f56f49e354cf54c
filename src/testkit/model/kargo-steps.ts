import { shortHash, GitWorld, normalizeGitUrl, normalizePath, treeHasPath, WorkDir, WorkTree } from './git-world';

/**
 * Models of the Kargo v1.11.2 promotion steps the generators emit. Each function names the
 * upstream runner it follows (`pkg/promotion/runner/builtin/<file>.go`); statuses and outputs are
 * the ones those runners return. Steps the model does not know succeed without output.
 */

export type StepStatus = 'Succeeded' | 'Skipped' | 'Errored' | 'Failed';

export interface StepResult {
  readonly status: StepStatus;
  readonly output?: Record<string, unknown>;
  readonly error?: string;
  /** Names the modelled problem when the step does not succeed. */
  readonly code?: string;
}

export interface ChartDependency {
  readonly name: string;
  readonly repository: string;
}

/** An Argo CD Application as the model sees it (generated from an ApplicationSet or written directly). */
export interface ModelApplication {
  readonly name: string;
  readonly namespace: string;
  readonly labels: Record<string, string>;
  readonly annotations: Record<string, string>;
  readonly project: string;
  readonly destination: { name?: string; server?: string; namespace?: string };
  readonly sources: Array<{ repoURL?: string; targetRevision?: string; path?: string; chart?: string }>;
  readonly syncOptions: string[];
  /** The object it comes from and the pointer to its template/spec. */
  readonly origin: { obj: any; path: string };
}

export interface StepEnv {
  readonly world: GitWorld;
  readonly workDir: WorkDir;
  readonly project: string;
  readonly stage: string;
  readonly promotion: string;
  /** The dependencies in the simulated Chart.yaml of every chart the source repository holds ('any': every update matches). */
  readonly chartDependencies: ChartDependency[] | 'any';
  readonly applications: ModelApplication[];
  /** What a reviewer does with an opened pull request. */
  readonly reviewer: 'merge' | 'close';
  /** Filled by argocd-update: the revision each Application was synced to. */
  readonly synced: Array<{ app: ModelApplication; revision: string }>;
  /**
   * The time the promotion runs at (expr-lang's `now()`).
   * @default MODEL_CLOCK
   */
  readonly now?: Date;
  /**
   * Who started the promotion (`ctx.meta.promotion.actor`): '' for an automatic promotion.
   * @default 'model'
   */
  readonly actor?: string;
}

/**
 * When the model's promotions run unless told otherwise: a fixed instant (a Monday noon in June,
 * UTC), so that results do not depend on the day the tests run. A deploy freeze that holds then
 * fails the model's promotions; give the model another `now` for it.
 */
export const MODEL_CLOCK = new Date('2026-06-15T12:00:00Z');

type StepModel = (cfg: any, env: StepEnv) => StepResult;

const ok = (output?: Record<string, unknown>): StepResult => ({ status: 'Succeeded', output });
const errored = (error: string, code: string): StepResult => ({ status: 'Errored', error, code });

/** git_cloner.go: `ensureRemoteBranch` pushes an empty orphan branch when `create` is set. */
function gitClone(cfg: any, env: StepEnv): StepResult {
  const remote = env.world.remote(cfg.repoURL);
  const commits: Record<string, string> = {};
  for (const checkout of cfg.checkout ?? []) {
    let tree: WorkTree;
    if (checkout.branch) {
      if (!remote.branches.has(checkout.branch)) {
        if (!checkout.create) {
          return errored(`error ensuring existence of remote branch ${checkout.branch}: remote branch "${checkout.branch}" of repo ${cfg.repoURL} does not exist; set create=true if you'd like a non-existent remote branch to be automatically created at checkout`, 'git-branch-missing');
        }
        const initial = remote.commit({}, [], 'Initial commit');
        remote.branches.set(checkout.branch, initial.id);
      }
      const head = remote.head(checkout.branch)!;
      tree = { path: checkout.path, repoUrl: cfg.repoURL, branch: checkout.branch, head: head.id, virtual: false, files: { ...head.tree } };
    } else {
      const ref = String(checkout.commit ?? checkout.tag ?? '');
      const known = remote.commits.get(ref);
      tree = known
        ? { path: checkout.path, repoUrl: cfg.repoURL, head: known.id, virtual: false, files: { ...known.tree } }
        : { path: checkout.path, repoUrl: cfg.repoURL, head: ref, virtual: true, files: {} };
    }
    env.workDir.add(tree);
    commits[checkout.as ?? checkout.path] = tree.head;
  }
  return ok({ commits });
}

/** git_tree_clearer.go: removes every file but `.git`. */
function gitClear(cfg: any, env: StepEnv): StepResult {
  const at = env.workDir.locate(cfg.path);
  if (!at || at.rel !== '') return errored(`error loading working tree from ${cfg.path}: not a git work tree`, 'step-error');
  at.tree.files = {};
  return ok();
}

/**
 * What a render writes: it changes when anything it reads changes (its config with the Freight
 * values in it, every checkout its `path` or `valuesFiles` point into, and the checkouts nested
 * in what it reads). helm-template reads the whole chart directory (helm `pkg/chart/loader`
 * `LoadDir` walks every file), so a checkout below the chart path is read; kustomize-build
 * follows the kustomization's references to any directory of the repository, which the model
 * cannot see, so a checkout nested anywhere in the source checkout counts as read.
 */
function render(cfg: any, env: StepEnv, uses: string): StepResult {
  const src = env.workDir.locate(cfg.path ?? '');
  if (!src) return errored(`path ${cfg.path} is not inside any checkout`, 'step-error');
  const scope = uses === 'helm-template' ? normalizePath(cfg.path ?? '') : src.tree.path;
  const nested = env.workDir.trees.filter((t) => t !== src.tree && t.path !== scope && (scope === '' || t.path.startsWith(scope + '/')));
  const read = [...[cfg.path, ...(Array.isArray(cfg.valuesFiles) ? cfg.valuesFiles : [])]
    .map((p) => env.workDir.locate(String(p))?.tree)
    .filter((t): t is WorkTree => t !== undefined), ...nested]
    .map((t) => [t.repoUrl, t.head, t.files]);
  const inputs = [uses, { ...cfg, outPath: undefined }, read];
  const out = env.workDir.locate(cfg.outPath ?? '');
  if (out) out.tree.files[out.rel || 'manifests.yaml'] = `# rendered ${shortHash(...inputs)}\n`;
  return ok();
}

/** helm_chart_updater.go + pkg/helm/dependency_manager.go `processDependencyUpdates`: exact name and repository. */
function helmUpdateChart(cfg: any, env: StepEnv): StepResult {
  const at = env.workDir.locate(cfg.path ?? '');
  if (!at) return errored(`path ${cfg.path} is not inside any checkout`, 'step-error');
  for (const update of cfg.charts ?? []) {
    const found = env.chartDependencies === 'any' || env.chartDependencies.some((d) => d.name === update.name && d.repository === update.repository);
    if (!found) {
      return errored(`no dependency in Chart.yaml matches update with repository "${update.repository}" and name "${update.name}"`, 'helm-dependency-not-found');
    }
    // a dependency is one (name, repository) pair: two charts of one name from two repositories
    // (told apart in Chart.yaml by an alias) are two dependencies
    at.tree.files[`${normalizePath(at.rel + '/Chart.yaml')}#${update.name}@${update.repository}`] = String(update.version);
  }
  return ok();
}

/** kustomize_image_setter.go: records the new image in the kustomization. */
function kustomizeSetImage(cfg: any, env: StepEnv): StepResult {
  const at = env.workDir.locate(cfg.path ?? '');
  if (!at) return errored(`path ${cfg.path} is not inside any checkout`, 'step-error');
  for (const image of cfg.images ?? []) {
    at.tree.files[`${normalizePath(at.rel + '/kustomization.yaml')}#${image.image}`] = JSON.stringify(image);
  }
  return ok();
}

/** yaml_merger.go: `ignoreMissingFiles` skips absent inputs; with none left it writes an empty file. */
function yamlMerge(cfg: any, env: StepEnv): StepResult {
  const out = env.workDir.locate(cfg.outFile ?? '');
  if (out) out.tree.files[out.rel] = shortHash(cfg.inFiles);
  return ok();
}

/** git_commiter.go: nothing staged → Skipped, but the output still names the head commit. */
function gitCommit(cfg: any, env: StepEnv): StepResult {
  const at = env.workDir.locate(cfg.path);
  if (!at || at.tree.virtual) return errored(`error loading working tree from ${cfg.path}`, 'step-error');
  const remote = env.world.remote(at.tree.repoUrl);
  const base = remote.commits.get(at.tree.head);
  if (base && JSON.stringify(sorted(base.tree)) === JSON.stringify(sorted(at.tree.files))) {
    return { status: 'Skipped', output: { commit: at.tree.head } };
  }
  const commit = remote.commit(at.tree.files, base ? [base.id] : [], String(cfg.message ?? ''));
  at.tree.head = commit.id;
  return ok({ commit: commit.id });
}

/** git_pusher.go: `generateTargetBranch` pushes (forced) to `kargo/promotion/<promotion>`; output commit and branch. */
function gitPush(cfg: any, env: StepEnv): StepResult {
  const at = env.workDir.locate(cfg.path);
  if (!at || at.tree.virtual) return errored(`error loading working tree from ${cfg.path}`, 'step-error');
  const branch = cfg.generateTargetBranch ? `kargo/promotion/${env.promotion}` : cfg.targetBranch || at.tree.branch;
  if (!branch) return errored('error getting current branch: HEAD is detached', 'step-error');
  env.world.remote(at.tree.repoUrl).branches.set(branch, at.tree.head);
  return ok({ commit: at.tree.head, branch });
}

/**
 * git_pr_opener.go: adopts an open or merged PR from the same head; fails when the target branch
 * does not exist (`createTargetBranch` is deprecated and ignored); Skipped, with no output, when
 * source and target have no differences.
 */
function gitOpenPr(cfg: any, env: StepEnv): StepResult {
  const remote = env.world.remote(cfg.repoURL);
  const source = remote.head(cfg.sourceBranch);
  if (!source) return errored(`error cloning ${cfg.repoURL}: couldn't find remote ref ${cfg.sourceBranch}`, 'git-branch-missing');
  const existing = remote.pullRequests.find((p) => p.source === cfg.sourceBranch && p.target === cfg.targetBranch
    && p.head === source.id && (p.open || p.merged));
  if (existing) return ok({ pr: { id: existing.id, url: `${cfg.repoURL}/pull/${existing.id}` } });
  const target = remote.head(cfg.targetBranch);
  if (!target) return errored(`target branch "${cfg.targetBranch}" does not exist`, 'open-pr-target-missing');
  if (JSON.stringify(sorted(source.tree)) === JSON.stringify(sorted(target.tree))) return { status: 'Skipped' };
  const pr = { id: remote.pullRequests.length + 1, source: cfg.sourceBranch, target: cfg.targetBranch, head: source.id, merged: false, open: true };
  remote.pullRequests.push(pr);
  return ok({ pr: { id: pr.id, url: `${cfg.repoURL}/pull/${pr.id}` } });
}

/** git_pr_waiter.go: Running while open; Failed when closed unmerged; output `commit` = merge commit. */
function gitWaitForPr(cfg: any, env: StepEnv): StepResult {
  if (!Number.isInteger(cfg.prNumber)) return { status: 'Failed', error: `prNumber: Invalid type. Expected: integer, given: ${JSON.stringify(cfg.prNumber ?? null)}`, code: 'step-config-invalid' };
  const remote = env.world.remote(cfg.repoURL);
  const pr = remote.pullRequests.find((p) => p.id === cfg.prNumber);
  if (!pr) return errored(`error getting pull request ${cfg.prNumber}: not found`, 'step-error');
  if (pr.open && env.reviewer === 'merge') {
    const target = remote.head(pr.target);
    const source = remote.commits.get(pr.head)!;
    const merge = remote.commit(source.tree, [target?.id, source.id].filter((x): x is string => !!x), `Merge pull request #${pr.id}`);
    remote.branches.set(pr.target, merge.id);
    Object.assign(pr, { open: false, merged: true, mergeCommit: merge.id });
  } else if (pr.open) {
    pr.open = false;
  }
  const output = { pr: { id: pr.id, open: pr.open, merged: pr.merged }, ...(pr.mergeCommit ? { commit: pr.mergeCommit } : {}) };
  if (!pr.merged) return { status: 'Failed', output, error: `pull request ${pr.id} was closed without being merged`, code: 'pr-closed' };
  return ok(output);
}

/**
 * argocd_updater.go: updates the authorized Applications the selector matches, each source whose
 * repoURL matches an update (`applyArgoCDSourceUpdate`), then waits for the sync to the desired
 * revision; Argo CD can only sync a revision its targetRevision branch holds.
 */
function argocdUpdate(cfg: any, env: StepEnv): StepResult {
  for (const target of cfg.apps ?? []) {
    const namespace = target.namespace ?? 'argocd';
    const matching = env.applications.filter((a) => a.namespace === namespace
      && (target.name ? a.name === target.name : selectorMatches(target.selector, a.labels)));
    const entry = `${env.project}:${env.stage}`;
    const authorized = matching.filter((a) => (a.annotations['kargo.akuity.io/authorized-stage'] ?? '').split(',').map((s) => s.trim()).includes(entry));
    if (authorized.length === 0) {
      return errored(`found ${matching.length} Application(s) matching selector in namespace "${namespace}", but none are authorized for Stage ${entry}`, 'argocd-app-not-found');
    }
    for (const app of authorized) {
      for (const update of target.sources ?? []) {
        const source = app.sources.find((s) => normalizeGitUrl(s.repoURL ?? '') === normalizeGitUrl(update.repoURL ?? ''));
        if (!source) return errored(`no source of Argo CD Application "${app.name}" in namespace "${namespace}" matched update for source with repoURL ${update.repoURL}`, 'argocd-source-mismatch');
        const revision = update.desiredRevision;
        if (typeof revision !== 'string' || revision === '') {
          return { status: 'Failed', error: `desiredRevision must be a non-empty string, got ${JSON.stringify(revision ?? null)}`, code: 'step-config-invalid' };
        }
        const problem = syncProblem(env, source, revision);
        if (problem) return errored(`Application "${app.name}" cannot sync to ${revision}: ${problem}`, 'application-revision-missing');
        env.synced.push({ app, revision });
      }
    }
  }
  return ok();
}

/** What keeps Argo CD's repo-server from resolving an Application source at a revision ('' = nothing). */
export function syncProblem(env: Pick<StepEnv, 'world'>, source: ModelApplication['sources'][number], revision?: string): string {
  const remote = env.world.remote(source.repoURL ?? '');
  const branch = source.targetRevision ?? 'HEAD';
  const head = remote.head(branch);
  if (!head) return `branch ${JSON.stringify(branch)} does not exist in ${source.repoURL} (ComparisonError until it does)`;
  if (revision !== undefined && !remote.reachable(branch, revision)) return `revision ${revision} is not on branch ${JSON.stringify(branch)}`;
  const tree = revision !== undefined ? remote.commits.get(revision)!.tree : head.tree;
  const path = normalizePath(source.path ?? '');
  if (!treeHasPath(tree, path)) {
    return `path ${JSON.stringify(source.path)} does not exist on branch ${JSON.stringify(branch)} (app path does not exist)`;
  }
  return '';
}

export function selectorMatches(selector: any, labels: Record<string, string>): boolean {
  if (!selector) return false;
  for (const [k, v] of Object.entries(selector.matchLabels ?? {})) {
    if (labels[k] !== v) return false;
  }
  for (const r of selector.matchExpressions ?? []) {
    const has = Object.prototype.hasOwnProperty.call(labels, r.key);
    const values: string[] = r.values ?? [];
    if (r.operator === 'In' && !(has && values.includes(labels[r.key]))) return false;
    if (r.operator === 'NotIn' && has && values.includes(labels[r.key])) return false;
    if (r.operator === 'Exists' && !has) return false;
    if (r.operator === 'DoesNotExist' && has) return false;
  }
  return true;
}

function sorted(tree: Record<string, string>): Array<[string, string]> {
  return Object.entries(tree).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/** failer.go `run`: always Failed (a TerminalError), with `failed: <message>`. */
function fail(cfg: any): StepResult {
  return { status: 'Failed', error: cfg?.message ? `failed: ${cfg.message}` : 'failed', code: 'promotion-failed' };
}

export const STEP_MODELS: Record<string, StepModel> = {
  'fail': fail,
  'git-clone': gitClone,
  'git-clear': gitClear,
  'helm-template': (cfg, env) => render(cfg, env, 'helm-template'),
  'kustomize-build': (cfg, env) => render(cfg, env, 'kustomize-build'),
  'helm-update-chart': helmUpdateChart,
  'kustomize-set-image': kustomizeSetImage,
  'yaml-merge': yamlMerge,
  'git-commit': gitCommit,
  'git-push': gitPush,
  'git-open-pr': gitOpenPr,
  'git-wait-for-pr': gitWaitForPr,
  'argocd-update': argocdUpdate,
};
