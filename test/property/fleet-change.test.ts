import * as fs from 'fs';
import * as path from 'path';
import fc from 'fast-check';
import { afterAll, describe, expect, test, vi } from 'vitest';
import { build, ChartOutput, scratch, synthesize } from './build';
import { worldArb } from './defects';
import { editArb, edited } from './fleet-edits';
import { WorldSpec } from './model';
import { simulateFleetChange } from '../../src/testkit';
import { perWaveShape } from '../support/argocd-simulation';

/*
 * Property: a fleet change between two syntheses never leaves an Application owned by the wrong
 * ApplicationSet nor blocks a reconcile. A random world is synthesized, then again after a random
 * change of its clusters' wave labels (`ring`), tiers (stage membership) and membership (a
 * cluster leaves); the test kit's model of the ApplicationSet controller runs on the transition
 * both ways (the way back is a cluster joining, rings moving back).
 *
 * PROPERTY_RUNS scales the number of cases (a fifth of it here: each case synthesizes twice).
 */

const RUNS = Math.max(20, Math.round(Number(process.env.PROPERTY_RUNS ?? 300) / 5));

/** Every chart's objects, or undefined when the library refuses the definition. */
function synth(spec: WorldSpec): any[] | undefined {
  const outdir = fs.mkdtempSync(path.join(scratch, 'change-'));
  const terraformFile = `${outdir}.tfoutput.json`;
  try {
    const charts: ChartOutput[] = synthesize(build(spec, outdir, terraformFile));
    return charts.flatMap(c => c.objects);
  } catch {
    return undefined;
  } finally {
    fs.rmSync(outdir, { recursive: true, force: true });
    fs.rmSync(terraformFile, { force: true });
  }
}

const outcomes = { transitions: 0, moved: 0, rejected: 0, perWaveBlocked: 0 };

describe('property: a fleet change between two syntheses', () => {
  afterAll(() => {
    console.log(`fleet-change cases: ${outcomes.transitions} transitions simulated both ways (${outcomes.moved} changing Applications in place), `
      + `${outcomes.rejected} with a definition the library refused before or after; one ApplicationSet per wave would have left `
      + `${outcomes.perWaveBlocked} of the ${2 * outcomes.transitions} blocked`);
  });

  test('no Application is left owned by the wrong ApplicationSet, no reconcile stays blocked', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      // worlds without an injected defect: the library accepts more of them, before and after
      const cases = worldArb.filter(w => w.defect === undefined).chain(spec => fc.tuple(fc.constant(spec), editArb(spec.fleet.clusters.length)));
      fc.assert(fc.property(cases, ([spec, edit]) => {
        const before = synth(spec);
        const after = before && synth(edited(spec, edit));
        if (!before || !after) {
          outcomes.rejected++;
          return;
        }
        outcomes.transitions++;
        for (const [from, to] of [[before, after], [after, before]]) {
          const result = simulateFleetChange(from, to);
          expect(result.findings.map(f => `${f.code}: ${f.message}`)).toEqual([]);
          if (result.events.some(e => e.action === 'updated')) outcomes.moved++;
          // for comparison only: the shape before (one ApplicationSet per wave) over the same transition
          if (simulateFleetChange(perWaveShape(from), perWaveShape(to)).findings.length > 0) outcomes.perWaveBlocked++;
        }
      }), {
        numRuns: RUNS,
        seed: process.env.PROPERTY_SEED === undefined ? undefined : Number(process.env.PROPERTY_SEED),
        interruptAfterTimeLimit: 120_000,
        markInterruptAsFailure: false,
      });
    } finally {
      warn.mockRestore();
    }
    // the generators must keep producing transitions the library accepts
    expect(outcomes.transitions).toBeGreaterThan(0);
  }, 180_000);
});
