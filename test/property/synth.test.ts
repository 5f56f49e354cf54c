import * as fs from 'fs';
import * as path from 'path';
import fc from 'fast-check';
import { afterAll, describe, expect, test, vi } from 'vitest';
import { build, Built, ChartOutput, scratch, synthesize } from './build';
import { worldArb } from './defects';
import { WorldSpec } from './model';
import { outputProblems, yamlOf } from './output-properties';
import { notALibraryError } from './validation-errors';
import { scanTextForSecrets } from '../../src/testkit';
import { findSecrets } from '../../src/util/redact';

/*
 * Property-based tests of the whole library: random fleets, pipelines and apps, built into a cdk8s
 * app and synthesized. Each case either
 *  - fails with one of the library's validation errors (never a TypeError, a construct-id clash or
 *    a message without the library's context), or
 *  - succeeds with output that passes the pinned schemas, round-trips through YAML, matches the
 *    plan (waves, upstreams, Applications, Stages, ProjectConfig, RBAC, verification) and is
 *    byte-identical when the same input is synthesized again.
 *
 * The generators produce plain data (a `WorldSpec`): valid definitions by construction (stages
 * that partition the fleet, targets and requirements every stage can meet, ...), of which a third
 * get one defect (`DEFECTS`). `build()` turns the data into constructs, so a counterexample prints
 * as readable data and the same input can be built twice.
 *
 * PROPERTY_RUNS=5000 runs more cases; PROPERTY_DEBUG=1 lists every rejection's message; PROPERTY_SEED=<seed>
 * replays the run that printed that seed.
 */

// ---------------------------------------------------------------------------------------------
// The properties
// ---------------------------------------------------------------------------------------------

const outcomes = new Map<string, number>();
/** The messages and files of the cases secretlint reads after the property (every credential case, and the first others). */
const scanned: string[] = [];
const SCANNED_CASES = 400;

const RUNS = Number(process.env.PROPERTY_RUNS ?? 300);
let calls = 0;

/** Counts the outcome of one generated case (not of the shrinking that follows a failure). */
function record(outcome: string) {
  if (++calls > RUNS) return;
  outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
}

interface Attempt {
  readonly built?: Built;
  readonly charts?: ChartOutput[];
  /** The files `app.synth()` wrote, by name. */
  readonly files?: Record<string, string>;
  readonly error?: unknown;
  readonly terraformFile: string;
}

/** Builds and synthesizes; returns the charts and files, or the error thrown. */
function attempt(spec: WorldSpec): Attempt {
  const outdir = fs.mkdtempSync(path.join(scratch, 'out-'));
  const terraformFile = `${outdir}.tfoutput.json`;
  try {
    const built = build(spec, outdir, terraformFile);
    const charts = synthesize(built);
    const files = Object.fromEntries(fs.readdirSync(outdir).sort().map(f => [f, fs.readFileSync(path.join(outdir, f), 'utf8')]));
    return { built, charts, files, terraformFile };
  } catch (error) {
    return { error, terraformFile };
  } finally {
    fs.rmSync(outdir, { recursive: true, force: true });
    fs.rmSync(terraformFile, { force: true });
  }
}

