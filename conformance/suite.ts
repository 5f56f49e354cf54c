import { spawn, spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as YAML from 'yaml';
import { modelUpstream } from './model-upstream';
import { cachedResult, cacheOn, directoriesDigest, keepResult, resultKey } from './result-cache';
import { ControllerFinding, formatIssues, ManifestIssue, ModelBehaviour, setSource, simulateFleetChange, simulateManifestDirectory, SimulateControllersOptions } from '../src/testkit';

/*
 * The conformance suite's plumbing, shared by run.ts, check-known-breaks.ts and differential.ts:
 * build the Go modules under conformance/*\/go.mod (commands that run the synthesized output through Kargo's, Argo CD's, Argo Rollouts' and the API server's own Go code;
 * CONFORMANCE-PROTOCOL.md), run them with the protocol's flags, and run the test kit's model of
 * the controllers for the behaviours no command decides (docs/conformance.md says which).
 */

export const ROOT = path.resolve(__dirname, '..');
/** Where the module binaries go (gitignored); Go's build cache makes rebuilding them cheap. */
export const BIN_DIR = path.join(ROOT, '.conformance', 'bin');

/** The suite itself could not run (Go missing, a module that does not build or exits 2): exit 2. */
export class SuiteError extends Error {}

/** One finding, as a module prints it (protocol) or as the model reports it (`upstream` = `model: ...`). */
export interface ConformanceFinding extends ManifestIssue {
  readonly code: string;
  readonly upstream: string;
}

/** What one module (or the model) reported. */
export interface ModuleReport {
  readonly module: string;
  readonly counted: Record<string, number>;
  readonly findings: ConformanceFinding[];
}

/** One command of the suite: a `main` package of a Go module under conformance/. */
export interface GoModule {
  /** The command's name: `cmd/<name>` of a module with several commands, else the module's directory name. */
  readonly name: string;
  /** The Go module's directory. */
  readonly dir: string;
  /** The package to build, relative to `dir` (`./cmd/<name>` or `.`). */
  readonly pkg: string;
  readonly bin: string;
}

/**
 * Every command of the suite, sorted by name: for each `conformance/<module>/go.mod`, each
 * `cmd/<name>/` of the module (one module can hold several commands that share its dependencies,
 * built once), or the module itself when it has no `cmd/`.
 */
export function findModules(root: string = ROOT): GoModule[] {
  const dir = path.join(root, 'conformance');
  const commands: GoModule[] = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const moduleDir = path.join(dir, e.name);
    if (!e.isDirectory() || !fs.existsSync(path.join(moduleDir, 'go.mod'))) continue;
    const cmd = path.join(moduleDir, 'cmd');
    if (fs.existsSync(cmd)) {
      for (const c of fs.readdirSync(cmd, { withFileTypes: true }).filter((x) => x.isDirectory())) {
        commands.push({ name: c.name, dir: moduleDir, pkg: `./cmd/${c.name}`, bin: path.join(root, '.conformance', 'bin', c.name) });
      }
    } else {
      commands.push({ name: e.name, dir: moduleDir, pkg: '.', bin: path.join(root, '.conformance', 'bin', e.name) });
    }
  }
  return commands.sort((a, b) => a.name.localeCompare(b.name));
}

/** Progress of the suite, on stderr: a cold build takes minutes, and is never silent that long. */
export function progress(line: string): void {
  process.stderr.write(`conformance: ${line}\n`);
}

/**
 * Builds every command (`go build -o .conformance/bin/ <packages>`, one build per Go module, so
 * the commands of a module share one build of its dependencies), after filling `.upstream-go/`
 * (scripts/upstream-go.sh: Kargo's and Argo CD's nested modules, which their `replace` lines
 * name). The download and the build print how far they are every 30 seconds.
 */
export function buildModules(modules: GoModule[]): void {
  if (modules.length === 0) return;
  const go = spawnSync('go', ['version'], { encoding: 'utf8' });
  if (go.error || go.status !== 0) {
    throw new SuiteError(`go is not installed or does not run (${go.error?.message ?? go.stderr.trim()}): the conformance modules need Go ${goLine(modules[0])}`);
  }
  const byModule = new Map<string, GoModule[]>();
  for (const m of modules) byModule.set(m.dir, [...byModule.get(m.dir) ?? [], m]);
  if ([...byModule.keys()].some((d) => fs.readFileSync(path.join(d, 'go.mod'), 'utf8').includes('.upstream-go/'))) fillUpstreamGo();
  fs.mkdirSync(BIN_DIR, { recursive: true });
  for (const [dir, commands] of byModule) {
    const rel = path.relative(ROOT, dir);
    const started = Date.now();
    progress(`building ${rel} (${commands.map((c) => c.name).join(', ')})`);
    runWithProgress(`downloading the modules of ${rel}`, 'go mod download -x 2>&1', dir, '^# get ', 'module files fetched');
    const pkgs = commands.map((c) => c.pkg).join(' ');
    // -buildvcs=false: the project's commit and whether its tree is clean would be stamped into
    // the binaries, and a report kept for a binary (result-cache.ts) would then miss after any edit
    runWithProgress(`building ${rel}`, `go build -v -buildvcs=false -ldflags='-s -w' -o ${JSON.stringify(BIN_DIR + path.sep)} ${pkgs} 2>&1`, dir, '^[A-Za-z0-9._~/-]+$', 'packages compiled',
      (out) => `${rel} does not build (go build: ${firstLine(out.split('\n').filter((l) => !/^[A-Za-z0-9._~/-]+$/.test(l)).join('\n'))})`);
    progress(`built ${rel} in ${Math.round((Date.now() - started) / 1000)} s`);
  }
}

