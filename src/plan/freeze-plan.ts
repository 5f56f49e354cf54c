import { FreezePlan, ReleasePlan } from './release-plan';
import { ApprovalKind } from '../pipeline/approval';
import { DeployFreeze, FreezeOverride } from '../pipeline/deploy-freeze';
import { IPromotionPipeline, PipelineStage } from '../pipeline/promotion-pipeline';
import { didYouMean } from '../util/closest';
import { call, field, fieldText, hint, prop } from '../util/code-hint';
import { ProblemList, show } from '../util/errors';

/**
 * The freezes an app brings besides its pipeline's.
 * @internal
 */
export interface FreezeInput {
  /** The app's own freezes. */
  readonly freezes?: DeployFreeze[];
  /** The app's emergency exception from every freeze. */
  readonly freezeOverride?: FreezeOverride;
}

/**
 * The freezes of one stage for one app: the pipeline's (that name the stage or none), the
 * stage's, then the app's; a freeze given twice counts once.
 */
function stageFreezes(pipeline: IPromotionPipeline, stage: PipelineStage, input: FreezeInput): FreezePlan[] {
  const manual = input.freezeOverride !== undefined;
  const seen = new Set<DeployFreeze>();
  const out: FreezePlan[] = [];
  const add = (origin: string, freezes: DeployFreeze[]) => {
    for (const f of freezes) {
      if (seen.has(f) || !f.appliesTo(stage.name)) continue;
      seen.add(f);
      out.push({
        reason: f.reason,
        schedule: f.schedule,
        duration: f.duration,
        durationSeconds: f.durationSeconds,
        timeZone: f.timeZone,
        manualSync: f.allowManualSync || manual,
        origin,
      });
    }
  };
  add('pipeline', pipeline.freezes);
  add('stage', stage.freezes);
  add('app', input.freezes ?? []);
  return out;
}

/**
 * The plan with the freezes of every stage and the app's override. Problems go to `problems`:
 * a freeze naming a stage the pipeline does not have (it would never apply), and freezes that
 * Argo CD cannot hold in one AppProject.
 * @internal
 */
export function applyFreezes(problems: ProblemList, plan: ReleasePlan, pipeline: IPromotionPipeline, input: FreezeInput): ReleasePlan {
  checkFreezeStages(problems, pipeline, input);
  const byName = new Map(pipeline.stages.map(s => [s.name, s]));
  const stages = plan.stages.map(stage => {
    // every stage of a plan is a stage of its pipeline
    const own = byName.get(stage.name);
    const freezes = own === undefined ? [] : stageFreezes(pipeline, own, input);
    if (freezes.length === 0) return stage;
    if (stage.approval === ApprovalKind.PULL_REQUEST) {
      problems.check(field(`pipeline '${pipeline.pipelineName}'`, `stage ${show(stage.name)}`),
        freezes.map(f => f.reason), 'is promoted by pull request and frozen, which Kargo v1.11.2 cannot hold: the freeze check runs once, '
        + 'before the pull request is opened, and git-wait-for-pr waits for the merge without a timeout (pkg/promotion/runner/builtin/git_pr_waiter.go '
        + 'registers no DefaultTimeout), so a pull request merged during the freeze lands on the release branch and Argo CD syncs it when the '
        + 'window closes, with no promotion checking the freeze again and no verification',
        hint`give the frozen stage ${call('Approval', 'manual')} (a person starts each promotion, and the freeze check runs when they do), or drop the freeze from it`);
    }
    return { ...stage, freezes };
  });
  checkOneZonePerSchedule(problems, stages.flatMap(s => s.freezes));
  return { ...plan, stages, ...input.freezeOverride ? { freezeOverride: input.freezeOverride.record } : {} };
}

/**
 * Argo CD keeps one window per kind, schedule and duration in a project, and a window has one
 * time zone: freezes that share schedule and duration must share the zone.
 */
function checkOneZonePerSchedule(problems: ProblemList, freezes: FreezePlan[]): void {
  const zones = new Map<string, FreezePlan>();
  for (const f of freezes) {
    const key = `${f.schedule} for ${f.duration}`;
    const other = zones.get(key);
    if (other && other.timeZone !== f.timeZone) {
      problems.check(prop('freezes'), [other, f].map(x => ({ reason: x.reason, timeZone: x.timeZone })),
        `share the schedule ${show(key)} in different time zones, which Argo CD cannot hold in one AppProject`,
        'use one time zone for both, or shift one schedule by a minute');
    }
    zones.set(key, f);
  }
}

/** A freeze that names a stage the pipeline does not have would never apply: report it. */
function checkFreezeStages(problems: ProblemList, pipeline: IPromotionPipeline, input: FreezeInput): void {
  const names = new Set(pipeline.stages.map(s => s.name));
  const check = (name: string, freezes: DeployFreeze[]) => freezes.forEach((f, i) => {
    for (const s of f.stages.filter(x => !names.has(x))) {
      problems.check(`${name}[${i}].${fieldText(prop('stages'))}`, s, `is not a stage of pipeline '${pipeline.pipelineName}' (${[...names].join(', ')})`,
        hint`${didYouMean(s, [...names])} (or leave ${prop('stages')} unset to freeze every stage)`);
    }
  });
  check(fieldText(field(`pipeline '${pipeline.pipelineName}'`, prop('freezes'))), pipeline.freezes);
  check(fieldText(prop('freezes')), input.freezes ?? []);
}
