import { Duration } from 'cdk8s';
import { call, field, hint, num, prop, str } from '../util/code-hint';
import { CronSchedule, parseCron } from '../util/cron';
import { toGoDuration } from '../util/duration';
import { describe } from '../util/errors';
import { goProblem } from '../util/go-parsers';
import { dns1123LabelProblem } from '../util/names';

/**
 * When a deploy freeze holds: from every time a cron schedule fires, for a duration. This is
 * exactly what an Argo CD sync window can express (`schedule` + `duration`), so the freeze is
 * emitted without approximation.
 *
 * @example
 * // every year from Dec 20, 00:00 for 14 days (until Jan 3, 00:00)
 * FreezeSchedule.cron('0 0 20 12 *', Duration.days(14));
 */
export class FreezeSchedule {
  /**
   * From every time `expression` fires, for `duration` (whole minutes). `expression` is 5 cron
   * fields (minute hour day-of-month month day-of-week; `*`, `?`, lists, ranges, steps, month and
   * day names; Sunday is 0) as Argo CD reads them, or one of the descriptors `@yearly`,
   * `@annually`, `@monthly`, `@weekly`, `@daily`, `@midnight`, `@hourly`, which Argo CD refuses:
   * the freeze emits their 5 fields (`@weekly` becomes `0 0 * * 0`).
   */
  public static cron(expression: string, duration: Duration): FreezeSchedule {
    return new FreezeSchedule(expression, duration);
  }

  private constructor(
    /** The cron expression. */
    public readonly expression: string,
    /** How long the freeze holds each time. */
    public readonly duration: Duration) {}
}

/**
 * Properties for `DeployFreeze`.
 */
export interface DeployFreezeProps {
  /** Why nothing may ship, shown in the AppProject's sync window, the plan and the change review. */
  readonly reason: string;
  /** When the freeze holds. */
  readonly schedule: FreezeSchedule;
  /**
   * The IANA time zone the schedule is read in (e.g. `Europe/Berlin`).
   * @default 'UTC'
   */
  readonly timeZone?: string;
  /**
   * Whether a person may still sync during the freeze: an Argo CD manual sync, or a Kargo
   * promotion someone started by hand (Kargo syncs as that user with `Automated: false`).
   * Automatic promotions and self-heal stay blocked either way.
   * @default false
   */
  readonly allowManualSync?: boolean;
  /**
   * The pipeline stages the freeze applies to, when it is given to a whole pipeline or app.
   * @default - every stage (a freeze given to a stage applies to that stage)
   */
  readonly stages?: string[];
}

/**
 * A time when nothing ships: no Argo CD sync of the affected apps' Applications, and no Kargo
 * promotion into a frozen stage, which fails before it pushes anything, with the reason.
 *
 * Give it to a pipeline (`PromotionPipelineProps.freezes`: every app on the pipeline), a stage
 * (`PipelineStageOptions.freezes`) or an app (`PlatformAppProps.freezes`). It becomes a `deny`
 * sync window in exactly the AppProjects that deploy the frozen stages, scoped to the frozen
 * stages' Applications, and a first `fail` step of the frozen stages' Kargo promotions that runs
 * while the window is open (or opens within the sync timeout). `PlatformAppProps.freezeOverride`
 * lets an app through, on the record.
 *
 * @example
 * const holidays = new DeployFreeze({
 *   reason: 'year-end change freeze',
 *   schedule: FreezeSchedule.cron('0 0 20 12 *', Duration.days(14)),
 *   timeZone: 'Europe/Berlin',
 *   stages: ['prod'],
 * });
 * new PromotionPipeline(app, 'standard', { stages, freezes: [holidays] });
 */
export class DeployFreeze {
  /** Why nothing may ship. */
  public readonly reason: string;
  /** The 5-field cron schedule the freeze starts at, as the sync window carries it (a descriptor given is spelled out). */
  public readonly schedule: string;
  /** How long each freeze holds, as an Argo CD duration (`336h`). */
  public readonly duration: string;
  /** How long each freeze holds, in seconds. */
  public readonly durationSeconds: number;
  /** The time zone the schedule is read in. */
  public readonly timeZone: string;
  /** Whether a person may still sync. */
  public readonly allowManualSync: boolean;
  /** The stages the freeze is limited to (empty: all). */
  public readonly stages: string[];

  /**
   * What is wrong with the props: the pipeline, stage or app the freeze is given to reports it
   * under its own name (a freeze is a value, defined before anyone holds it).
   * @internal
   */
  public readonly _problems: string[] = [];