describe('property: any fleet, pipeline and apps', () => {
  afterAll(() => {
    fs.rmSync(scratch, { recursive: true, force: true });
    const total = [...outcomes.values()].reduce((a, b) => a + b, 0);
    const valid = [...outcomes.entries()].filter(([k]) => k.startsWith('valid')).reduce((n, [, v]) => n + v, 0);
    const percent = (n: number) => `${n} (${Math.round((100 * n) / Math.max(total, 1))}%)`;
    const count = (prefix: string) => [...outcomes.entries()].filter(([k]) => k.startsWith(prefix)).reduce((n, [, v]) => n + v, 0);
    const lines = [...outcomes.entries()].sort((a, b) => b[1] - a[1]).map(([k, v]) => `  ${String(v).padStart(4)}  ${k}`);
    console.log(`property cases: ${total}; valid ${percent(valid)}, of which ${count('valid despite')} with a harmless defect; `
      + `rejected with a validation error ${percent(total - valid)}: ${count('rejected (defect')} with an injected defect, `
      + `${count('rejected (no injected')} without (random selectors, targets, requirements, budgets, standards, names); `
      + `${[...outcomes.entries()].filter(([k]) => k.endsWith('stages sharing clusters')).reduce((n, [, v]) => n + v, 0)} valid with stages sharing clusters`
      + `${process.env.PROPERTY_DEBUG ? `\n${lines.join('\n')}` : ''}`);
  });

  test('synth succeeds with right, deterministic output, or fails with one of the library\'s validation errors', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      fc.assert(fc.property(worldArb, spec => {
        const first = attempt(spec);
        // no credential in any message or file, by the library's own rule; secretlint reads a sample below
        const written = first.error !== undefined ? [String((first.error as Error)?.message)] : Object.values(first.files ?? {});
        const leaked = written.flatMap(text => findSecrets(text).map(f => `${f.kind}: ${text.slice(Math.max(0, f.start - 60), f.start)}`));
        if (leaked.length > 0) throw new Error(`credential in the output or message:\n${leaked.join('\n')}`);
        if (scanned.length < SCANNED_CASES || spec.defect === 'credential') scanned.push(...written);
        if (first.error !== undefined) {
          const why = notALibraryError(first.error, first.terraformFile);
          if (why) {
            const e = first.error as Error;
            throw new Error(`not a library validation error (${why}): ${e?.stack ?? String(e)}`);
          }
          const message = (first.error as Error).message;
          const subject = /^(Validation failed|[A-Za-z]+ '|cannot read clusters)/.exec(message)?.[1] ?? 'terraform output';
          const cause = spec.defect ? `defect "${spec.defect}"` : 'no injected defect';
          record(process.env.PROPERTY_DEBUG ? `rejected (${cause}): ${message.split('\n').slice(0, 3).join(' | ').slice(0, 300)}` : `rejected (${cause}), ${subject}`);
          return;
        }
        const problems = outputProblems(spec, first.built!, first.charts!);
        if (problems.length > 0) throw new Error(`synth succeeded but the output is wrong:\n${problems.join('\n')}`);

        // determinism: the same input synthesizes to byte-identical YAML
        const second = attempt(spec);
        if (second.error !== undefined) throw new Error(`the second synth of the same input failed: ${(second.error as Error).stack}`);
        expect(second.files).toEqual(first.files);
        expect(yamlOf(second.charts!)).toEqual(yamlOf(first.charts!));
        // how often the model saw one cluster carry an app in two stages (namespaces)
        const shared = first.built!.apps
          .some(({ app }) => app.plan.stages.flatMap(st => st.waves.flatMap(w => w.clusters)).length > app.plan.clusters.length);
        record(`${spec.defect ? `valid despite defect "${spec.defect}"` : 'valid'}${shared ? ', stages sharing clusters' : ''}`);
      }), {
        numRuns: RUNS,
        // PROPERTY_SEED=<seed printed with a counterexample> replays that run
        seed: process.env.PROPERTY_SEED === undefined ? undefined : Number(process.env.PROPERTY_SEED),
        // a failure is shrunk to a small counterexample; stop shrinking before the test times out.
        // A counterexample found before the limit is still reported; on a loaded machine the limit
        // only means fewer cases, not a red run.
        interruptAfterTimeLimit: 200_000,
        markInterruptAsFailure: false,
      });
    } finally {
      warn.mockRestore();
    }
    const valid = [...outcomes.entries()].filter(([k]) => k.startsWith('valid')).reduce((n, [, v]) => n + v, 0);
    const total = [...outcomes.values()].reduce((a, b) => a + b, 0);
    // the generators must keep producing a good share of valid definitions
    expect(valid / total).toBeGreaterThan(0.25);
  }, 240_000);

  test('secretlint\'s recommended preset finds no credential in the messages and files of the cases', async () => {
    expect(scanned.length).toBeGreaterThan(0);
    const findings = await scanTextForSecrets(scanned.join('\n---\n'), 'property-cases.txt');
    expect(findings).toEqual([]);
  }, 120_000);
});
