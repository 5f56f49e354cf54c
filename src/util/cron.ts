/**
 * Cron schedules exactly as Argo CD v3.5.1 reads a sync window's `schedule`: robfig/cron v3 at
 * Argo CD's pin (v3.0.2-0.20210106135023-bc59245fe10e) built as
 * `cron.NewParser(cron.Minute | cron.Hour | cron.Dom | cron.Month | cron.Dow)`
 * (argo-cd pkg/apis/application/v1alpha1/types.go, SyncWindow.active and SyncWindow.Validate),
 * run by the Go parsers shipped with the library (src/util/go-parsers.ts): 5 fields with `*`,
 * `?`, lists, ranges, steps and month and day names, and no descriptor. A schedule it refuses
 * makes every sync of the Applications the window covers fail, so the freeze validation at synth
 * time and the change rules of the command line share this one parser. What a parsed schedule
 * fires at is robfig's own SpecSchedule, read back from Go; only its day matching (spec.go
 * `dayMatches`, three lines) is restated here, for the command line's evaluation of windows.
 */

import { describe, userError } from './errors';
import { goParse, GoCronSpec } from './go-parsers';

export const DAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];
const FIELD_NAMES = ['minute', 'hour', 'day-of-month', 'month', 'day-of-week'];
const RANGES = ['0-59', '0-23', '1-31', '1-12 or jan-dec', '0-6 or sun-sat'];

/** Wall-clock fields of a minute, as a cron schedule sees them. */
export interface CronTime {
  readonly minute: number;
  readonly hour: number;
  readonly dayOfMonth: number;
  /** 1-12 */
  readonly month: number;
  /** 0 (Sunday) - 6 */
  readonly dayOfWeek: number;
}

/**
 * The values a parsed schedule fires at, field by field, ascending (months 1-12, days of the
 * week 0 for Sunday to 6), with robfig's star bits on the day fields: what Go parsed.
 */
export type CronFields = Omit<GoCronSpec, 'firesNever'>;

/** What is wrong with a schedule, and what to write instead. */
export interface CronProblem {
  readonly problem: string;
  readonly fix: string;
}

/**
 * A parsed 5-field cron schedule (minute hour day-of-month month day-of-week), matched the way
 * robfig/cron's `SpecSchedule` matches (spec.go `Next`, `dayMatches`).
 *
 * @example
 * const nightly = CronSchedule.parse('0 22 * * 1-5');
 * nightly.matches({ minute: 0, hour: 22, dayOfMonth: 1, month: 12, dayOfWeek: 2 }); // true
 */
export class CronSchedule {
  /**
   * @throws when Argo CD would refuse the schedule, naming the field, the value and the fix
   */
  public static parse(schedule: string): CronSchedule {
    const parsed = parseCron(schedule);
    if ('problem' in parsed) throw userError(describe('cron schedule', schedule, parsed.problem, parsed.fix));
    return parsed;
  }

  /**
   * The 5 fields a robfig/cron descriptor stands for (`@weekly` is `0 0 * * 0`), as robfig's
   * own descriptor parser reads it, or undefined when `text` is none (or `@every`, which is no
   * calendar schedule). Argo CD refuses descriptors; a freeze given one emits these fields.
   */
  public static expandDescriptor(text: string): string | undefined {
    if (!text.startsWith('@')) return undefined;
    const spec = goParse('cron', text, 'descriptor').cron;
    return spec ? fieldsText(spec) : undefined;
  }

  /** @internal */
  public static _of(spec: GoCronSpec): CronSchedule {
    return new CronSchedule(spec);
  }

  private readonly sets: Set<number>[];

  private constructor(private readonly spec: GoCronSpec) {
    this.sets = [spec.minutes, spec.hours, spec.daysOfMonth, spec.months, spec.daysOfWeek].map(v => new Set(v));
  }

  /** The values of every field, for code that evaluates the schedule elsewhere (a Kargo expression). */
  public get values(): CronFields {
    const s = this.spec;
    return {
      minutes: [...s.minutes],
      hours: [...s.hours],
      daysOfMonth: [...s.daysOfMonth],
      months: [...s.months],
      daysOfWeek: [...s.daysOfWeek],
      dayOfMonthStar: s.dayOfMonthStar,
      dayOfWeekStar: s.dayOfWeekStar,
    };
  }

