import { ChartOutput } from './build';
import { activeOccurrence, SyncWindow } from '../../src/cli/sync-windows';
import { nowAt } from '../../src/testkit/model/expr-time';
import { MODEL_CLOCK } from '../../src/testkit/model/kargo-steps';
import { evaluateTemplate } from '../../src/testkit/model/template';

// ---------------------------------------------------------------------------------------------
// Deploy freezes: the Kargo fail steps stop exactly the promotions Argo CD's window would hold
// ---------------------------------------------------------------------------------------------

const LOOKAHEAD_MS = 30 * 60_000;

interface FreezeStep { stage: string; step: any; window: SyncWindow; manual: boolean }

/** Every freeze step of every Stage, with the window its message names. */
function freezeSteps(charts: ChartOutput[]): FreezeStep[] {
  return charts.flatMap(c => c.objects).filter(o => o.kind === 'Stage').flatMap(stage =>
    (stage.spec.promotionTemplate?.spec?.steps ?? []).filter((s: any) => s.uses === 'fail' && /^freeze-\d+$/.test(s.as)).map((step: any) => {
      const m = /its window "([^"]+)" for (\S+) \(([^)]+)\)/.exec(step.config?.message ?? '');
      return {
        stage: stage.metadata.name,
        step,
        window: { kind: 'deny', schedule: m?.[1], duration: m?.[2], timeZone: m?.[3] },
        manual: /a promotion a person starts goes through/.test(step.config?.message ?? ''),
      };
    }));
}

/** What Argo CD's window model says: open at `t`, or opening within the look-ahead (every generated freeze is longer). */
function argoCdFrozen(window: SyncWindow, t: Date): boolean {
  return activeOccurrence(window, t) !== undefined || activeOccurrence(window, new Date(t.getTime() + LOOKAHEAD_MS)) !== undefined;
}

function kargoFrozen(step: any, t: Date, actor: string): unknown {
  return evaluateTemplate(step.if, { ctx: { meta: { promotion: { actor } } } }, { now: (...args: unknown[]) => nowAt(t, args) });
}

/** Where a freeze step's `if` disagrees with Argo CD's window model, at a few instants. */
export function freezeProblems(charts: ChartOutput[]): string[] {
  const problems: string[] = [];
  const instants = [0, 13, 77, 960].map(h => new Date(MODEL_CLOCK.getTime() + h * 3_600_000));
  for (const f of freezeSteps(charts)) {
    if (!f.window.schedule) {
      problems.push(`Stage ${f.stage} step ${f.step.as}: the message names no window: ${f.step.config?.message}`);
      continue;
    }
    for (const t of instants) {
      const expected = argoCdFrozen(f.window, t);
      const automatic = kargoFrozen(f.step, t, '');
      if (automatic !== expected) problems.push(`Stage ${f.stage} step ${f.step.as} at ${t.toISOString()}: the Kargo check says ${automatic}, Argo CD's window model ${expected}`);
      if (f.manual && kargoFrozen(f.step, t, 'admin:someone') !== false) problems.push(`Stage ${f.stage} step ${f.step.as}: a person's promotion is stopped although the freeze lets people through`);
    }
  }
  return problems;
}

/** The first instant from the model's clock on (5-hour steps, a year) at which no freeze step stops an automatic promotion. */
export function unfrozenClock(charts: ChartOutput[]): Date | undefined {
  const steps = freezeSteps(charts).filter(f => f.window.schedule);
  for (let k = 0; k < 365 * 24 / 5; k++) {
    const t = new Date(MODEL_CLOCK.getTime() + k * 5 * 3_600_000);
    if (steps.every(f => !argoCdFrozen(f.window, t))) return t;
  }
  return undefined;
}

/** A controller finding that is a freeze step doing its job. */
export function isFreezeFailure(message: string): boolean {
  return /step "freeze-\d+" \(fail\) Failed: failed: deploy freeze of stage/.test(message);
}
