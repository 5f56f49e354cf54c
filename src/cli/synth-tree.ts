import { ChildProcess, spawn, spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as YAML from 'yaml';
import { describe } from '../util/errors';
import { redactSecrets } from '../util/redact';

/**
 * An error meant for the user: the CLI prints its message and exits 2, without a stack trace.
 * @internal
 */
export class UsageError extends Error {}

/** Runs git; returns stdout, throws a `UsageError` with git's message on failure. */
export function git(cwd: string, args: string[]): string {
  const result = spawnSync('git', args, { cwd, encoding: 'utf8' });
  if (result.error) throw new UsageError(describe(`git ${args.join(' ')}`, result.error.message, 'failed', 'check that git is installed and on the PATH'));
  if (result.status !== 0) {
    throw new UsageError(describe(`git ${args.join(' ')}`, result.stderr.trim().split('\n').pop(), `failed (exit ${result.status})`,
      'run it in the repository to see why'));
  }
  return result.stdout.trim();
}

/** The top of the git working tree containing `cwd`. */
export function repoRoot(cwd: string): string {
  return git(cwd, ['rev-parse', '--show-toplevel']);
}

/**
 * The merge base of HEAD with the default branch: `origin/HEAD` when the remote names one, else the
 * first of origin/main, origin/master, main, master that exists.
 */
export function defaultBase(root: string): { ref: string; label: string } {
  const exists = (ref: string) => spawnSync('git', ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`], { cwd: root }).status === 0;
  const remoteHead = spawnSync('git', ['symbolic-ref', '--quiet', '--short', 'refs/remotes/origin/HEAD'], { cwd: root, encoding: 'utf8' });
  const candidates = [remoteHead.status === 0 ? remoteHead.stdout.trim() : '', 'origin/main', 'origin/master', 'main', 'master'].filter(Boolean);
  const branch = candidates.find(exists);
  if (!branch) throw new UsageError(describe('default branch', 'none of them', 'must be one of origin/HEAD, origin/main, origin/master, main, master', 'pass --base <git ref>', String));
  return { ref: git(root, ['merge-base', 'HEAD', branch]), label: `merge base with ${branch}` };
}

/** Resolves a ref to a commit, or fails with a usage error naming it. */
export function resolveCommit(root: string, ref: string): string {
  const result = spawnSync('git', ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`], { cwd: root, encoding: 'utf8' });
  if (result.status !== 0) throw new UsageError(describe('--base', ref, `is not a commit in ${root}`, 'pass a branch, tag or commit of the repository'));
  return result.stdout.trim();
}

/**
 * Synthesizes the tree at `dir` (a directory with `cdk8s.yaml`) into `outDir` (see `synthCommand`).
 * The child runs in its own process group, registered with `scratch`, so a signal ends it too.
 */
export async function synthesize(dir: string, outDir: string, nodeModules: string, scratch?: Scratch): Promise<void> {
  const configFile = path.join(dir, 'cdk8s.yaml');
  if (!fs.existsSync(configFile)) throw new UsageError(describe('cdk8s.yaml', configFile, 'does not exist', 'run it in a cdk8s project (the directory holding cdk8s.yaml)'));
  const config = YAML.parse(fs.readFileSync(configFile, 'utf8')) ?? {};
  if (typeof config.app !== 'string' || config.app.trim() === '') {
    throw new UsageError(describe(`${configFile} app`, config.app, 'must be a command', 'set "app:" to the command that synthesizes the app'));
  }
  const bin = path.join(nodeModules, '.bin');
  const command = synthCommand(config, path.join(bin, 'cdk8s'), outDir);
  const env = {
    ...process.env,
    CDK8S_OUTDIR: outDir,
    PATH: `${bin}${path.delimiter}${process.env.PATH ?? ''}`,
    // what cdk8s synth sets when no validation needs the construct paths (cdk8s-cli lib/util.js synthApp)
    CDK8S_RECORD_CONSTRUCT_METADATA: process.env.CDK8S_RECORD_CONSTRUCT_METADATA ?? 'false',
  };
  const stderr: string[] = [];
  const status = await new Promise<number>((resolve, reject) => {
    const child = spawn(command, { cwd: dir, env, shell: true, stdio: ['ignore', 'ignore', 'pipe'], detached: true });
    scratch?.track(child);
    child.stderr.on('data', (chunk) => stderr.push(String(chunk)));
    child.on('error', reject);
    child.on('close', (code) => resolve(code ?? 1));
  });
  // the synth's own message is the library's (or the app's) and carries its fix; quoting would escape its quotes
  if (status !== 0) throw new UsageError(describe(`synth of ${dir}`, synthMessage(stderr.join('')), `failed (exit ${status})`, undefined, String));
  if (!fs.existsSync(outDir)) {
    throw new UsageError(describe(`synth of ${dir}`, config.app, 'wrote no output directory', 'make the app synthesize into $CDK8S_OUTDIR (cdk8s\'s App does by default)'));
  }
}

