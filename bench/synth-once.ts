/**
 * One benchmark sample, run by synth-bench.ts in a fresh process; prints one JSON line.
 *
 *   tsx bench/synth-once.ts platform <scenario> [dump.json]   define + PlatformSynthApp synth + reports
 *   tsx bench/synth-once.ts cdk8s-app <scenario>              the same with cdk8s's own App (before)
 *   tsx bench/synth-once.ts yaml-floor <dump.json>            the same documents, written by `yaml` alone
 *   tsx bench/synth-once.ts json-floor <dump.json>            the same documents, JSON.stringify-ed and written
 *   tsx bench/synth-once.ts api-objects <dump.json>           the same documents as plain ApiObjects, one chart per file
 *
 * <scenario> is `examples` or `generated-<clusters>x<apps>`. The platform run writes the
 * documents it synthesized to dump.json (after it is measured) for the other two.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { ApiObject, App, Chart, Yaml } from 'cdk8s';
import { defineExamples } from '../apps';
import { PlatformReport, PlatformSynthApp } from '../src';
import { defineGeneratedPlatform } from './generated-platform';
import { FileWriter } from '../src/io/file-writer';
import { ManifestYaml } from '../src/synth-app/manifest-yaml';

type Dump = { file: string; docs: any[] }[];

const [mode, arg, dumpPath] = process.argv.slice(2);
const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-'));
const t0 = performance.now();
let objects = 0;
let phaseMs: Record<string, number> = {};

function define(app: App, scenario: string): void {
  if (scenario === 'examples') {
    defineExamples(app);
    return;
  }
  const m = /^generated-(\d+)x(\d+)$/.exec(scenario);
  if (!m) throw new Error(`unknown scenario "${scenario}"; use examples or generated-<clusters>x<apps>`);
  defineGeneratedPlatform(app, Number(m[1]), Number(m[2]));
}

function readDump(): Dump {
  return JSON.parse(fs.readFileSync(arg, 'utf-8'));
}

// the platform run records each file's documents as it writes them (a reference per object),
// for the other measurements: reading 80 MiB of YAML back would take minutes
const dump: Dump = [];
let pending: any[] = [];
if (mode === 'platform' && dumpPath) {
  // the documents as the YAML writer gets them (what the app writes, not a second rendering)
  const stringify = ManifestYaml.prototype.stringify;
  ManifestYaml.prototype.stringify = function (this: ManifestYaml, docs: readonly unknown[]) {
    pending.push(...docs);
    return stringify.call(this, docs);
  };
  // each manifest as it is handed to the writer (which may write it on another thread)
  const open = FileWriter.open;
  FileWriter.open = (count: number) => {
    const writer = open(count);
    const write = writer.write.bind(writer);
    writer.write = (file: string, data: string) => {
      if (file.endsWith('.k8s.yaml')) {
        dump.push({ file: path.basename(file), docs: pending });
        pending = [];
      }
      write(file, data);
    };
    return writer;
  };
}

if (mode === 'platform' || mode === 'cdk8s-app') {
  const app = mode === 'platform' ? new PlatformSynthApp({ outdir }) : new App({ outdir });
  define(app, arg);
  const t1 = performance.now();
  pending = []; // definitions may render objects of their own (e.g. job specs)
  app.synth();
  PlatformReport.write(app);
  phaseMs = { defineMs: Math.round(t1 - t0), synthMs: Math.round(performance.now() - t1) };
  objects = app.node.findAll().filter(c => c instanceof ApiObject).length;
} else if (mode === 'yaml-floor') {
  const docsByFile = readDump();
  const t1 = performance.now();
  for (const { file, docs } of docsByFile) {
    fs.writeFileSync(path.join(outdir, file), Yaml.stringify(...docs), { encoding: 'utf8' });
    objects += docs.length;
  }
  phaseMs = { loadMs: Math.round(t1 - t0), writeMs: Math.round(performance.now() - t1) };
} else if (mode === 'json-floor') {
  const docsByFile = readDump();
  const t1 = performance.now();
  for (const { file, docs } of docsByFile) {
    fs.writeFileSync(path.join(outdir, file), docs.map(d => JSON.stringify(d)).join('\n'), { encoding: 'utf8' });
    objects += docs.length;
  }
  phaseMs = { loadMs: Math.round(t1 - t0), writeMs: Math.round(performance.now() - t1) };
} else if (mode === 'api-objects') {
  const docsByFile = readDump();
  const t1 = performance.now();
  const app = new App({ outdir });
  for (const { file, docs } of docsByFile) {
    const chart = new Chart(app, file.replace(/\.k8s\.yaml$/, ''), { disableResourceNameHashes: true });
    docs.forEach((doc, i) => new ApiObject(chart, `o${i}`, doc));
    objects += docs.length;
  }
  const t2 = performance.now();
  app.synth();
  phaseMs = { loadMs: Math.round(t1 - t0), defineMs: Math.round(t2 - t1), synthMs: Math.round(performance.now() - t2) };
} else {
  throw new Error(`unknown mode "${mode}"`);
}

const yamlFiles = fs.readdirSync(outdir).filter(f => f.endsWith('.k8s.yaml')).sort();
const bytes = yamlFiles.reduce((n, f) => n + fs.statSync(path.join(outdir, f)).size, 0);
const result = {
  mode,
  // the whole process so far: node start (and tsx when run through it), define, synth, write (not the dump below)
  wallMs: Math.round(process.uptime() * 1000),
  // CPU time of the process (all threads), steadier than wall time on a shared machine
  cpuMs: Math.round((process.resourceUsage().userCPUTime + process.resourceUsage().systemCPUTime) / 1000),
  objects,
  files: yamlFiles.length,
  mib: Math.round(bytes / 1024 / 1024 * 10) / 10,
  ...phaseMs,
  maxRssMiB: Math.round(process.resourceUsage().maxRSS / 1024),
};
if (mode === 'platform' && dumpPath) {
  if (dump.length !== yamlFiles.length) throw new Error(`recorded ${dump.length} files but found ${yamlFiles.length}`);
  fs.writeFileSync(dumpPath, JSON.stringify(dump));
}
fs.rmSync(outdir, { recursive: true, force: true });
console.log(JSON.stringify(result));
