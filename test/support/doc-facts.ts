import * as fs from 'fs';
import * as path from 'path';
import { Testing } from 'cdk8s';
import { defineExamples } from '../../apps';
import { PromotionPipeline } from '../../src';

const ROOT = path.join(__dirname, '..', '..');

/**
 * A figure the documentation may state, and where its value comes from: `pattern` finds it in the
 * prose (its group `figure`, else its first group, is the figure), `value` computes what it must be
 * (one value, or the values it may be) from what the pattern found.
 */
export interface DocFact {
  readonly pattern: string;
  readonly value: (match: RegExpMatchArray) => string | readonly string[];
}

let examples: { defined: ReturnType<typeof defineExamples>; pipelines: number } | undefined;
function example() {
  if (!examples) {
    const app = Testing.app();
    const defined = defineExamples(app);
    examples = { defined, pipelines: app.node.findAll().filter((c) => c instanceof PromotionPipeline).length };
  }
  return examples;
}

function read(file: string): string {
  return fs.readFileSync(path.join(ROOT, file), 'utf8');
}

/** The Node majors CI runs: the primary one (.nvmrc) and each consumer@<major> job of .ci/run. */
function nodeMajors(): string[] {
  return [read('.nvmrc').trim(), ...[...read('.ci/run').matchAll(/^job consumer@(\d+)/gm)].map((m) => m[1])];
}

/** A size limit test/architecture.test.ts enforces. */
function architectureLimit(name: string): string {
  return new RegExp(`const ${name} = (\\d+);`).exec(read('test/architecture.test.ts'))![1];
}

/** The cap of src/fleet/shard-assignment.ts (`floor((a * total - 1) / (b * shardCount))`) as a multiple of the mean: a / b. */
function shardCap(): string {
  const m = /Math\.floor\(\((\d+) \* total - 1\) \/ \((\d+) \* shardCount\)\)/.exec(read('src/fleet/shard-assignment.ts'))!;
  return String(Number(m[1]) / Number(m[2]));
}

/** The scenario of `npm run bench`'s timed status case (bench/synth-bench.ts), as `<c> clusters × <a> apps`. */
function statusBenchScenario(): string {
  const m = /runStatusCases\(\['status-(\d+)x(\d+)'\]/.exec(read('bench/synth-bench.ts'))!;
  return `${m[1]} clusters × ${m[2]} apps`;
}

export const DOC_FACTS: readonly DocFact[] = [
  // before `(\d+) apps`: the platform `npm run bench` times status on
  { pattern: '(\\d+ clusters × \\d+ apps)', value: statusBenchScenario },
  { pattern: 'Node (\\d+)', value: nodeMajors },
  // the shard cap of ClusterFleet's shard assignment, as a multiple of the mean load
  { pattern: 'shards above (\\d+(?:\\.\\d+)?)× the\\s+mean load', value: shardCap },
  // the shortest commit id status --has/--lacks matches
  { pattern: 'a commit \\((\\d+) characters or more\\)', value: () => /version\.length >= (\d+)/.exec(read('src/cli/status/status-filters.ts'))![1] },
  { pattern: '(\\d+)-cluster fleet', value: () => String(example().defined.fleet.clusters.length) },
  { pattern: '(\\d+) pipelines', value: () => String(example().pipelines) },
  { pattern: '(\\d+) apps', value: () => String(example().defined.apps.length) },
  { pattern: 'file over (\\d+) lines', value: () => architectureLimit('MAX_FILE_LINES') },
  { pattern: 'a function over (\\d+)', value: () => architectureLimit('MAX_FUNCTION_LINES') },
  // the approvals a release of an example app waits for (PlatformApp.leadTime, as its plan counts them)
  { pattern: '(?<app>[a-z][a-z-]*), promoted by pull\\s+request, needs (?<figure>\\d+) pull requests', value: (m) => approvals(m.groups!.app) },
  { pattern: '\\| (?<app>[a-z][a-z-]*) \\| (?<figure>\\d+) \\|', value: (m) => approvals(m.groups!.app) },
];

/** How many approvals a release of the example app `name` waits for ([] when there is no such app). */
function approvals(name: string): string[] {
  const app = example().defined.apps.find((a) => a.node.id === name);
  return app?.leadTime ? [String(app.leadTime.approvals.length)] : [];
}