/**
 * The command that synthesizes a cdk8s project: cdk8s.yaml's `app`, run as `cdk8s synth` runs it
 * (CDK8S_OUTDIR set; cdk8s-cli lib/cli/cmds/synth.js `handler`, lib/util.js `synthApp`), unless
 * cdk8s.yaml asks for what only the cdk8s CLI does: `validations` (plugins run on the output) or a
 * `synthConfig.format` other than plain (Helm chart layout); then the project's `cdk8s synth`
 * (`cdk8s`, its `node_modules/.bin/cdk8s`), when installed. Starting the cdk8s CLI for nothing
 * costs about a second of CPU per side, a tenth of a fleet-size plan.
 * @internal
 */
export function synthCommand(config: { app: string; validations?: unknown; synthConfig?: { format?: unknown } }, cdk8s: string,
  outDir: string): string {
  const needsCdk8s = config.validations !== undefined || (config.synthConfig?.format ?? 'plain') !== 'plain';
  return needsCdk8s && fs.existsSync(cdk8s) ? `"${cdk8s}" synth --no-check-upgrade --output "${outDir}"` : config.app;
}

/**
 * What says why a synth failed: the app's own message, every line of it, as `npm run synth`
 * prints it (a definition with several problems is one message, `<construct>: N problems` and a
 * line per problem). The cdk8s CLI wraps the app's failure into `Error: command "…" at <dir>
 * returned a non-zero exit code <n>` and a stack trace: those lines say nothing the exit status
 * does not. The message starts at the app's `synth failed: ` line, or at an uncaught error's
 * `Error: <message>` line, and ends before the stack; without either, the last line the app wrote.
 */
export function synthMessage(stderr: string): string {
  const lines = stderr.split('\n').map((l) => l.trimEnd());
  const wrapper = (l: string) => /^Error: command ".*" (at .* )?returned a non-zero exit code/.test(l);
  const noise = (l: string) => /^\s+at /.test(l) || wrapper(l)
    || /^\s*[\^~]+\s*$/.test(l) || /^Node\.js v\d/.test(l) || /^(\S+):\d+(:\d+)?$/.test(l) || /^\s*\S*\s*throw /.test(l);
  const start = lines.findIndex((l) => /^synth failed: /.test(l) || (/^\s*(\w*Error|Error)(\s\[\w+\])?: /.test(l) && !wrapper(l)));
  if (start >= 0) {
    const message = [lines[start].trim()];
    for (const l of lines.slice(start + 1)) {
      if (l.trim() === '' || noise(l)) break;
      message.push(l);
    }
    return cap(message.join('\n'));
  }
  const own = lines.filter((l) => l.trim() !== '' && !noise(l));
  return cap((own[own.length - 1] ?? 'no message on stderr').trim());
}

/**
 * A message of at most MAX_MESSAGE characters (a runaway stderr must not flood the plan), masked
 * before it is cut: a credential cut in two is one the CLI's redaction of its output misses.
 */
const MAX_MESSAGE = 4000;
function cap(message: string): string {
  const masked = redactSecrets(message);
  return masked.length > MAX_MESSAGE ? `${masked.slice(0, MAX_MESSAGE - 1)}…` : masked;
}

/** Scratch directories alive in this process: a signal removes them all. */
const live = new Set<Scratch>();
const SIGNALS: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];
const SIGNAL_NUMBERS: Record<string, number> = { SIGHUP: 1, SIGINT: 2, SIGTERM: 15 };

function onSignal(signal: NodeJS.Signals): void {
  for (const scratch of [...live]) scratch.cleanup();
  // the shell's convention: 128 + the signal's number
  process.exit(128 + (SIGNAL_NUMBERS[signal] ?? 0));
}

