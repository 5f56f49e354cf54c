import * as crypto from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import * as v8 from 'v8';
import * as zlib from 'zlib';
import { describe } from './errors';

/**
 * The Go parsers of the controllers, compiled to WebAssembly (`go/parsers/`, see
 * docs/go-parsers.md): a value Argo CD, Kargo or Argo Rollouts parses with Go is decided at synth
 * time by the same Go package at the same version, in every language binding (jsii runs the
 * library in Node for all of them).
 *
 * The module is a WASI reactor (`GOOS=wasip1`, `-buildmode=c-shared`): it is compiled and
 * instantiated synchronously, once, the first time a value needs it, and its exported functions
 * are plain synchronous calls. It needs no JavaScript glue from the Go toolchain: the few WASI
 * calls the Go runtime makes are answered here (no arguments, no environment, no files, the
 * clock, random bytes for its hash seeds, and stdout/stderr kept for an error message).
 */

/** The parsers the module offers (go/parsers/main.go `handlers`). @internal */
export type GoOp = 'cron' | 'regexp' | 'semver' | 'timezone' | 'glob' | 'jsonpath' | 'kargo-template' | 'kargo-when' | 'rollouts-condition';

/** A parsed cron schedule (go/parsers/cron.go `CronSpec`): robfig's SpecSchedule as values. @internal */
export interface GoCronSpec {
  readonly minutes: number[];
  readonly hours: number[];
  readonly daysOfMonth: number[];
  /** 1-12 */
  readonly months: number[];
  /** 0 (Sunday) - 6 */
  readonly daysOfWeek: number[];
  /** robfig's star bit on day-of-month (`*` or `?`, without a step above 1). */
  readonly dayOfMonthStar: boolean;
  /** robfig's star bit on day-of-week. */
  readonly dayOfWeekStar: boolean;
  /** `SpecSchedule.Next` returns the zero time. */
  readonly firesNever: boolean;
}

/** What robfig/cron says of one field of a refused schedule (go/parsers/cron.go `CronFieldError`). @internal */
export interface GoCronFieldError {
  /** 0 (minute) to 4 (day of week). */
  readonly field: number;
  readonly text: string;
  readonly error: string;
}

/** Go's verdict on a value (go/parsers/main.go `Answer`). @internal */
export interface GoAnswer {
  /** The Go parser's own message; undefined when Go accepts the value. */
  readonly error?: string;
  readonly cron?: GoCronSpec;
  readonly cronFields?: GoCronFieldError[];
}

/**
 * Where the module is, from the package root: committed and shipped Brotli-compressed
 * (go/parsers/build.sh). @internal
 */
export const GO_PARSERS_WASM = 'go/parsers/parsers.wasm.br';

/** The part of Node's WebAssembly API used here (a jsii build's TypeScript lib has no DOM types). */
interface WasmMemory {
  readonly buffer: ArrayBuffer;
}
interface WasmApi {
  readonly Module: {
    new (bytes: Uint8Array): object;
    imports(module: object): Array<{ module: string; name: string }>;
  };
  readonly Instance: new (module: object, imports: Record<string, Record<string, Function>>) => { readonly exports: object };
}
const wasmApi = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;

interface Exports {
  readonly memory: WasmMemory;
  _initialize(): void;
  alloc(n: number): number;
  call(n: number): number;
  result(): number;
}

let loaded: Exports | undefined;
let output = '';
const answers = new Map<string, GoAnswer>();

/**
 * Go's verdict on `value` for the parser `op` (`env`: the environment an expression is compiled
 * in, see go/parsers). Answers are kept: a fleet's apps share most values.
 * @internal
 */
export function goParse(op: GoOp, value: string, env: string = ''): GoAnswer {
  const key = `${op}\u0000${env}\u0000${value}`;
  let answer = answers.get(key);
  if (answer === undefined) {
    answer = JSON.parse(call(JSON.stringify({ op, value, env }))) as GoAnswer;
    answers.set(key, answer);
  }
  return answer;
}

/** Go's message when it refuses `value`, else undefined. @internal */
export function goProblem(op: GoOp, value: string, env?: string): string | undefined {
  return goParse(op, value, env).error;
}

function call(request: string): string {
  const wasm = load();
  const bytes = Buffer.from(request, 'utf8');
  const at = wasm.alloc(bytes.length);
  new Uint8Array(wasm.memory.buffer, at, bytes.length).set(bytes);
  const length = wasm.call(bytes.length);
  // the memory may have grown during the call: read through a new view
  return Buffer.from(wasm.memory.buffer, wasm.result(), length).toString('utf8');
}

