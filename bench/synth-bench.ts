/**
 * Synth benchmark: objects, output size, wall time of the whole process and peak memory of a
 * full synthesis (define + `PlatformSynthApp` synth + reports), each sample in a fresh process,
 * next to the same documents written by the `yaml` package alone (the floor) and as plain cdk8s
 * ApiObjects in one chart per file (what a user would write instead).
 *
 * Every sample runs compiled JavaScript with plain `node` (as a user's `cdk8s synth` of a
 * compiled app does, and as issue 19 measures it): the bench first compiles bench/, apps/ and
 * src/ with tsc into .bench/js.
 *
 *   npx projen bench                       # median of 3 for every scenario
 *   npx tsx bench/synth-bench.ts 1 generated-100x100 generated-100x1000
 *   BENCH_CDK8S_APP=1 npx tsx bench/synth-bench.ts 1 generated-100x100   # also cdk8s's own App (slow)
 *
 * It prints the tables and writes them, with the command and the machine, into bench/README.md:
 * the project's figures are that file's, never typed by hand.
 */
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { runPackageCases } from './package-bench';
import { runPlanCases } from './plan-bench';
import { runStatusCases } from './status-bench';

const samples = Number(process.argv[2] ?? 3);
const scenarios = process.argv.length > 3 ? process.argv.slice(3)
  : ['examples', 'generated-100x100', 'generated-100x300', 'generated-300x300', 'generated-100x1000'];
const root = path.join(__dirname, '..');
const dumpDir = path.join(root, '.bench');
fs.mkdirSync(dumpDir, { recursive: true });
const compiled = path.join(dumpDir, 'js');
fs.rmSync(compiled, { recursive: true, force: true });
execFileSync(path.join(root, 'node_modules', '.bin', 'tsc'), ['-p', path.join(__dirname, 'tsconfig.json'), '--noEmit', 'false',
  '--outDir', compiled, '--declaration', 'false', '--incremental', 'false'], { cwd: root, stdio: 'inherit' });
// the example platform reads its clusters next to its code
fs.cpSync(path.join(root, 'apps', 'infra'), path.join(compiled, 'apps', 'infra'), { recursive: true });

interface Sample { wallMs: number; cpuMs: number; objects: number; mib: number; maxRssMiB: number; writeMs?: number }

// plain ApiObjects go through cdk8s's own App, whose synthesis is quadratic: give up after this long
const timeoutMs = Number(process.env.BENCH_TIMEOUT_S ?? 900) * 1000;

function run(args: string[]): Sample | undefined {
  try {
    const out = execFileSync(process.execPath, [path.join(compiled, 'bench', 'synth-once.js'), ...args],
      { encoding: 'utf-8', stdio: ['ignore', 'pipe', 'inherit'], cwd: root, timeout: args[0] === 'api-objects' ? timeoutMs : undefined, killSignal: 'SIGKILL' });
    return JSON.parse(out.trim().split('\n').pop()!);
  } catch (e) {
    if ((e as { signal?: string }).signal === 'SIGKILL') return undefined;
    throw e;
  }
}

function median(all: (Sample | undefined)[]): Sample | undefined {
  const runs = all.filter((r): r is Sample => r !== undefined);
  if (runs.length < all.length) return undefined;
  const mid = (key: keyof Sample) => runs.map(r => r[key] as number).sort((a, b) => a - b)[Math.floor(runs.length / 2)];
  return { ...runs[0], wallMs: mid('wallMs'), cpuMs: mid('cpuMs'), maxRssMiB: mid('maxRssMiB'), writeMs: runs[0].writeMs === undefined ? undefined : mid('writeMs') };
}

