/**
 * Synth benchmark: time and peak memory of a full synthesis (define + synth + reports), each
 * sample in a fresh process, for the examples and for larger generated platforms.
 *
 *   npx projen bench            # or: npx tsx bench/synth-bench.ts [samples]
 */
import { execFileSync } from 'child_process';
import * as path from 'path';

const samples = Number(process.argv[2] ?? 3);
const scenarios = ['examples', 'generated-100x20', 'generated-100x60', 'generated-300x60'];
const tsx = path.join(__dirname, '..', 'node_modules', '.bin', 'tsx');

console.log(`samples per scenario: ${samples} (median shown), node ${process.version}`);
console.log('scenario            apps  define ms  synth ms  files  output KiB  max RSS MiB');
for (const scenario of scenarios) {
  const runs = Array.from({ length: samples }, () =>
    JSON.parse(execFileSync(tsx, [path.join(__dirname, 'synth-once.ts'), scenario], { encoding: 'utf-8', stdio: ['ignore', 'pipe', 'inherit'] }).trim().split('\n').pop()!));
  const median = (key: string) => runs.map(r => r[key]).sort((a, b) => a - b)[Math.floor(runs.length / 2)];
  const r = runs[0];
  console.log(`${scenario.padEnd(18)} ${String(r.apps).padStart(5)} ${String(median('defineMs')).padStart(10)} ${String(median('synthMs')).padStart(9)} `
    + `${String(r.files).padStart(6)} ${String(r.outputKiB).padStart(11)} ${String(median('maxRssMiB')).padStart(12)}`);
}
