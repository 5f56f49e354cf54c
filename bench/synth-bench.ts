/**
 * Synth benchmark: objects, output size, wall time of the whole process and peak memory of a
 * full synthesis (define + `PlatformSynthApp` synth + reports), each sample in a fresh process,
 * next to the same documents written by the `yaml` package alone (the floor) and as plain cdk8s
 * ApiObjects in one chart per file (what a user would write instead).
 *
 *   npx projen bench                       # median of 3 for every scenario
 *   npx tsx bench/synth-bench.ts 1 generated-100x100 generated-100x1000
 *   BENCH_CDK8S_APP=1 npx tsx bench/synth-bench.ts 1 generated-100x100   # also cdk8s's own App (slow)
 */
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';

const samples = Number(process.argv[2] ?? 3);
const scenarios = process.argv.length > 3 ? process.argv.slice(3)
  : ['examples', 'generated-100x100', 'generated-100x300', 'generated-300x300', 'generated-100x1000'];
const root = path.join(__dirname, '..');
const tsx = path.join(root, 'node_modules', '.bin', 'tsx');
const dumpDir = path.join(root, '.bench');
fs.mkdirSync(dumpDir, { recursive: true });

interface Sample { wallMs: number; objects: number; mib: number; maxRssMiB: number; writeMs?: number }

function run(args: string[]): Sample {
  const out = execFileSync(tsx, [path.join(__dirname, 'synth-once.ts'), ...args], { encoding: 'utf-8', stdio: ['ignore', 'pipe', 'inherit'], cwd: root });
  return JSON.parse(out.trim().split('\n').pop()!);
}

function median(runs: Sample[]): Sample {
  const mid = (key: keyof Sample) => runs.map(r => r[key] as number).sort((a, b) => a - b)[Math.floor(runs.length / 2)];
  return { ...runs[0], wallMs: mid('wallMs'), maxRssMiB: mid('maxRssMiB'), writeMs: runs[0].writeMs === undefined ? undefined : mid('writeMs') };
}

const sec = (ms: number) => (ms / 1000).toFixed(1);
const results = new Map<string, Sample>();
const rows: string[] = [];
console.log(`samples per measurement: ${samples} (median), node ${process.version}`);
const header = '| scenario | objects | MiB | synth s | peak MiB | yaml floor: write s (process s) | peak MiB | ApiObjects s | peak MiB | synth / floor write | synth / ApiObjects |';
console.log(header);
console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
for (const scenario of scenarios) {
  const dump = path.join(dumpDir, `${scenario}.json`);
  // the first sample also writes the documents the other two measurements read
  const ours = median(Array.from({ length: samples }, (_, i) => run(['platform', scenario, ...i === 0 ? [dump] : []])));
  const floor = median(Array.from({ length: samples }, () => run(['yaml-floor', dump])));
  const plain = median(Array.from({ length: samples }, () => run(['api-objects', dump])));
  fs.rmSync(dump, { force: true });
  results.set(scenario, ours);
  const row = `| ${scenario} | ${ours.objects} | ${ours.mib} | ${sec(ours.wallMs)} | ${ours.maxRssMiB} | ${sec(floor.writeMs!)} (${sec(floor.wallMs)}) | ${floor.maxRssMiB} `
    + `| ${sec(plain.wallMs)} | ${plain.maxRssMiB} | ${(ours.wallMs / floor.writeMs!).toFixed(2)} | ${(ours.wallMs / plain.wallMs).toFixed(2)} |`;
  rows.push(row);
  console.log(row);
  if (process.env.BENCH_CDK8S_APP) {
    const before = median(Array.from({ length: samples }, () => run(['cdk8s-app', scenario])));
    console.log(`|   ${scenario} with cdk8s's own App | ${before.objects} | ${before.mib} | ${sec(before.wallMs)} | ${before.maxRssMiB} | | | | | | |`);
  }
}
const small = results.get('generated-100x100');
const large = results.get('generated-100x1000');
if (small && large) {
  console.log(`\nt(100x1000) / t(100x100) = ${(large.wallMs / small.wallMs).toFixed(2)} (target <= 11)`);
}