const sec = (ms: number) => (ms / 1000).toFixed(1);
const over = `> ${timeoutMs / 1000} s`;
const results = new Map<string, Sample>();
const rows: string[] = [];
const report: string[] = [];
const say = (line: string) => {
  console.log(line);
  report.push(line);
};
say(`samples per measurement: ${samples} (median), node ${process.version}`);
say(`load average ${fs.readFileSync('/proc/loadavg', 'utf-8').split(' ').slice(0, 3).join(' ')}; synth: compiled, plain node, whole process (target < 6 s at 100x1000)`);
say('| scenario | objects | MiB | synth wall s | CPU s | peak MiB | JSON.stringify: write s | process s | `yaml` alone: write s | process s | peak MiB | ApiObjects s | peak MiB | synth / `yaml` write | synth / ApiObjects |');
say('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
for (const scenario of scenarios) {
  const dump = path.join(dumpDir, `${scenario}.json`);
  // the first sample also writes the documents the other two measurements read
  const ours = median(Array.from({ length: samples }, (_, i) => run(['platform', scenario, ...i === 0 ? [dump] : []])))!;
  const floor = median(Array.from({ length: samples }, () => run(['yaml-floor', dump])))!;
  const json = median(Array.from({ length: samples }, () => run(['json-floor', dump])))!;
  const plain = median(Array.from({ length: samples }, () => run(['api-objects', dump])));
  fs.rmSync(dump, { force: true });
  results.set(scenario, ours);
  const row = `| ${scenario} | ${ours.objects} | ${ours.mib} | ${sec(ours.wallMs)} | ${sec(ours.cpuMs)} | ${ours.maxRssMiB} `
    + `| ${sec(json.writeMs!)} | ${sec(json.wallMs)} | ${sec(floor.writeMs!)} | ${sec(floor.wallMs)} | ${floor.maxRssMiB} `
    + `| ${plain ? sec(plain.wallMs) : over} | ${plain?.maxRssMiB ?? ''} | ${(ours.wallMs / floor.writeMs!).toFixed(2)} `
    + `| ${plain ? (ours.wallMs / plain.wallMs).toFixed(2) : `< ${(ours.wallMs / timeoutMs).toFixed(2)}`} |`;
  rows.push(row);
  say(row);
  if (process.env.BENCH_CDK8S_APP) {
    const before = median(Array.from({ length: samples }, () => run(['cdk8s-app', scenario])));
    say(`| ${scenario}, cdk8s App | ${before?.objects ?? ''} | ${before?.mib ?? ''} | ${before ? sec(before.wallMs) : over} | ${before ? sec(before.cpuMs) : ''} `
      + `| ${before?.maxRssMiB ?? ''} | | | | | | | | | |`);
  }
}
const small = results.get('generated-100x100');
const large = results.get('generated-100x1000');
if (small && large) {
  say(`\nt(100x1000) / t(100x100) = ${(large.wallMs / small.wallMs).toFixed(2)} wall, ${(large.cpuMs / small.cpuMs).toFixed(2)} CPU (target <= 11)`);
}
// the plan and status cases with the default scenarios (alone: npx tsx bench/plan-bench.ts <samples>
// plan-100x1000, npx tsx bench/status-bench.ts <samples> status-100x1000), and the package's size
// and the Go parsers' load cost (alone: npx tsx bench/package-bench.ts <samples>): their tables
// print themselves, and go into the report too
if (process.argv.length <= 3) {
  const log = console.log;
  console.log = (...args: unknown[]) => {
    log(...args);
    report.push(args.join(' '));
  };
  try {
    runPlanCases(['plan-100x1000'], samples);
    runStatusCases(['status-100x1000'], samples);
    // a load takes a fraction of a second: at least 5 samples
    runPackageCases(Math.max(samples, 5));
  } finally {
    console.log = log;
  }
}

const command = process.argv.length <= 3 ? `npm run bench${process.argv[2] ? ` -- ${process.argv[2]}` : ''}` : `npx tsx bench/synth-bench.ts ${process.argv.slice(2).join(' ')}`;
fs.writeFileSync(path.join(__dirname, 'README.md'), [
  '# Benchmark',
  '',
  `Written by \`${command}\` (bench/synth-bench.ts) on ${new Date().toISOString().slice(0, 10)}, on ${os.cpus().length} cores; `
  + 'run `npm run bench` to measure again. What each column means: bench/synth-bench.ts, bench/plan-bench.ts, bench/status-bench.ts and bench/package-bench.ts.',
  'A figure measured while the machine was loaded (the load average above the tables) is slower than on a quiet one.',
  '',
  ...report,
  '',
].join('\n'));