/**
 * A temporary directory with its git worktrees and child processes, removed by `cleanup` (call
 * it in `finally`). While one exists, SIGINT, SIGTERM and SIGHUP end its children, remove it and
 * exit with 128 + the signal's number.
 * @internal
 */
export class Scratch {
  public readonly dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gitops-platform-plan-'));
  private readonly worktrees: Array<{ root: string; dir: string }> = [];
  private readonly children = new Set<ChildProcess>();

  public constructor() {
    if (live.size === 0) for (const s of SIGNALS) process.on(s, onSignal);
    live.add(this);
  }

  /** Checks out `commit` of the repository at `root` into a detached worktree under the scratch dir. */
  public checkout(root: string, commit: string): string {
    const dir = path.join(this.dir, 'base');
    // registered before git runs: a signal during the checkout still removes it
    this.worktrees.push({ root, dir });
    git(root, ['worktree', 'add', '--detach', '--quiet', dir, commit]);
    return dir;
  }

  /** A child process (in its own process group) to end on cleanup. */
  public track(child: ChildProcess): void {
    this.children.add(child);
    child.on('close', () => this.children.delete(child));
  }

  public cleanup(): void {
    for (const child of this.children) {
      try {
        if (child.pid) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    this.children.clear();
    for (const w of this.worktrees) {
      spawnSync('git', ['worktree', 'remove', '--force', w.dir], { cwd: w.root });
    }
    fs.rmSync(this.dir, { recursive: true, force: true });
    for (const w of this.worktrees) spawnSync('git', ['worktree', 'prune'], { cwd: w.root });
    live.delete(this);
    if (live.size === 0) for (const s of SIGNALS) process.off(s, onSignal);
  }
}

/** The two synthesized directories; `baseDir` is absent when the base has no platform yet. */
export interface SynthesizedTrees {
  readonly baseDir?: string;
  readonly headDir: string;
  /** Why the base is empty, for the plan's reader. */
  readonly note?: string;
}

/**
 * Synthesizes the working tree and a base commit (in parallel) into `<scratch>/head-out` and
 * `<scratch>/base-out`. The base checkout reuses the working tree's node_modules (a symlink), so
 * no install is needed. A base without a commit (`commit` undefined: the repository's first
 * change) or without cdk8s.yaml (the platform's first pull request) is empty: everything is added.
 */
export async function synthesizeBoth(root: string, cwdInRepo: string, commit: string | undefined, scratch: Scratch): Promise<SynthesizedTrees> {
  // cdk8s.yaml may live in a subdirectory of the repository: use the same one in the base
  const sub = path.relative(root, cwdInRepo);
  const headTree = cwdInRepo;
  const nodeModules = path.join(headTree, 'node_modules');
  const headDir = path.join(scratch.dir, 'head-out');
  if (commit === undefined) {
    await synthesize(headTree, headDir, nodeModules, scratch);
    return { headDir, note: 'The repository has no commit yet: everything is added.' };
  }
  // the head starts first: it synthesizes while git checks the base out
  const head = synthesize(headTree, headDir, nodeModules, scratch);
  let base: Promise<void> | undefined;
  try {
    const baseTree = path.join(scratch.checkout(root, commit), sub);
    if (!fs.existsSync(path.join(baseTree, 'cdk8s.yaml'))) {
      await head;
      return { headDir, note: `The base has no platform (no ${path.join(sub, 'cdk8s.yaml')}): everything is added.` };
    }
    if (fs.existsSync(nodeModules) && !fs.existsSync(path.join(baseTree, 'node_modules'))) {
      fs.symlinkSync(fs.realpathSync(nodeModules), path.join(baseTree, 'node_modules'), 'dir');
    }
    base = synthesize(baseTree, path.join(scratch.dir, 'base-out'), nodeModules, scratch);
    await Promise.all([head, base]);
  } finally {
    // a failed checkout or synth must not leave the other side's rejection unhandled
    head.catch(() => undefined);
    base?.catch(() => undefined);
  }
  return { baseDir: path.join(scratch.dir, 'base-out'), headDir };
}

/** Whether the repository has a commit at all (HEAD is born). */
export function hasCommit(root: string): boolean {
  return spawnSync('git', ['rev-parse', '--verify', '--quiet', 'HEAD^{commit}'], { cwd: root }).status === 0;
}
