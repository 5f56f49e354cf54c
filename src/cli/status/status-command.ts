import * as fs from 'fs';
import * as path from 'path';
import { appOfBranch, applyQuery, buildStatus, ReleaseReads, releasesOf, selectedApps, selectedTargets, StatusSelection } from './fleet-status';
import { GitObjects } from './git-objects';
import { KubeApi, kubeTarget } from './kube-api';
import { addLive } from './live-status';
import { HistoryOptions, readHistories } from './release-history';
import { ReleaseRepository } from './release-repo';
import { clusterMatcher, nameMatcher, normalizeRepo, parseReleaseQuery, splitTerms } from './status-filters';
import { renderStatus } from './status-markdown';
import { AppStatus, clustersOf, LiveSource, RepositoryOutput, StatusOutput } from './status-model';
import { loadStatusPlan, PlanArtifact, StatusPlan } from './status-plan';
import { didYouMean } from '../../util/closest';
import { describe } from '../../util/errors';
import { countFlag, Flags } from '../cli-flags';
import { OUTPUT_SCHEMA_VERSION } from '../plan-json';
import { Progress, ProgressIo } from '../progress';
import { Scratch, synthesize, UsageError } from '../synth-tree';

/** What `status` writes to. */
export interface StatusIo extends ProgressIo {
  readonly cwd: string;
  readonly stdout: (text: string) => void;
}

const DEFAULT_HISTORY = 50;

/** `status`: see the usage (cli-flags.ts STATUS). Returns the exit code. */
export async function status(flags: Flags, io: StatusIo): Promise<number> {
  const { values, switches } = flags;
  if (flags.positional.length) throw new UsageError(describe('status', flags.positional.join(' '), 'takes no arguments', '`cdk8s-gitops-platform status --help` lists its options'));
  if (values.has !== undefined && values.lacks !== undefined) throw new UsageError(describe('--has and --lacks', 'both', 'ask the same question', 'choose one', String));
  const history = Math.max(1, countFlag(flags, 'history', DEFAULT_HISTORY));
  const mode = values.has !== undefined ? 'has' : values.lacks !== undefined ? 'lacks' : undefined;
  const query = mode && parseReleaseQuery(`--${mode}`, values[mode]);
  for (const f of ['kubeconfig', 'context']) {
    if (values[f] !== undefined && !switches.has('live')) throw new UsageError(describe(`--${f}`, values[f], 'is for --live', `add --live, or drop --${f}`));
  }
  const progress = new Progress(io, switches.has('quiet'));
  const scratch = new Scratch();
  const readers: GitObjects[] = [];
  try {
    const plan = await readPlan(values.dir, io, progress, scratch);
    const selection = selectionOf(flags, plan);
    const historyOptions = { limit: history, artifactsOf: artifactsOfBranch(plan) };
    const { reads, repositories } = await readReleaseBranches(plan, selection, values['release-repo'], { io, progress, scratch, history: historyOptions, readers });
    let apps = buildStatus(plan, selection, reads);
    const answered = query && mode ? applyQuery(apps, query, mode) : undefined;
    if (answered) apps = answered.apps;
    let liveSource: LiveSource | undefined;
    if (switches.has('live')) {
      const api = new KubeApi(kubeTarget(values.kubeconfig, values.context, io.cwd));
      apps = await progress.around(`reading Argo CD and Kargo on ${api.target.server}`, () => addLive(apps, api, reads, historyOptions));
      liveSource = { context: api.target.context, server: api.target.server };
    }
    const output = statusOutput(apps, repositories, answered?.query, liveSource);
    io.stdout(switches.has('json') ? `${JSON.stringify(output, null, 2)}\n` : renderStatus(output));
    const drifted = output.summary.drifted ?? 0;
    return (answered && !answered.query.all) || drifted > 0 ? 1 : 0;
  } finally {
    progress.stop();
    readers.forEach((r) => r.close());
    scratch.cleanup();
  }
}

/** The plan: a synthesized directory, or the working tree synthesized into the scratch directory. */
async function readPlan(dir: string | undefined, io: StatusIo, progress: Progress, scratch: Scratch): Promise<StatusPlan> {
  let outDir: string;
  if (dir !== undefined) {
    outDir = path.resolve(io.cwd, dir);
    if (!fs.existsSync(outDir) || !fs.statSync(outDir).isDirectory()) throw new UsageError(describe('--dir', dir, 'is not a directory', 'pass the directory cdk8s synth wrote'));
  } else {
    outDir = path.join(scratch.dir, 'head-out');
    await progress.around('synthesizing the working tree', () => synthesize(io.cwd, outDir, path.join(io.cwd, 'node_modules'), scratch));
  }
  return progress.aroundSync('reading the synthesized apps', () => loadStatusPlan(outDir));
}

