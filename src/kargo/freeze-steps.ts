import { Duration } from 'cdk8s';
import { expr } from '../contracts/expressions';
import { DEFAULT_SYNC_TIMEOUT_SECONDS, FreezePlan, StagePlan } from '../plan/release-plan';
import { CronFields, CronSchedule, DAYS } from '../util/cron';
import { toGoDuration } from '../util/duration';

/**
 * Kargo v1.11.2 has no freeze of its own, and a deny sync window stops only Argo CD: a promotion
 * would render and push, and its Applications would deploy by themselves once the window
 * lifts. So every frozen wave's promotion starts with one `fail` step per freeze
 * (`pkg/promotion/runner/builtin/failer.go`: always Failed, with a TerminalError `failed:
 * <message>`), run only when its `if` finds the freeze's window open. Every later step has no
 * `if` and is Skipped once a step failed (`pkg/promotion/evaluator.go` `ShouldSkip`), so nothing
 * is cloned, rendered or pushed.
 *
 * The `if` evaluates the window exactly as Argo CD v3.5.1 does (argo-cd
 * `pkg/apis/application/v1alpha1/types.go` `SyncWindow.active`): the wall clock of now in the
 * freeze's zone (now shifted by the zone's current offset, `scheduleOffsetByTimeZone`), read as
 * UTC, is inside the window when a firing of the schedule lies within the duration before it.
 * expr-lang v1.17.8 (Kargo's go.mod) has no cron, so the expression walks the days the window
 * can have started on (`0..K`, builtin `any` with a predicate) and the hours and minutes the
 * schedule fires at, with the builtins `now(tz)`, `timezone`, `date`, `duration` and Go's
 * `time.Time.Format` (day, month and weekday as text); time minus duration, int times duration
 * and time comparisons are expr-lang's (`vm/runtime/helpers`, `checker/checker.go`). Every
 * 5-field schedule Argo CD accepts can be written this way, so no freeze is refused here.
 *
 * It also fails while a window opens within the stage's sync timeout: a promotion that goes
 * ahead then has the whole `argocd-update` timeout before the freeze, and cannot push a release
 * the window then holds off the cluster.
 * @internal
 */
export function freezeSteps(stage: StagePlan): any[] {
  return stage.freezes.map((freeze, i) => ({
    uses: 'fail',
    as: `freeze-${i + 1}`,
    if: expr(freezeCondition(freeze, DEFAULT_SYNC_TIMEOUT_SECONDS)),
    config: { message: freezeMessage(stage.name, freeze) },
  }));
}

/**
 * The reason and the window, as the failed Promotion shows them. Kargo does not start the
 * same Freight again by itself after a failed promotion (`regular_stages.go`
 * `autoPromoteFreight`: "skipping auto-promotion to avoid an infinite loop"), so it says so.
 */
function freezeMessage(stage: string, freeze: FreezePlan): string {
  const manual = freeze.manualSync ? ' (a promotion a person starts goes through)' : '';
  const lookahead = toGoDuration(Duration.seconds(DEFAULT_SYNC_TIMEOUT_SECONDS));
  return `deploy freeze of stage ${stage}${manual}: ${freeze.reason}; its window ${JSON.stringify(freeze.schedule)} for ${freeze.duration} `
    + `(${freeze.timeZone}) is open or opens within ${lookahead}, so nothing was pushed: promote this Freight again once it has ended`;
}

const GO_WEEKDAYS = DAYS.map(d => d[0].toUpperCase() + d.slice(1));

/**
 * The expr-lang condition that is true while the freeze's window is open at now or opens within
 * `lookaheadSeconds`. A person's promotion (it carries a `create-actor`, which Kargo hands to
 * expressions as `ctx.meta.promotion.actor`, `pkg/promotion/evaluator.go` `BuildCtxMap`; an
 * automatic one has none) passes a freeze that allows manual syncs.
 * @internal
 */
export function freezeCondition(freeze: FreezePlan, lookaheadSeconds: number): string {
  const f = CronSchedule.parse(freeze.schedule).values;
  const minutes = freeze.durationSeconds / 60;
  // the window can have started on any day back to `duration` before now, or open tomorrow
  const daysBack = Math.ceil(freeze.durationSeconds / 86_400);
  const zone = `timezone(${str(freeze.timeZone)})`;
  const open = [
    `let wall = date(now(${zone}).Format('2006-01-02 15:04:05'), '2006-01-02 15:04:05');`,
    `let since = wall - ${minutes} * duration('1m');`,
    `let until = wall + ${lookaheadSeconds} * duration('1s');`,
    `any(-1..${daysBack}, {let fireDay = date(wall.Format('2006-01-02')) - # * duration('24h');`,
    `${dayCondition(f)} && any(${list(f.hours, 24)}, {let fireHour = fireDay + # * duration('1h');`,
    // `} )`, never `}}`: Kargo ends an expression at the first `}}` (json_templates.go nextExpression)
    `any(${list(f.minutes, 60)}, {let fire = fireHour + # * duration('1m'); fire > since && fire <= until} ) } ) } )`,
  ].join(' ');
  return freeze.manualSync ? `ctx.meta.promotion.actor == '' && (${open})` : open;
}

/** robfig/cron spec.go `dayMatches` on `fireDay`, with the checks of full fields left out. */
function dayCondition(f: CronFields): string {
  const month = f.months.length === 12 ? undefined : `fireDay.Format('1') in ${strings(f.months)}`;
  const dom = f.daysOfMonth.length === 31 ? undefined : `fireDay.Format('2') in ${strings(f.daysOfMonth)}`;
  const dow = f.daysOfWeek.length === 7 ? undefined : `fireDay.Format('Mon') in ${strings(f.daysOfWeek.map(d => GO_WEEKDAYS[d]))}`;
  // a star on either day field: both must match; otherwise either (a full field matches every day)
  const days = f.dayOfMonthStar || f.dayOfWeekStar
    ? [dom, dow].filter(c => c !== undefined).join(' && ')
    : dom === undefined || dow === undefined ? '' : `(${dom} || ${dow})`;
  const all = [month, days].filter(c => c !== undefined && c !== '');
  return all.length === 0 ? 'true' : `(${all.join(' && ')})`;
}

/** The values as an expr-lang array, or a range when the field is full. */
function list(values: number[], size: number): string {
  return values.length === size ? `0..${size - 1}` : `[${values.join(', ')}]`;
}

function strings(values: Array<number | string>): string {
  return `[${values.map(v => str(String(v))).join(', ')}]`;
}

/** An expr-lang single-quoted string. */
function str(text: string): string {
  return `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}