  constructor(props: DeployFreezeProps) {
    const problems = this._problems;
    const reason = typeof props.reason === 'string' ? props.reason.trim() : '';
    if (reason === '') problems.push(describe(prop('reason'), props.reason, 'is empty', 'say why nothing may ship, e.g. "year-end change freeze"'));
    const valid = props.schedule instanceof FreezeSchedule;
    if (!valid) {
      problems.push(describe(prop('schedule'), props.schedule, 'must be a FreezeSchedule',
        hint`use ${call('FreezeSchedule', 'cron', str('0 0 20 12 *'), call('Duration', 'days', num(14)))}`));
    }
    const schedule = valid ? argoCdSchedule(problems, props.schedule.expression) : '';
    const duration = valid ? props.schedule.duration : undefined;
    const seconds = typeof (duration as any)?.toSeconds === 'function' ? duration!.toSeconds({ integral: false }) : NaN;
    if (valid && !(Number.isInteger(seconds) && seconds >= 60 && seconds % 60 === 0)) {
      problems.push(describe(field(prop('schedule'), 'duration'), Number.isNaN(seconds) ? duration : `${seconds}s`,
        'must be a positive whole number of minutes (Argo CD checks windows once a minute)', hint`use ${call('Duration', 'hours')} or ${call('Duration', 'days')}`));
    }
    const timeZone = props.timeZone ?? 'UTC';
    const zoneProblem = timeZoneProblem(timeZone);
    if (zoneProblem) problems.push(describe(prop('timeZone'), timeZone, zoneProblem.problem, zoneProblem.fix));
    for (const stage of props.stages ?? []) {
      const problem = dns1123LabelProblem(stage);
      if (problem) problems.push(describe(prop('stages'), stage, problem, 'name pipeline stages, e.g. "prod"'));
    }
    this.reason = reason;
    this.schedule = schedule;
    this.duration = problems.length === 0 ? toGoDuration(duration!) : '';
    this.durationSeconds = seconds;
    this.timeZone = timeZone;
    this.allowManualSync = props.allowManualSync ?? false;
    this.stages = [...props.stages ?? []];
  }

  /** Whether the freeze covers a stage (it covers every stage unless it names some). */
  public appliesTo(stage: string): boolean {
    return this.stages.length === 0 || this.stages.includes(stage);
  }
}

/**
 * Properties for `FreezeOverride.of()`.
 */
export interface FreezeOverrideProps {
  /** Who decided to ship during the freeze (a person or a change board, e.g. `alice@acme.example`). */
  readonly by: string;
  /** Why it cannot wait (e.g. `CVE-2026-1234 hotfix, CHG-881`). */
  readonly reason: string;
  /**
   * Until when the override was granted (ISO date), recorded for the reviewer; remove the
   * override after it.
   * @default - not recorded
   */
  readonly until?: string;
}

/**
 * An emergency exception from every deploy freeze of one app, explicit and on the record: it is
 * written as the `gitops-platform.io/freeze-override` annotation (who, why, until) on the app's
 * Kargo Project and AppProjects, which the `no-production-change-during-freeze` change rule
 * accepts, and it turns the app's deny windows into windows that let a person through
 * (`manualSync: true`): a Kargo promotion someone starts by hand syncs, automation stays held.
 *
 * @example
 * new PlatformApp(app, 'checkout-api', {
 *   owner: { team: 'payments', contact: '#payments-oncall' }, fleet, pipeline,
 *   artifacts: [Artifact.image('ghcr.io/acme/checkout-api')],
 *   source: ManifestSource.helm({ repoUrl: 'https://github.com/acme/deploy.git', path: 'charts/checkout-api' }),
 *   releaseRepo: 'https://github.com/acme/releases.git',
 *   freezeOverride: FreezeOverride.of({ by: 'alice@acme.example', reason: 'CVE-2026-1234 hotfix' }),
 * });
 */
export class FreezeOverride {
  /** An override granted by someone, for a reason. */
  public static of(props: FreezeOverrideProps): FreezeOverride {
    const problems: string[] = [];
    const by = typeof props.by === 'string' ? props.by.trim() : '';
    const reason = typeof props.reason === 'string' ? props.reason.trim() : '';
    if (by === '') problems.push(describe(prop('by'), props.by, 'is empty', 'name who approved shipping during the freeze'));
    if (reason === '') problems.push(describe(prop('reason'), props.reason, 'is empty', 'say why the change cannot wait, e.g. a CVE or incident id'));
    if (props.until !== undefined && !isRealIsoDate(props.until)) {
      problems.push(describe(prop('until'), props.until, 'is not a real ISO date (UTC)', "use '2026-12-24' or '2026-12-24T18:00:00Z'"));
    }
    return new FreezeOverride(by, reason, props.until, problems);
  }

