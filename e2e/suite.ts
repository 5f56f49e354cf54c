import { writeFileSync } from 'fs';
import { join } from 'path';
import { BROKEN_VARIANTS, runBroken } from './broken';
import { diagnose } from './lib/diagnose';
import { log } from './lib/log';
import { statusCalls } from './lib/status';
import { renderReport, ReleaseTiming, ScenarioResult } from './report';
import { SCENARIOS, World } from './scenarios';

/**
 * Runs the scenarios in order, each followed by its broken variant (`broken.ts`) unless
 * `broken` is false; stops at the first that does not end as it must.
 */
export async function runScenarios(w: World, only: string[] | undefined, buildSeconds: number, broken = true): Promise<number> {
  const timings: ReleaseTiming[] = [];
  const results: ScenarioResult[] = [];
  // runs one row of the report; false stops the suite (the diagnosis printed)
  const row = async (name: string, title: string, run: () => Promise<{ error?: string; expectedFailure?: string }>) => {
    const started = Date.now();
    log(`scenario ${name}: ${title}`);
    const { error, expectedFailure } = await run();
    const seconds = (Date.now() - started) / 1000;
    results.push({ name, title, ok: error === undefined, seconds, error, expectedFailure });
    if (error !== undefined) {
      log(`scenario ${name}: FAILED: ${error}`);
      log(await diagnose(w.hub, w.procs));
      return false;
    }
    log(`scenario ${name}: ${expectedFailure ? `failed as it must in ${seconds.toFixed(0)}s: ${expectedFailure}` : `passed in ${seconds.toFixed(0)}s`}`);
    return true;
  };
  for (const s of SCENARIOS.filter(x => !only || only.includes(x.name))) {
    const passed = await row(s.name, s.title, () => s.run(w, timings).then(() => ({}), (e: Error) => ({ error: e.message })));
    if (!passed) break;
    const variant = broken ? BROKEN_VARIANTS.find(v => v.scenario === s.name) : undefined;
    if (variant && !await row(`${s.name}, broken`, variant.broken, async () => {
      const { failure, problem } = await runBroken(w, variant);
      return { error: problem, expectedFailure: problem ? undefined : failure };
    })) break;
  }
  const report = renderReport(results, timings, buildSeconds, statusCalls());
  writeFileSync(join(w.dir, 'REPORT.md'), report);
  process.stdout.write(report);
  const failed = results.filter(r => !r.ok).length;
  console.log(`${results.length - failed} passed, ${failed} failed`);
  return failed === 0 ? 0 : 1;
}
