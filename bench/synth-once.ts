/**
 * One synthesis, measured from inside the process: prints a JSON line with the phase timings
 * and the peak resident memory. Run by synth-bench.ts in a fresh process per sample.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { App } from 'cdk8s';
import { defineExamples } from '../apps';
import { PlatformReport } from '../src';
import { defineGeneratedPlatform } from './generated-platform';

const scenario = process.argv[2] ?? 'examples';
const t0 = performance.now();
const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-'));
const app = new App({ outdir });
let apps: number;
if (scenario === 'examples') {
  apps = defineExamples(app).apps.length;
} else {
  const m = /^generated-(\d+)x(\d+)$/.exec(scenario);
  if (!m) throw new Error(`unknown scenario "${scenario}"; use examples or generated-<clusters>x<apps>`);
  apps = defineGeneratedPlatform(app, Number(m[1]), Number(m[2]));
}
const t1 = performance.now();
app.synth();
PlatformReport.write(app);
const t2 = performance.now();
const files = fs.readdirSync(outdir);
const bytes = files.reduce((n, f) => n + fs.statSync(path.join(outdir, f)).size, 0);
fs.rmSync(outdir, { recursive: true, force: true });
console.log(JSON.stringify({
  scenario,
  apps,
  defineMs: Math.round(t1 - t0),
  synthMs: Math.round(t2 - t1),
  files: files.length,
  outputKiB: Math.round(bytes / 1024),
  maxRssMiB: Math.round(process.resourceUsage().maxRSS / 1024),
}));
