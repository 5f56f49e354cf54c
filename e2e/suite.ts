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
  for (const s of SCENARIOS.filter(x => !only || only.includes(x.name))) {
    let started = Date.now();
    log(`scenario ${s.name}: ${s.title}`);
    try {
      await s.run(w, timings);
      results.push({ name: s.name, title: s.title, ok: true, seconds: (Date.now() - started) / 1000 });
      log(`scenario ${s.name}: passed in ${((Date.now() - started) / 1000).toFixed(0)}s`);
    } catch (e) {
      const error = (e as Error).message;
      results.push({ name: s.name, title: s.title, ok: false, seconds: (Date.now() - started) / 1000, error });
      log(`scenario ${s.name}: FAILED: ${error}`);
      log(await diagnose(w.hub, w.procs));
      break;
    }
    const variant = broken ? BROKEN_VARIANTS.find(v => v.scenario === s.name) : undefined;
    if (!variant) continue;
    started = Date.now();
    log(`scenario ${s.name}, broken: ${variant.broken}`);
    const { failure, problem } = await runBroken(w, variant, []);
    const seconds = (Date.now() - started) / 1000;
    results.push({ name: `${s.name}, broken`, title: variant.broken, ok: !problem, seconds, error: problem, expectedFailure: problem ? undefined : failure });
    if (problem) {
      log(`scenario ${s.name}, broken: ${problem}`);
      log(await diagnose(w.hub, w.procs));
      break;
    }
    log(`scenario ${s.name}, broken: failed as it must in ${seconds.toFixed(0)}s: ${failure}`);
  }
  const report = renderReport(results, timings, buildSeconds, statusCalls());
  writeFileSync(join(w.dir, 'REPORT.md'), report);
  process.stdout.write(report);
  const failed = results.filter(r => !r.ok).length;
  console.log(`${results.length - failed} passed, ${failed} failed`);
  return failed === 0 ? 0 : 1;
}