function load(): Exports {
  if (loaded !== undefined) return loaded;
  const file = path.join(packageRoot(), GO_PARSERS_WASM);
  let bytes: Buffer;
  try {
    bytes = zlib.brotliDecompressSync(fs.readFileSync(file));
  } catch (err) {
    throw new Error(describe('the Go parsers', file, `cannot be read (${(err as Error).message})`,
      "they are part of the package: reinstall it, or run 'go/parsers/build.sh' in a clone"));
  }
  let memory: WasmMemory | undefined;
  const module = baselineCompiled(bytes);
  const calls = wasi(() => memory!);
  // every other WASI call the runtime links (file calls of package os) finds no such facility
  const imports: Record<string, Function> = {};
  for (const i of wasmApi.Module.imports(module)) imports[i.name] = calls[i.name] ?? (() => ENOSYS);
  const instance = new wasmApi.Instance(module, { wasi_snapshot_preview1: imports });
  const e = instance.exports as unknown as Exports;
  memory = e.memory;
  e._initialize();
  loaded = e;
  return e;
}

/**
 * The module compiled by V8's baseline compiler only (Liftoff). A synth calls the parsers a few
 * hundred times at most, on short values; V8's default also recompiles the functions it finds hot
 * (the Go runtime's allocator and scheduler are, from the first call) with its optimizing
 * compiler in background threads, about 400 ms of processor time for an 8 MB module that then
 * runs a few milliseconds. The flag is read when a module is compiled, so it is set around this
 * one compilation only, and left alone when the process was started with it.
 */
function baselineCompiled(bytes: Uint8Array): object {
  const own = [...process.execArgv, process.env.NODE_OPTIONS ?? ''].some(a => a.includes('liftoff-only'));
  if (!own) v8.setFlagsFromString('--liftoff-only');
  try {
    return new wasmApi.Module(bytes);
  } finally {
    if (!own) v8.setFlagsFromString('--no-liftoff-only');
  }
}

// WASI preview1 error numbers
const EBADF = 8;
const ENOSYS = 52;

/**
 * The WASI calls the Go runtime imports (`WebAssembly.Module.imports` of the module): a process
 * with no arguments, no environment and no files (so `time.LoadLocation` reads the zone data
 * embedded in the module, never the host's), a clock, and random bytes for map hash seeds.
 */
function wasi(memory: () => WasmMemory): Record<string, (...args: any[]) => number> {
  const view = () => new DataView(memory().buffer);
  const zeroPair = (a: number, b: number) => {
    view().setUint32(a, 0, true);
    view().setUint32(b, 0, true);
    return 0;
  };
  return {
    args_sizes_get: zeroPair,
    environ_sizes_get: zeroPair,
    args_get: () => 0,
    environ_get: () => 0,
    clock_time_get: (id: number, _precision: bigint, at: number) => {
      // 0 is the realtime clock, every other one is monotonic
      view().setBigUint64(at, id === 0 ? BigInt(Date.now()) * 1_000_000n : process.hrtime.bigint(), true);
      return 0;
    },
    random_get: (at: number, length: number) => {
      crypto.randomFillSync(new Uint8Array(memory().buffer, at, length));
      return 0;
    },
    fd_write: (_fd: number, iovs: number, count: number, written: number) => {
      const v = view();
      let total = 0;
      for (let i = 0; i < count; i++) {
        const at = v.getUint32(iovs + 8 * i, true);
        const length = v.getUint32(iovs + 8 * i + 4, true);
        output += Buffer.from(memory().buffer, at, length).toString('utf8');
        total += length;
      }
      v.setUint32(written, total, true);
      return 0;
    },
    proc_exit: (code: number) => {
      loaded = undefined;
      throw new Error(describe('the Go parsers', code, `exited (${output.trim()})`, 'report it: a parser must answer, never exit'));
    },
    sched_yield: () => 0,
    // no preopened directory: package os finds no file system
    fd_prestat_get: () => EBADF,
  };
}

/**
 * The package root is the nearest directory above this module with a package.json: the module
 * runs from `src/util/` under vitest and from `lib/src/util/` once compiled and installed.
 */
function packageRoot(): string {
  let dir = __dirname;
  while (!fs.existsSync(path.join(dir, 'package.json'))) {
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(describe('the library', __dirname, 'has no package.json above it', 'install it as a package'));
    dir = parent;
  }
  return dir;
}