function selectionOf(flags: Flags, plan: StatusPlan): StatusSelection {
  const apps = splitTerms(flags.values.app);
  const stages = splitTerms(flags.values.stage);
  const appNames = plan.apps.map((a) => a.name);
  const stageNames = [...new Set(plan.apps.flatMap((a) => a.stages.flatMap((s) => [s.name, ...s.waves.flatMap((w) => [w.name, ...w.kargoStages])])))]
    .sort();
  for (const [flag, given, known] of [['--app', apps, appNames], ['--stage', stages, stageNames]] as const) {
    for (const name of given) {
      if (!name.includes('*') && !known.includes(name)) throw new UsageError(describe(flag, name, 'matches nothing the synthesized apps define', didYouMean(name, [...known])));
    }
  }
  return { app: nameMatcher(apps), stage: nameMatcher(stages), cluster: clusterMatcher(flags.values.cluster, plan.clusterLabels) };
}

interface ReadContext {
  readonly io: StatusIo;
  readonly progress: Progress;
  readonly scratch: Scratch;
  readonly history: HistoryOptions;
  readonly readers: GitObjects[];
}

/** The artifacts of the app a branch belongs to (to read records written before the trailers). */
function artifactsOfBranch(plan: StatusPlan): (branch: string) => PlanArtifact[] {
  const byBranch = new Map(plan.apps.flatMap((a) => releasesOf(a).map((r) => [r.branch, a.name] as const)));
  return (branch) => plan.artifacts.get(byBranch.get(branch) ?? branch.split('/')[1]) ?? [];
}

/** Reads the release branches the selection needs, from each release repository (or what `--release-repo` puts in its place). */
async function readReleaseBranches(plan: StatusPlan, selection: StatusSelection, releaseRepo: string | undefined, ctx: ReadContext)
  : Promise<{ reads: ReleaseReads; repositories: RepositoryOutput[] }> {
  const apps = selectedApps(plan, selection);
  const urls = new Map<string, string>();
  for (const app of apps) for (const t of selectedTargets(app, selection)) urls.set(normalizeRepo(t.repoUrl), t.repoUrl);
  const locations = repoLocations([...urls.values()], releaseRepo);
  const reads: ReleaseReads = new Map();
  const repositories: RepositoryOutput[] = [];
  for (const [key, url] of [...urls].sort()) {
    const location = locations.get(key) ?? url;
    const repo = ctx.progress.aroundSync(`${fs.existsSync(path.resolve(ctx.io.cwd, location)) ? 'opening' : 'fetching'} ${location}`,
      () => ReleaseRepository.open(location, ctx.io.cwd, ctx.scratch.dir, ctx.history.limit + 1));
    const refs = repo.branches();
    const wanted = new Set(apps.filter((a) => selectedTargets(a, selection).some((t) => normalizeRepo(t.repoUrl) === key)).map((a) => a.name));
    const toRead = [...refs.values()].filter((r) => wanted.has(appOfBranch(r.branch)));
    const objects = repo.objects();
    ctx.readers.push(objects);
    const histories = await ctx.progress.around(`reading ${toRead.length} release branches of ${repo.label}`, () => readHistories(objects, toRead, ctx.history));
    reads.set(key, { histories, objects });
    repositories.push({ url, readFrom: repo.label, fetched: repo.fetched, branches: refs.size });
  }
  return { reads, repositories };
}

/**
 * Where each release repository is read: `--release-repo <path or url>` for every one, or
 * `<apps' url>=<path or url>` per repository; by default the URL the apps deploy from.
 */
function repoLocations(urls: string[], option: string | undefined): Map<string, string> {
  const out = new Map<string, string>();
  let forAll: string | undefined;
  for (const term of splitTerms(option)) {
    const eq = term.indexOf('=');
    const key = eq > 0 ? normalizeRepo(term.slice(0, eq)) : undefined;
    if (key !== undefined && urls.some((u) => normalizeRepo(u) === key)) {
      out.set(key, term.slice(eq + 1));
    } else if (forAll === undefined) {
      forAll = term;
    } else {
      throw new UsageError(describe('--release-repo', option, 'names two repositories for all apps',
        `write <url>=<path or url> for each of ${urls.join(', ')}`));
    }
  }
  if (forAll !== undefined) for (const u of urls) if (!out.has(normalizeRepo(u))) out.set(normalizeRepo(u), forAll);
  return out;
}

function statusOutput(apps: AppStatus[], repositories: RepositoryOutput[], query: StatusOutput['query'], live: StatusOutput['live']): StatusOutput {
  const clusters = apps.flatMap(clustersOf);
  return {
    schemaVersion: OUTPUT_SCHEMA_VERSION,
    command: 'status',
    repositories,
    ...(query ? { query } : {}),
    ...(live ? { live } : {}),
    apps,
    summary: {
      clusters: clusters.length,
      rendered: clusters.filter((c) => c.state === 'rendered').length,
      notRendered: clusters.filter((c) => c.state === 'not-rendered').length,
      orphans: apps.reduce((n, a) => n + a.orphans.length, 0),
      ...(live ? { drifted: clusters.filter((c) => (c.live?.drift.length ?? 0) > 0).length } : {}),
    },
  };
}