  private constructor(
    /** Who decided. */
    public readonly by: string,
    /** Why. */
    public readonly reason: string,
    /** Until when, if recorded. */
    public readonly until: string | undefined,
    /** What is wrong with it, reported by the app it is given to. @internal */
    public readonly _problems: string[]) {}

  /** The annotation value: `<reason> (by <who>[, until <date>])`. */
  public get record(): string {
    return `${this.reason} (by ${this.by}${this.until ? `, until ${this.until}` : ''})`;
  }
}

/**
 * The schedule as the sync window carries it: a descriptor spelled out in 5 fields, checked by
 * the parser Argo CD v3.5.1 uses, and refused when it never fires (Argo CD would hold that
 * window active for ever).
 */
function argoCdSchedule(problems: string[], expression: unknown): string {
  const text = typeof expression === 'string' ? expression.trim() : '';
  const schedule = CronSchedule.expandDescriptor(text) ?? text;
  const parsed = parseCron(schedule);
  if ('problem' in parsed) {
    problems.push(describe(prop('schedule'), expression, parsed.problem, parsed.fix));
  } else if (parsed.firesNever) {
    problems.push(describe(prop('schedule'), expression,
      'never fires, and Argo CD v3.5.1 holds a window whose schedule never fires active for ever (robfig/cron SpecSchedule.Next returns the zero time, which SyncWindow.active reads as past)',
      'name a day that exists in the months given, e.g. 28 instead of 30 for February'));
  }
  return schedule;
}

/**
 * A date (`2026-12-24`) or UTC time (`2026-12-24T18:00:00Z`) that exists: `Date` rolls
 * `2026-02-30` over to March 2nd instead of refusing it, so the parsed value must print back as given.
 */
function isRealIsoDate(text: unknown): boolean {
  const m = typeof text === 'string' ? /^(\d{4}-\d{2}-\d{2})(T(\d{2}):(\d{2})(:(\d{2})(\.\d{1,3})?)?Z)?$/.exec(text) : null;
  if (!m) return false;
  const parsed = new Date(m[2] ? text as string : `${m[1]}T00:00:00Z`);
  if (Number.isNaN(parsed.getTime()) || parsed.toISOString().slice(0, 10) !== m[1]) return false;
  return m[2] === undefined || (Number(m[3]) < 24 && Number(m[4]) < 60 && Number(m[6] ?? 0) < 60);
}

/**
 * Why Go's `time.LoadLocation` refuses the zone, or undefined: Argo CD v3.5.1 reads a sync
 * window's `timeZone` with it (`SyncWindow.Validate`, which falls back to UTC, and
 * `scheduleOffsetByTimeZone`), and so does expr-lang's `timezone()` in the freeze steps Kargo
 * runs. Decided by Go's own code with Go's zone database (src/util/go-parsers.ts): zone names
 * are case-sensitive there, as on the controllers' Linux, while JavaScript's Intl is not.
 */
function timeZoneProblem(zone: unknown): { problem: string; fix: string } | undefined {
  if (typeof zone !== 'string' || zone === '') {
    return { problem: 'is not an IANA time zone', fix: "use a name such as 'UTC', 'Europe/Berlin' or 'America/New_York'" };
  }
  const error = goProblem('timezone', zone);
  if (error === undefined) return undefined;
  const suggestion = canonicalZone(zone);
  return {
    problem: `is refused by Go's time.LoadLocation, which Argo CD and Kargo read it with (${error})`,
    fix: suggestion ? `write it as the zone database spells it: ${JSON.stringify(suggestion)}` : "use an IANA name as the zone database spells it, e.g. 'UTC', 'Europe/Berlin' or 'America/New_York'",
  };
}

/** The zone database's spelling of a zone Intl knows in another case, if Go accepts that spelling. */
function canonicalZone(zone: string): string | undefined {
  try {
    const name = new Intl.DateTimeFormat('en-US', { timeZone: zone }).resolvedOptions().timeZone;
    return name !== zone && goProblem('timezone', name) === undefined ? name : undefined;
  } catch {
    return undefined;
  }
}