  /** Whether the schedule fires at this minute. */
  public matches(t: CronTime): boolean {
    return this.sets[0].has(t.minute) && this.sets[1].has(t.hour) && this.matchesDay(t);
  }

  /** Whether the schedule fires on this day at some time (its month and day fields match). */
  public matchesDay(t: Pick<CronTime, 'dayOfMonth' | 'month' | 'dayOfWeek'>): boolean {
    return this.sets[3].has(t.month) && this.dayMatches(t.dayOfMonth, t.dayOfWeek);
  }

  /** Whether the schedule fires in this hour of a day it fires on. */
  public matchesHour(hour: number): boolean {
    return this.sets[1].has(hour);
  }

  /**
   * Whether the schedule can never fire (`0 0 30 2 *`): robfig's `SpecSchedule.Next` returns
   * Go's zero time, which is before every instant, so Argo CD's `SyncWindow.active`
   * (`nextWindow.Before(currentTime...)`) holds such a window active for ever. Asked of `Next`
   * itself.
   */
  public get firesNever(): boolean {
    return this.spec.firesNever;
  }

  /** robfig/cron spec.go `dayMatches`: a star on either day field makes both required. */
  private dayMatches(dayOfMonth: number, dayOfWeek: number): boolean {
    const domMatch = this.sets[2].has(dayOfMonth);
    const dowMatch = this.sets[4].has(dayOfWeek);
    return this.spec.dayOfMonthStar || this.spec.dayOfWeekStar ? domMatch && dowMatch : domMatch || dowMatch;
  }
}

/** A parsed schedule written as 5 fields that parse back to it (a full field with robfig's star bit is `*`). */
function fieldsText(spec: GoCronSpec): string {
  const full = [60, 24, 31, 12, 7];
  const stars = [true, true, spec.dayOfMonthStar, true, spec.dayOfWeekStar];
  return [spec.minutes, spec.hours, spec.daysOfMonth, spec.months, spec.daysOfWeek]
    .map((values, i) => (values.length === full[i] && stars[i] ? '*' : values.join(','))).join(' ');
}

/** The schedule, or what is wrong with it: Go's reason, for every field it refuses. */
export function parseCron(schedule: string): CronSchedule | CronProblem {
  if (typeof schedule !== 'string' || schedule === '') {
    return { problem: 'is empty', fix: "write 5 fields (minute hour day-of-month month day-of-week), e.g. '0 0 20 12 *'" };
  }
  if (/^(CRON_)?TZ=/.test(schedule)) {
    return { problem: 'starts with a time zone, which the generated sync window cannot also carry in timeZone', fix: 'drop the TZ= prefix and set the time zone in timeZone' };
  }
  const answer = goParse('cron', schedule);
  if (answer.cron) return CronSchedule._of(answer.cron);
  const refused = "is refused by Argo CD v3.5.1's cron parser (robfig/cron)";
  if (schedule.trim().startsWith('@')) {
    const expanded = CronSchedule.expandDescriptor(schedule.trim());
    return {
      problem: `${refused}: ${answer.error}`,
      fix: expanded ? `write its 5 fields instead: ${JSON.stringify(expanded)}` : 'write 5 fields (minute hour day-of-month month day-of-week)',
    };
  }
  const fields = answer.cronFields ?? [];
  if (fields.length === 0) {
    return { problem: `${refused}: ${answer.error}`, fix: "write minute hour day-of-month month day-of-week, e.g. '0 0 20 12 *'" };
  }
  const sunday = fields.some(f => f.field === 4 && /above maximum \(6\)/.test(f.error));
  return {
    problem: `${refused}: ${fields.map(f => `${FIELD_NAMES[f.field]} ${JSON.stringify(f.text)}: ${f.error}`).join('; ')}`,
    fix: [...fields.map(f => `${FIELD_NAMES[f.field]} takes ${RANGES[f.field]}, lists, ranges (a-b) and steps (*/n)`),
      ...sunday ? ['Argo CD counts Sunday as 0 only'] : []].join('; '),
  };
}