/**
 * Runs a shell command in dir whose output lines matching `counted` are counted, printing the
 * count every 30 seconds, and fails with `failure(output)` when it exits non-zero.
 */
function runWithProgress(what: string, command: string, dir: string, counted: string, unit: string, failure?: (out: string) => string): void {
  // awk prints the count every 30 s and keeps every other line for the error message
  const script = `set -o pipefail; ${command} | awk -v what=${JSON.stringify(what)} -v unit=${JSON.stringify(unit)} '
    BEGIN { last = systime() }
    $0 ~ /${counted}/ { n++; if (systime() - last >= 30) { printf "conformance: %s: %d %s\\n", what, n, unit > "/dev/stderr"; last = systime() } next }
    { print }'`;
  const run = spawnSync('bash', ['-c', script], { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 64 * 1024 * 1024 });
  if (run.error || run.status !== 0) {
    throw new SuiteError(failure ? failure(run.stdout ?? '') : `${what} failed: ${firstLine(run.error?.message ?? run.stdout ?? '')}`);
  }
}

/** How many runs of the suite's commands go at once: each waits on git or on the others much of its time. */
export const PARALLEL = Math.max(2, os.cpus().length);

/** `run` on every item, `parallel` at a time, each result at its item's index. */
export async function inPool<T, R>(items: readonly T[], parallel: number, run: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await run(items[i], i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(parallel, items.length) }, worker));
  return results;
}

/** scripts/upstream-go.sh: the nested upstream modules, checked by git tree id. */
function fillUpstreamGo(): void {
  const run = spawnSync(path.join(ROOT, 'scripts', 'upstream-go.sh'), ['--quiet'], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'inherit', 'pipe'] });
  if (run.error || run.status !== 0) {
    throw new SuiteError(`scripts/upstream-go.sh could not fill .upstream-go/: ${lastLine(run.stderr ?? '') || run.error?.message}`);
  }
}

/**
 * The directory of a git >= 2.42 for Kargo's git steps (scripts/git-for-kargo.sh builds one into
 * $GIT_TOOLS_DIR, default .tools/, when the machine's is older), put first on the commands' PATH.
 */
let gitDir: string | undefined;
export function gitForKargo(): string {
  if (gitDir !== undefined) return gitDir;
  const run = spawnSync(path.join(ROOT, 'scripts', 'git-for-kargo.sh'), [], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  if (run.error || run.status !== 0) throw new SuiteError(`scripts/git-for-kargo.sh found no git >= 2.42 for kargo's git steps (${run.error?.message ?? 'see above'})`);
  gitDir = run.stdout.trim();
  return gitDir;
}

function parseReport(m: GoModule, run: { status: number | null; signal?: NodeJS.Signals | null; stdout: string }): ModuleReport {
  if (run.status !== 0) {
    throw new SuiteError(`the conformance command ${m.name} exited ${run.status ?? run.signal} (its reason is the line above)`);
  }
  let report: any;
  try {
    report = JSON.parse(run.stdout);
  } catch (e) {
    throw new SuiteError(`conformance/${m.name} printed no JSON document (${(e as Error).message})`);
  }
  if (typeof report?.module !== 'string' || typeof report.counted !== 'object' || report.counted === null || !Array.isArray(report.findings ?? [])) {
    throw new SuiteError(`conformance/${m.name} printed JSON without "module", "counted" and "findings"`);
  }
  return { module: report.module, counted: report.counted, findings: report.findings ?? [] };
}

/** A finished child process: its exit, what it printed (stderr when piped), or why it did not run. */
export interface Collected {
  readonly status: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly error?: Error;
}

/** Runs a process to its end without blocking this one, collecting its stdout (and stderr, unless `inheritStderr`). */
export function collect(command: string, args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv; inheritStderr?: boolean } = {}):
Promise<Collected> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', options.inheritStderr ? 'inherit' : 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout!.on('data', (d: Buffer) => out.push(d));
    child.stderr?.on('data', (d: Buffer) => err.push(d));
    const done = (status: number | null, signal: NodeJS.Signals | null, error?: Error) =>
      resolve({ status, signal, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8'), error });
    child.on('error', (e) => done(null, null, e));
    child.on('close', (status, signal) => done(status, signal));
  });
}

