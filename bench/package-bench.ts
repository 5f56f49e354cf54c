/**
 * Package benchmark: what the npm package weighs and what its Go parsers cost to load.
 * `npm run bench` (synth-bench.ts) runs it after the status case; alone (it prints its tables and
 * writes nothing):
 *
 *   npx tsx bench/package-bench.ts 5     # <samples> of the load cost
 *
 * It builds the package as `npx projen build` does before packing it (`projen compile`, then
 * projenrc/prune-bundled.ts, which removes the bundled dependencies' tests from node_modules as
 * package:js does; `npm ci` puts them back) and reads `npm pack --dry-run --json`: the tarball's
 * size, its unpacked size and its file list. From that list: the bundled secret scanner (the
 * `@secretlint/*` packages and the dependencies only they bring), unpacked and as a gzipped
 * tarball of its files alone, and its source maps. The Go parsers module (docs/go-parsers.md) as
 * shipped (Brotli), raw, and gzipped for comparison; its load cost (decompress, compile,
 * instantiate, the Go runtime's start and a first call) in a fresh `node` process per sample: the
 * processor time of the whole process (every thread: `process.cpuUsage`) and its peak resident
 * memory around the load, median of `samples`.
 */
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as zlib from 'zlib';

const root = path.join(__dirname, '..');
const PARSERS = path.join(root, 'go', 'parsers', 'parsers.wasm.br');
const SCANNER = (name: string) => name.startsWith('@secretlint/');

interface PackFile { readonly path: string; readonly size: number }
interface Pack { readonly size: number; readonly unpackedSize: number; readonly entryCount: number; readonly files: PackFile[] }

/** The package as `npm pack` makes it after the build. */
function pack(): Pack {
  execFileSync('npx', ['projen', 'compile'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
  execFileSync('npx', ['tsx', 'projenrc/prune-bundled.ts'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
  const out = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: root, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, stdio: ['ignore', 'pipe', 'ignore'] });
  return JSON.parse(out)[0];
}

/** The installed packages below node_modules/ that only `owned` packages depend on (among the bundled ones). */
function ownedPackages(owned: (name: string) => boolean): Set<string> {
  const bundled: string[] = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')).bundledDependencies ?? [];
  const reach = (starts: string[]) => {
    const seen = new Set<string>();
    const visit = (dir: string) => {
      if (seen.has(dir)) return;
      seen.add(dir);
      const deps = Object.keys(JSON.parse(fs.readFileSync(path.join(root, dir, 'package.json'), 'utf8')).dependencies ?? {});
      for (const dep of deps) visit(resolveFrom(dir, dep));
    };
    for (const name of starts) visit(path.join('node_modules', name));
    return seen;
  };
  const others = reach(bundled.filter((n) => !owned(n)));
  return new Set([...reach(bundled.filter(owned))].filter((d) => !others.has(d)));
}

/** Where node resolves `dep` from the package in `dir` (relative to the root). */
function resolveFrom(dir: string, dep: string): string {
  for (let d = dir; ; d = path.dirname(d)) {
    const candidate = path.join(d, 'node_modules', dep);
    if (fs.existsSync(path.join(root, candidate, 'package.json'))) return candidate;
    if (d === '.' || d === '') throw new Error(`${dep} (a dependency of ${dir}) is not installed`);
  }
}

/** One fresh node process loading the Go parsers from the compiled library: processor ms and peak MiB added. */
function loadOnce(): { cpuMs: number; peakMiB: number } {
  const script = [
    `const { goParse } = require(${JSON.stringify(path.join(root, 'lib', 'src', 'util', 'go-parsers.js'))});`,
    'const rss = process.resourceUsage().maxRSS; const cpu = process.cpuUsage();',
    "if (goParse('timezone', 'Europe/Berlin').error) throw new Error('the Go parsers refused Europe/Berlin');",
    'const used = process.cpuUsage(cpu);',
    'console.log(JSON.stringify({ cpuMs: (used.user + used.system) / 1000, peakMiB: (process.resourceUsage().maxRSS - rss) / 1024 }));',
  ].join('\n');
  return JSON.parse(execFileSync(process.execPath, ['-e', script], { cwd: os.tmpdir(), encoding: 'utf8' }).trim());
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const bytes = (n: number) => `${n.toLocaleString('en-US')} B`;

/** Prints the package tables. */
export function runPackageCases(samples: number): void {
  const p = pack();
  const scanner = ownedPackages(SCANNER);
  const inScanner = (f: PackFile) => [...scanner].some((dir) => f.path.startsWith(`${dir}/`));
  const scannerFiles = p.files.filter(inScanner);
  const sum = (files: PackFile[]) => files.reduce((n, f) => n + f.size, 0);
  const maps = scannerFiles.filter((f) => f.path.endsWith('.map'));
  const scannerTar = execFileSync('tar', ['-cz', '-f', '-', ...scannerFiles.map((f) => f.path)], { cwd: root, maxBuffer: 64 * 1024 * 1024 });
  const shipped = fs.readFileSync(PARSERS);
  const raw = zlib.brotliDecompressSync(shipped);
  const load = fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  const loads = Array.from({ length: samples }, loadOnce);

  console.log('\n| package (`npm pack --dry-run --json` after the build) | bytes | files |');
  console.log('| --- | ---: | ---: |');
  console.log(`| the tarball (\`size\`) | ${bytes(p.size)} | ${p.entryCount} |`);
  console.log(`| unpacked (\`unpackedSize\`) | ${bytes(p.unpackedSize)} | |`);
  console.log(`| the secret scanner unpacked (${[...scanner].map((d) => d.replace(/^node_modules\//, '')).sort().join(', ')}) | ${bytes(sum(scannerFiles))} | ${scannerFiles.length} |`);
  console.log(`| of which source maps | ${bytes(sum(maps))} | ${maps.length} |`);
  console.log(`| the secret scanner's files alone as a gzipped tarball (\`tar -cz\`) | ${bytes(scannerTar.length)} | |`);
  console.log(`| the Go parsers module as shipped (\`go/parsers/parsers.wasm.br\`, Brotli) | ${bytes(shipped.length)} | 1 |`);
  console.log(`| the Go parsers module raw (WebAssembly) | ${bytes(raw.length)} | |`);
  console.log(`| the Go parsers module gzipped (level 9, for comparison) | ${bytes(zlib.gzipSync(raw, { level: 9 }).length)} | |`);
  console.log('\n| loading the Go parsers (decompress, compile, instantiate, Go runtime start, first call), fresh `node` per sample | median | samples | load average before the samples | cores |');
  console.log('| --- | ---: | --- | --- | ---: |');
  console.log(`| processor time, ms (every thread of the process) | ${median(loads.map((l) => l.cpuMs)).toFixed(0)} | ${loads.map((l) => l.cpuMs.toFixed(0)).join(', ')} | ${load} | ${os.cpus().length} |`);
  console.log(`| peak resident memory added, MiB | ${median(loads.map((l) => l.peakMiB)).toFixed(0)} | ${loads.map((l) => l.peakMiB.toFixed(0)).join(', ')} | | |`);
}

if (require.main === module) runPackageCases(Number(process.argv[2] ?? 5));
