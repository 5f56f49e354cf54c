import { StagePlan, WavePlan } from './release-plan';
import { JoinKind } from '../pipeline/join';
import { soakProblems } from '../pipeline/soak-rules';
import { field, prop } from '../util/code-hint';
import { parseGoDuration } from '../util/duration';
import { ProblemList, show } from '../util/errors';

/**
 * Where each soak of a plan is waited and when Freight can first reach each Kargo Stage.
 *
 * A wave's soak is waited in the verification of its upstream Kargo Stages (`verificationSoak`),
 * so Freight counts as verified there only once it has run there that long; the Stage itself
 * requests Freight verified upstream without `requiredSoakTime` (see
 * `verification/soak-check.ts` for the Kargo v1.11.2 functions that rule it out). The soak rules
 * (`soakProblems`) are the ones `PromotionPipeline.addStage` checks; they are checked again here
 * on the Kargo Stages for pipelines that are another `IPromotionPipeline`.
 * @internal
 */
export function placeSoaks(problems: ProblemList, stages: StagePlan[]): StagePlan[] {
  const waves = stages.flatMap(s => s.waves);
  const nodes = waves.map(w => ({ name: w.kargoStage, soak: w.soak, upstreams: w.upstreams, controlFlow: w.controlFlow }));
  soakProblems(nodes, node => field('Kargo Stage', show(node.name), prop('soak'))).forEach(p => problems.add(p));
  // the soak of the first Stage after each upstream: `soakProblems` holds them all the same
  const asked = new Map<string, string | undefined>();
  for (const w of waves) {
    for (const up of w.upstreams) if (!asked.has(up)) asked.set(up, w.soak);
  }
  const earliest = new Map<string, number>();
  const place = (w: WavePlan): WavePlan => {
    const reach = w.upstreams.map(up => earliest.get(up) ?? 0);
    const before = reach.length === 0 ? 0 : w.join === JoinKind.ANY_OF ? Math.min(...reach) : Math.max(...reach);
    const seconds = before + (w.soak === undefined ? 0 : parseGoDuration(w.soak) / 1000);
    earliest.set(w.kargoStage, seconds);
    const soak = asked.get(w.kargoStage);
    return { ...w, verificationSoak: w.controlFlow ? undefined : soak, earliestSeconds: seconds };
  };
  // upstreams always come earlier in the plan: stages follow their `after`, waves their predecessor
  return stages.map(s => ({ ...s, waves: s.waves.map(place) }));
}

