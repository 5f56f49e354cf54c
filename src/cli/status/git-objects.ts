import { ChildProcess, spawn, spawnSync } from 'child_process';
import { describe } from '../../util/errors';
import { redactSecrets } from '../../util/redact';
import { UsageError } from '../synth-tree';

/**
 * The environment of every git process `status` starts: the user's own (so their configuration
 * and credential helpers apply), never prompting on a terminal (a missing credential fails with
 * git's message instead of waiting), taking no optional lock (reading never writes the index).
 */
export function gitEnv(): NodeJS.ProcessEnv {
  return { ...process.env, GIT_TERMINAL_PROMPT: '0', GIT_OPTIONAL_LOCKS: '0' };
}

/**
 * Runs git with an argument list (no shell); returns stdout. A failure is a `UsageError` naming
 * what was done, with git's last line, credentials redacted (`what` must not hold any).
 */
export function runGit(args: string[], what: string, cwd?: string): string {
  const result = spawnSync('git', args, { cwd, env: gitEnv(), encoding: 'utf8', maxBuffer: 2 ** 30 });
  if (result.error) throw new UsageError(describe(what, redactSecrets(result.error.message), 'failed', 'check that git is installed and on the PATH', String));
  if (result.status !== 0) {
    const line = result.stderr.trim().split('\n').filter((l) => l.trim() !== '').pop() ?? `exit ${result.status}`;
    throw new UsageError(describe(what, redactSecrets(line), `failed (exit ${result.status})`, undefined, String));
  }
  return result.stdout;
}

/** A commit as `cat-file` gives it. */
export interface GitCommit {
  readonly id: string;
  readonly tree: string;
  readonly parents: string[];
  /** Committer time, seconds since the epoch. */
  readonly committedAt: number;
  readonly message: string;
}

/** The directories at the top of a tree, by name. */
export type TreeDirs = Map<string, string>;

/** A `read` waiting for its objects. */
interface Pending {
  readonly count: number;
  readonly got: Array<Buffer | undefined>;
  readonly resolve: (v: Array<Buffer | undefined>) => void;
  readonly reject: (e: Error) => void;
}

/**
 * A long-running `git cat-file --batch`: many objects per round trip, one process for the whole
 * command (a process per branch would cost seconds at fleet size).
 * @internal
 */
export class GitObjects {
  private readonly child: ChildProcess;
  private buffer: Buffer = Buffer.alloc(0);
  private readonly waiting: Pending[] = [];
  private failure?: Error;
  private readonly stderr: string[] = [];

  /** `gitDir`: the repository to read (a work tree or a bare repository). */
  public constructor(gitDir: string, private readonly oidBytes: number) {
    this.child = spawn('git', ['-C', gitDir, 'cat-file', '--batch'], { env: gitEnv(), stdio: ['pipe', 'pipe', 'pipe'] });
    this.child.stdout!.on('data', (chunk: Buffer) => this.onData(chunk));
    this.child.stderr!.on('data', (chunk) => this.stderr.push(String(chunk)));
    this.child.on('error', (e) => this.fail(new UsageError(describe('git cat-file', e.message, 'failed', 'check that git is installed and on the PATH', String))));
    this.child.on('close', (code) => this.fail(new UsageError(describe('git cat-file', redactSecrets(this.stderr.join('').trim()), `ended (exit ${code})`, undefined, String))));
    this.child.stdin!.on('error', () => undefined);
  }

  /** The raw objects, in order; undefined for one the repository does not have (a shallow or partial clone). */
  public read(ids: string[]): Promise<Array<Buffer | undefined>> {
    if (ids.length === 0) return Promise.resolve([]);
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => {
      this.waiting.push({ count: ids.length, got: [], resolve, reject });
      this.child.stdin!.write(`${ids.join('\n')}\n`);
    });
  }

  public async commits(ids: string[]): Promise<Array<GitCommit | undefined>> {
    const raw = await this.read(ids);
    return raw.map((data, i) => (data ? parseCommit(ids[i], data) : undefined));
  }

  /** The top-level directories of each tree. */
  public async treeDirs(ids: string[]): Promise<Array<TreeDirs | undefined>> {
    const raw = await this.read(ids);
    return raw.map((data) => (data ? parseTreeDirs(data, this.oidBytes) : undefined));
  }

  public close(): void {
    this.waiting.length = 0;
    this.child.removeAllListeners('close');
    this.child.stdin!.end();
    this.child.kill();
  }

  private fail(e: Error): void {
    this.failure = e;
    for (const w of this.waiting.splice(0)) w.reject(e);
  }

  private onData(chunk: Buffer): void {
    this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
    let pos = 0;
    while (this.waiting.length > 0) {
      const eol = this.buffer.indexOf(10, pos);
      if (eol < 0) break;
      const header = this.buffer.toString('latin1', pos, eol);
      const current = this.waiting[0];
      if (header.endsWith(' missing') || header.endsWith(' ambiguous')) {
        current.got.push(undefined);
        pos = eol + 1;
      } else {
        const size = Number(header.slice(header.lastIndexOf(' ') + 1));
        if (this.buffer.length < eol + 1 + size + 1) break;
        current.got.push(this.buffer.subarray(eol + 1, eol + 1 + size));
        pos = eol + 1 + size + 1;
      }
      if (current.got.length === current.count) {
        this.waiting.shift();
        current.resolve(current.got);
      }
    }
    // the objects handed out are views of the old buffer: copy the rest rather than keep it alive
    this.buffer = pos === 0 ? this.buffer : Buffer.from(this.buffer.subarray(pos));
  }
}

function parseCommit(id: string, data: Buffer): GitCommit {
  const text = data.toString('utf8');
  const end = text.indexOf('\n\n');
  const headers = end < 0 ? text : text.slice(0, end);
  let tree = '';
  const parents: string[] = [];
  let committedAt = 0;
  for (const line of headers.split('\n')) {
    if (line.startsWith('tree ')) tree = line.slice(5);
    else if (line.startsWith('parent ')) parents.push(line.slice(7));
    else if (line.startsWith('committer ')) committedAt = Number(/ (\d+) [+-]\d{4}$/.exec(line)?.[1] ?? 0);
  }
  return { id, tree, parents, committedAt, message: end < 0 ? '' : text.slice(end + 2) };
}

/** The directory entries (mode 40000) of a raw tree: `<mode> <name>\0<binary id>`. */
function parseTreeDirs(data: Buffer, oidBytes: number): TreeDirs {
  const dirs: TreeDirs = new Map();
  let pos = 0;
  while (pos < data.length) {
    const space = data.indexOf(32, pos);
    const nul = data.indexOf(0, space);
    if (space < 0 || nul < 0) break;
    if (data.toString('latin1', pos, space) === '40000') dirs.set(data.toString('utf8', space + 1, nul), data.toString('hex', nul + 1, nul + 1 + oidBytes));
    pos = nul + 1 + oidBytes;
  }
  return dirs;
}
