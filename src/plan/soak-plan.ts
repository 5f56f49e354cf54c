import { StagePlan, WavePlan } from './release-plan';
import { JoinKind } from '../pipeline/join';
import { parseGoDuration } from '../util/duration';
import { describe, ProblemList, show } from '../util/errors';

/**
 * Where each soak of a plan is waited and when Freight can first reach each Kargo Stage.
 *
 * A wave's soak is waited in the verification of its upstream Kargo Stages (`verificationSoak`),
 * so Freight counts as verified there only once it has run there that long; the Stage itself
 * requests Freight verified upstream without `requiredSoakTime` (see
 * `verification/soak-check.ts` for the Kargo v1.11.2 functions that rule it out). One upstream
 * can wait one soak only: `PromotionPipeline.addStage` already refuses stages after one upstream
 * with different soaks and a soak right after a control-flow stage; this reports them again for
 * plans built another way.
 * @internal
 */
export function placeSoaks(problems: ProblemList, stages: StagePlan[]): StagePlan[] {
  const waves = stages.flatMap(s => s.waves);
  const byStage = new Map(waves.map(w => [w.kargoStage, w]));
  const asked = new Map<string, { soak: string | undefined; by: string }>();
  for (const w of waves) {
    for (const up of w.upstreams) {
      const first = asked.get(up);
      if (first === undefined) {
        asked.set(up, { soak: w.soak, by: w.kargoStage });
      } else if (first.soak !== w.soak) {
        problems.add(describe(`soaks of Kargo Stages ${show(first.by)} and ${show(w.kargoStage)}`, `${first.soak ?? 'none'} and ${w.soak ?? 'none'}`,
          `must be the same: both follow ${show(up)}, which waits one soak in its checks`, 'give the stages the same soak', String));
      }
      if (byStage.get(up)?.controlFlow && w.soak !== undefined) {
        problems.add(describe(`Kargo Stage ${show(w.kargoStage)} soak`, w.soak, `cannot follow control-flow Stage ${show(up)}, where Freight never soaks`,
          'move the soak to the control-flow stage', String));
      }
    }
  }
  const earliest = new Map<string, number>();
  const place = (w: WavePlan): WavePlan => {
    const reach = w.upstreams.map(up => earliest.get(up) ?? 0);
    const before = reach.length === 0 ? 0 : w.join === JoinKind.ANY_OF ? Math.min(...reach) : Math.max(...reach);
    const seconds = before + (w.soak === undefined ? 0 : parseGoDuration(w.soak) / 1000);
    earliest.set(w.kargoStage, seconds);
    const soak = asked.get(w.kargoStage)?.soak;
    return { ...w, verificationSoak: w.controlFlow ? undefined : soak, earliestSeconds: seconds };
  };
  // upstreams always come earlier in the plan: stages follow their `after`, waves their predecessor
  return stages.map(s => ({ ...s, waves: s.waves.map(place) }));
}