/** The kind of file system statfs calls tmpfs (linux/magic.h TMPFS_MAGIC). */
const TMPFS_MAGIC = 0x01021994;
/** What a memory file system must have free to hold the commands' work directories. */
const TMPFS_ROOM = 2 * 1024 ** 3;

/**
 * Where the commands make their work directories (their TMPDIR), one directory for this process,
 * removed when it exits. Kargo's promotions make and remove thousands of small files (clones,
 * work trees, objects, lock files); on a disk that churn can cost as much CPU as the git processes
 * themselves (ext4 without a journal scans the inodes it freed recently at every new file:
 * `recently_deleted` in fs/ext4/ialloc.c). So a memory file system is used when there is one with
 * room: CONFORMANCE_TMPDIR, else /dev/shm when it is a tmpfs with 2 GiB free, else the system's.
 */
let commandsTmp: string | undefined;
function commandsTmpDir(): string {
  if (commandsTmp !== undefined) return commandsTmp;
  const chosen = process.env.CONFORMANCE_TMPDIR ?? (memoryFileSystemWithRoom('/dev/shm') ? '/dev/shm' : os.tmpdir());
  const dir = fs.mkdtempSync(path.join(chosen, 'cdk8s-conformance-'));
  const remove = () => fs.rmSync(dir, { recursive: true, force: true });
  process.on('exit', remove);
  // a memory file system keeps what is left on it until the machine restarts: an interrupted run
  // removes it too, then ends as the signal would have ended it
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      remove();
      process.kill(process.pid, signal);
    });
  }
  commandsTmp = dir;
  return dir;
}

function memoryFileSystemWithRoom(dir: string): boolean {
  try {
    const fsInfo = fs.statfsSync(dir);
    fs.accessSync(dir, fs.constants.W_OK);
    return fsInfo.type === TMPFS_MAGIC && fsInfo.bavail * fsInfo.bsize >= TMPFS_ROOM;
  } catch {
    return false;
  }
}

/** Runs a command; its progress and its reason for failing go to this process's stderr. */
async function spawnModule(m: GoModule, args: string[]): Promise<Collected> {
  const env = { ...process.env, PATH: `${gitForKargo()}${path.delimiter}${process.env.PATH ?? ''}`, TMPDIR: commandsTmpDir() };
  const run = await collect(m.bin, args, { env, inheritStderr: true });
  if (run.error) throw new SuiteError(`conformance/${m.name} did not run (${run.error.message})`);
  return run;
}

export interface ManifestRunOptions {
  readonly before?: string;
  /** RFC 3339 time for modules that evaluate schedules or soak times. */
  readonly now?: string;
}

/**
 * Runs every module on a directory of manifests, all at once (Kargo's promotions wait on git most
 * of their time, and take longest: the other commands run beside them); reports come back in the
 * modules' order, and module sources are made relative to the caller's `dir`. A run made before
 * with the same command and the same files is not made again: its report is reused
 * (result-cache.ts says what decides a report).
 */
export function runModulesOnManifests(modules: GoModule[], dir: string, options: ManifestRunOptions = {}): Promise<ModuleReport[]> {
  const dirs = [path.resolve(dir)];
  const args = ['--manifests', dirs[0]];
  const flags = ['--manifests', 'dir:0'];
  if (options.before !== undefined) {
    dirs.push(path.resolve(options.before));
    args.push('--before', dirs[1]);
    flags.push('--before', 'dir:1');
  }
  if (options.now !== undefined) {
    args.push('--now', options.now);
    flags.push('--now', options.now);
  }
  const where = path.relative(ROOT, dirs[0]) || '.';
  const digest = cacheOn() ? directoriesDigest(dirs) : '';
  return Promise.all(modules.map(async (m) => {
    const key = resultKey({ bin: m.bin, flags, dirs: digest, context: gitVersion() });
    const kept = cachedResult(key);
    let report: ModuleReport;
    if (kept !== undefined) {
      progress(`${m.name} on ${where}: the report of the same command on the same files, kept in .conformance/results`);
      report = parseReport(m, { status: 0, stdout: kept });
    } else {
      progress(`running ${m.name} on ${where}`);
      const run = await spawnModule(m, args);
      report = parseReport(m, run);
      keepResult(key, run.stdout);
    }
    return { ...report, findings: report.findings.map((f) => ({ ...f, source: path.join(dir, f.source) })) };
  }));
}

