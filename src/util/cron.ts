/**
 * Cron schedules as Argo CD reads them for sync windows: 5 fields and the `@daily`-style
 * descriptors, parsed the way robfig/cron does (argo-cd pkg/apis/application/v1alpha1/types.go,
 * SyncWindow.Active). Shared by the freeze validation at synth time and the change rules of the
 * command line, so both accept exactly the same schedules.
 */

import { show } from './errors';

const DESCRIPTORS: Record<string, string> = {
  '@yearly': '0 0 1 1 *',
  '@annually': '0 0 1 1 *',
  '@monthly': '0 0 1 * *',
  '@weekly': '0 0 * * 0',
  '@daily': '0 0 * * *',
  '@midnight': '0 0 * * *',
  '@hourly': '0 * * * *',
};
const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
export const DAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];

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
 * A parsed 5-field cron schedule (minute hour day-of-month month day-of-week) with `*`, lists,
 * ranges, steps, month and day names, and the `@daily`-style descriptors.
 *
 * @example
 * const nightly = CronSchedule.parse('0 22 * * 1-5');
 * nightly.matches({ minute: 0, hour: 22, dayOfMonth: 1, month: 12, dayOfWeek: 2 }); // true
 */
export class CronSchedule {
  /**
   * @throws when the schedule does not parse, naming the field
   */
  public static parse(schedule: string): CronSchedule {
    const text = DESCRIPTORS[schedule.trim().toLowerCase()] ?? schedule.trim();
    const fields = text.split(/\s+/);
    if (fields.length !== 5) {
      throw new Error(`cron schedule ${show(schedule)} must have 5 fields (minute hour day-of-month month day-of-week), has ${fields.length}`);
    }
    const [minute, hour, dom, month, dow] = fields;
    return new CronSchedule(
      parseField(schedule, minute, 0, 59),
      parseField(schedule, hour, 0, 23),
      parseField(schedule, dom, 1, 31),
      parseField(schedule, month, 1, 12, MONTHS, 1),
      // 7 is Sunday as well
      new Set([...parseField(schedule, dow, 0, 7, DAYS, 0)].map((d) => d % 7)),
      dom.startsWith('*') || dom.startsWith('?'),
      dow.startsWith('*') || dow.startsWith('?'),
    );
  }

  private constructor(
    private readonly minutes: Set<number>,
    private readonly hours: Set<number>,
    private readonly daysOfMonth: Set<number>,
    private readonly months: Set<number>,
    private readonly daysOfWeek: Set<number>,
    private readonly anyDayOfMonth: boolean,
    private readonly anyDayOfWeek: boolean,
  ) {}

  /** Whether the schedule fires at this minute. */
  public matches(t: CronTime): boolean {
    if (!this.minutes.has(t.minute) || !this.hours.has(t.hour) || !this.months.has(t.month)) {
      return false;
    }
    const dom = this.daysOfMonth.has(t.dayOfMonth);
    const dow = this.daysOfWeek.has(t.dayOfWeek);
    // Vixie cron (and robfig/cron): when both day fields are restricted, either one may match.
    if (this.anyDayOfMonth || this.anyDayOfWeek) {
      return dom && dow;
    }
    return dom || dow;
  }
}

function parseField(schedule: string, field: string, min: number, max: number, names: string[] = [], nameBase = 0): Set<number> {
  const values = new Set<number>();
  const value = (text: string): number => {
    const named = names.indexOf(text.toLowerCase());
    if (named >= 0) return named + nameBase;
    if (!/^\d+$/.test(text)) {
      throw new Error(`cron schedule ${show(schedule)}: ${show(field)} is not a number, range or name`);
    }
    const n = Number(text);
    if (n < min || n > max) {
      throw new Error(`cron schedule ${show(schedule)}: ${n} in ${show(field)} is outside ${min}-${max}`);
    }
    return n;
  };
  for (const part of field.split(',')) {
    const [range, stepText] = part.split('/');
    const step = stepText === undefined ? 1 : Number(stepText);
    if (!Number.isInteger(step) || step < 1) {
      throw new Error(`cron schedule ${show(schedule)}: step ${show(stepText)} in ${show(field)} is not a positive number`);
    }
    let lo: number;
    let hi: number;
    if (range === '*' || range === '?') {
      [lo, hi] = [min, max];
    } else if (range.includes('-')) {
      const [a, b] = range.split('-');
      [lo, hi] = [value(a), value(b)];
    } else {
      lo = value(range);
      hi = stepText === undefined ? lo : max;
    }
    if (lo > hi) {
      throw new Error(`cron schedule ${show(schedule)}: range ${show(range)} in ${show(field)} runs backwards`);
    }
    for (let n = lo; n <= hi; n += step) values.add(n);
  }
  return values;
}
