import { createHash } from 'crypto';
import * as fs from 'fs';
import * as path from 'path';

/*
 * The reports of the commands on manifests, kept under what decides them, so that a run the suite
 * has already made is not made again: the differential's manifests/ case after `npm run
 * conformance -- manifests` in the same CI job (Kargo on manifests/, the longest of its cases),
 * and every command of a second run on unchanged output.
 *
 * What decides a report: the command's binary (its bytes: a rebuilt command with other upstream
 * code or checks misses), the bytes and names of every file of the directories it reads
 * (--manifests, --before), its other flags, the git its Kargo steps run, and the day. The
 * commands read nothing else: no network, no environment but PATH's git, their sample requests
 * compiled in; the one clock a report can depend on without --now is the day (Argo CD's sync
 * windows take the time zone's offset at time.Now(), conformance/controllers/argocd/syncwindows.go).
 * CONFORMANCE_NO_CACHE=1 runs every command.
 */

const DIR = path.resolve(__dirname, '..', '.conformance', 'results');
/** Reports older than this are removed when a new one is kept. */
const KEEP_MS = 7 * 24 * 3600 * 1000;

export interface CacheKeyParts {
  /** The command's binary. */
  readonly bin: string;
  /** Its flags, with each directory replaced by `dir:<n>` for the n-th of the directories. */
  readonly flags: string[];
  /** The digest of the directories it reads (`directoriesDigest`), in the order the flags name them. */
  readonly dirs: string;
  /** What else decides the report (the git the command runs). */
  readonly context: string;
}

const binaryHashes = new Map<string, string>();

/**
 * The names and bytes of every file of the directories: computed once for all the commands that
 * run on them.
 */
export function directoriesDigest(dirs: string[]): string {
  const h = createHash('sha256');
  dirs.forEach((d, i) => {
    h.update(`dir ${i}\n`);
    for (const file of filesBelow(d)) {
      const content = fs.readFileSync(path.join(d, file));
      h.update(`${file}\0${content.length}\0`);
      h.update(content);
    }
  });
  return h.digest('hex');
}

/** The key of one run, or undefined when caching is off (CONFORMANCE_NO_CACHE=1). */
export function resultKey(parts: CacheKeyParts): string | undefined {
  if (!cacheOn()) return undefined;
  return createHash('sha256')
    .update(`bin ${binaryHash(parts.bin)}\nflags ${JSON.stringify(parts.flags)}\ncontext ${parts.context}\n`)
    .update(`day ${new Date().toISOString().slice(0, 10)}\ndirs ${parts.dirs}\n`)
    .digest('hex');
}

/** Whether reports are kept and reused. */
export function cacheOn(): boolean {
  return process.env.CONFORMANCE_NO_CACHE !== '1';
}

/** The report kept under a key, if any. */
export function cachedResult(key: string | undefined): string | undefined {
  if (key === undefined) return undefined;
  try {
    return fs.readFileSync(path.join(DIR, `${key}.json`), 'utf8');
  } catch {
    return undefined;
  }
}

/** Keeps a report under its key (written whole, then renamed: a reader never sees half of one). */
export function keepResult(key: string | undefined, report: string): void {
  if (key === undefined) return;
  fs.mkdirSync(DIR, { recursive: true });
  const tmp = path.join(DIR, `${key}.${process.pid}.tmp`);
  fs.writeFileSync(tmp, report);
  fs.renameSync(tmp, path.join(DIR, `${key}.json`));
  const now = Date.now();
  for (const f of fs.readdirSync(DIR)) {
    const p = path.join(DIR, f);
    if (now - fs.statSync(p).mtimeMs > KEEP_MS) fs.rmSync(p, { force: true });
  }
}

function binaryHash(bin: string): string {
  const stat = fs.statSync(bin);
  const id = `${bin}\0${stat.size}\0${stat.mtimeMs}`;
  let hash = binaryHashes.get(id);
  if (hash === undefined) {
    hash = createHash('sha256').update(fs.readFileSync(bin)).digest('hex');
    binaryHashes.set(id, hash);
  }
  return hash;
}

/** Every file below dir, relative, with forward slashes, sorted. */
function filesBelow(dir: string): string[] {
  const out: string[] = [];
  const walk = (rel: string) => {
    for (const e of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) walk(r);
      else if (e.isFile()) out.push(r);
    }
  };
  walk('');
  return out.sort();
}