/**
 * The commands on a directory, and the test kit's model on it (runModel), which runs in this
 * process once the commands have started in theirs.
 */
export async function runCommandsAndModel(modules: GoModule[], dir: string, options: ManifestRunOptions & { all?: boolean } = {}):
Promise<{ commands: ModuleReport[]; model: ModuleReport }> {
  const modelRun = Promise.resolve().then(() => runModel(dir, options));
  const [commands, model] = await Promise.all([runModulesOnManifests(modules, dir, options), modelRun]);
  return { commands, model };
}

/** The git the commands run (Kargo's steps), as a cache key part: where it is and its version. */
let gitVersionLine: string | undefined;
function gitVersion(): string {
  if (gitVersionLine === undefined) {
    const dir = gitForKargo();
    const run = spawnSync(path.join(dir, 'git'), ['--version'], { encoding: 'utf8' });
    gitVersionLine = `${dir} ${run.stdout?.trim() ?? run.error?.message}`;
  }
  return gitVersionLine;
}

/**
 * The behaviours the upstream commands decide, which the model then leaves out: promotions and
 * Freight over time (conformance/controllers kargo) and ApplicationSets, fleet changes included
 * (conformance/controllers argocd).
 */
export const UPSTREAM_DECIDES: ModelBehaviour[] = ['applicationsets', 'promotions', 'releases'];

/**
 * The test kit's model of the controllers on a directory, labelled as a model, for the behaviours
 * no upstream command decides (`UPSTREAM_DECIDES` are left out). `all: true` runs every modelled
 * behaviour (differential.ts, to compare them with upstream).
 */
export function runModel(dir: string, options: ManifestRunOptions & { all?: boolean } = {}): ModuleReport {
  const modelOptions: SimulateControllersOptions = options.all ? {} : { skip: UPSTREAM_DECIDES };
  let findings: ControllerFinding[];
  try {
    findings = simulateManifestDirectory(dir, modelOptions);
    if (options.all && options.before !== undefined) {
      findings = [...findings, ...simulateFleetChange(readObjects(options.before), readObjects(dir)).findings];
    }
  } catch (e) {
    throw new SuiteError(`the test kit model failed on ${dir}: ${firstLine((e as Error).message)}`);
  }
  return {
    module: 'model',
    counted: { files: countYamlFiles(dir) },
    findings: findings.map((f) => ({ ...f, upstream: modelUpstream(f.code) })),
  };
}

/** One line per finding: the test kit's format followed by ` (upstream: <function>)`. */
export function formatFinding(f: ConformanceFinding): string {
  return `${formatIssues([f])} (upstream: ${f.upstream})`;
}

/** `<module>: <what> <n>, ...; <n> findings` for each report. */
export function formatSummary(reports: ModuleReport[]): string[] {
  return reports.map((r) => {
    const counts = Object.keys(r.counted).sort().map((k) => `${k} ${r.counted[k]}`).join(', ');
    const label = r.module === 'model' ? 'model (test kit model of what no command decides; not upstream code)' : r.module;
    return `${label}: ${counts || 'nothing counted'}; ${r.findings.length} finding${r.findings.length === 1 ? '' : 's'}`;
  });
}

export function sortFindings(findings: ConformanceFinding[]): ConformanceFinding[] {
  const key = (f: ConformanceFinding) => [f.source, f.kind, f.namespace ?? '', f.name, f.path, f.code, f.upstream].join('\u0000');
  return [...findings].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}

/** Every object of every YAML file below `dir`, each knowing its file (as simulateManifestDirectory reads them). */
function readObjects(dir: string): any[] {
  const objects: any[] = [];
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) {walk(p);} else if (/\.ya?ml$/.test(e.name)) {
        for (const doc of YAML.parseAllDocuments(fs.readFileSync(p, 'utf8'))) {
          const obj = doc.errors.length === 0 ? doc.toJS() : undefined;
          if (obj !== null && typeof obj === 'object') {
            setSource(obj, p);
            objects.push(obj);
          }
        }
      }
    }
  };
  walk(dir);
  return objects;
}

function countYamlFiles(dir: string): number {
  let n = 0;
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    if (e.isDirectory()) n += countYamlFiles(path.join(dir, e.name));
    else if (/\.ya?ml$/.test(e.name)) n++;
  }
  return n;
}

function goLine(m: GoModule): string {
  const mod = fs.readFileSync(path.join(m.dir, 'go.mod'), 'utf8');
  return /^go\s+(\S+)/m.exec(mod)?.[1] ?? '';
}

function firstLine(text: string): string {
  return text.split('\n').map((l) => l.trim()).find((l) => l !== '' && !l.startsWith('#')) ?? 'no output';
}

function lastLine(text: string): string {
  return text.trim().split('\n').pop()?.trim() ?? '';
}
