/**
 * Cron schedules exactly as Argo CD v3.5.1 reads a sync window's `schedule`: robfig/cron v3
 * (argo-cd go.mod pins v3.0.2-0.20210106135023-bc59245fe10e, whose parser.go and spec.go equal
 * v3.0.1's) built as `cron.NewParser(cron.Minute | cron.Hour | cron.Dom | cron.Month | cron.Dow)`
 * (argo-cd pkg/apis/application/v1alpha1/types.go, SyncWindow.active and SyncWindow.Validate).
 * That parser takes 5 fields with `*`, `?`, lists, ranges, steps and month and day names, and no
 * descriptor (`Descriptor` is not among the flags). A schedule it refuses makes every sync of
 * the Applications the window covers fail, so the freeze validation at synth time and the
 * change rules of the command line share this one parser.
 */

import { describe, userError } from './errors';

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
export const DAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];

/**
 * The descriptors robfig/cron's `parseDescriptor` knows, as the 5 fields that fire at the same
 * minutes; `@every` is no calendar schedule and has none.
 */
const DESCRIPTORS: Record<string, string> = {
  '@yearly': '0 0 1 1 *',
  '@annually': '0 0 1 1 *',
  '@monthly': '0 0 1 * *',
  '@weekly': '0 0 * * 0',
  '@daily': '0 0 * * *',
  '@midnight': '0 0 * * *',
  '@hourly': '0 * * * *',
};

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

/** The values a parsed schedule fires at, field by field, ascending. */
export interface CronFields {
  readonly minutes: number[];
  readonly hours: number[];
  readonly daysOfMonth: number[];
  /** 1-12 */
  readonly months: number[];
  /** 0 (Sunday) - 6 */
  readonly daysOfWeek: number[];
  /** robfig's star bit on day-of-month (`*` or `?`, without a step above 1). */
  readonly dayOfMonthStar: boolean;
  /** robfig's star bit on day-of-week. */
  readonly dayOfWeekStar: boolean;
}

/** What is wrong with a schedule, and what to write instead. */
export interface CronProblem {
  readonly problem: string;
  readonly fix: string;
}

/** One field of the schedule: robfig's `bounds` (spec.go). */
interface Bounds {
  readonly name: string;
  readonly min: number;
  readonly max: number;
  readonly names?: string[];
  readonly nameBase?: number;
}

const FIELDS: Bounds[] = [
  { name: 'minute', min: 0, max: 59 },
  { name: 'hour', min: 0, max: 23 },
  { name: 'day-of-month', min: 1, max: 31 },
  { name: 'month', min: 1, max: 12, names: MONTHS, nameBase: 1 },
  { name: 'day-of-week', min: 0, max: 6, names: DAYS, nameBase: 0 },
];

/** A field's values, and whether it carries robfig's star bit (`*` or `?` without a step above 1). */
interface FieldBits {
  readonly values: Set<number>;
  readonly star: boolean;
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
   * The 5 fields a robfig/cron descriptor stands for (`@weekly` is `0 0 * * 0`), or undefined
   * when `text` is none. Argo CD refuses descriptors; a freeze given one emits these fields.
   */
  public static expandDescriptor(text: string): string | undefined {
    return Object.prototype.hasOwnProperty.call(DESCRIPTORS, text) ? DESCRIPTORS[text] : undefined;
  }

  /** @internal */
  public static _of(fields: FieldBits[]): CronSchedule {
    return new CronSchedule(fields);
  }

  private constructor(private readonly fields: FieldBits[]) {}

  /** The values of every field, for code that evaluates the schedule elsewhere (a Kargo expression). */
  public get values(): CronFields {
    const [minute, hour, dom, month, dow] = this.fields.map(f => ({ ...f, sorted: [...f.values].sort((a, b) => a - b) }));
    return {
      minutes: minute.sorted,
      hours: hour.sorted,
      daysOfMonth: dom.sorted,
      months: month.sorted,
      daysOfWeek: dow.sorted,
      dayOfMonthStar: dom.star,
      dayOfWeekStar: dow.star,
    };
  }

  /** Whether the schedule fires at this minute. */
  public matches(t: CronTime): boolean {
    const [minute, hour] = this.fields;
    return minute.values.has(t.minute) && hour.values.has(t.hour) && this.matchesDay(t);
  }

  /** Whether the schedule fires on this day at some time (its month and day fields match). */
  public matchesDay(t: Pick<CronTime, 'dayOfMonth' | 'month' | 'dayOfWeek'>): boolean {
    return this.fields[3].values.has(t.month) && this.dayMatches(t.dayOfMonth, t.dayOfWeek);
  }

  /** Whether the schedule fires in this hour of a day it fires on. */
  public matchesHour(hour: number): boolean {
    return this.fields[1].values.has(hour);
  }

  /**
   * Whether the schedule can never fire (`0 0 30 2 *`, an empty list such as `,`). robfig's
   * `SpecSchedule.Next` then returns Go's zero time, which is before every instant, so Argo
   * CD's `SyncWindow.active` (`nextWindow.Before(currentTime...)`) holds such a window active
   * for ever.
   */
  public get firesNever(): boolean {
    const [minute, hour, , month] = this.fields;
    if (minute.values.size === 0 || hour.values.size === 0) return true;
    // A star on one day field makes that field all days, so every (day, weekday) pair of a month
    // recurs; February has its 29th in a leap year, which Next's five-year search reaches.
    const lengths = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
    for (const m of month.values) {
      for (let day = 1; day <= lengths[m - 1]; day++) {
        if (DAYS.some((_, weekday) => this.dayMatches(day, weekday))) return false;
      }
    }
    return true;
  }

  /** robfig/cron spec.go `dayMatches`: a star on either day field makes both required. */
  private dayMatches(dayOfMonth: number, dayOfWeek: number): boolean {
    const [, , dom, , dow] = this.fields;
    const domMatch = dom.values.has(dayOfMonth);
    const dowMatch = dow.values.has(dayOfWeek);
    return dom.star || dow.star ? domMatch && dowMatch : domMatch || dowMatch;
  }
}

/** The schedule, or what is wrong with it (one problem per field, all fields checked). */
export function parseCron(schedule: string): CronSchedule | CronProblem {
  if (typeof schedule !== 'string' || schedule === '') {
    return { problem: 'is empty', fix: "write 5 fields (minute hour day-of-month month day-of-week), e.g. '0 0 20 12 *'" };
  }
  if (/^(CRON_)?TZ=/.test(schedule)) {
    return { problem: 'starts with a time zone, which the generated sync window cannot also carry in timeZone', fix: 'drop the TZ= prefix and set the time zone in timeZone' };
  }
  if (schedule.startsWith('@')) {
    const expanded = CronSchedule.expandDescriptor(schedule.trim());
    return {
      problem: 'is a descriptor, which Argo CD v3.5.1 refuses in a sync window (its cron parser is built without cron.Descriptor)',
      fix: expanded ? `write its 5 fields instead: ${JSON.stringify(expanded)}` : 'write 5 fields (minute hour day-of-month month day-of-week)',
    };
  }
  // strings.Fields: Go's unicode.IsSpace, which differs from JavaScript's \s in U+0085 and U+FEFF
  const fields = schedule.split(/[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+/).filter(f => f !== '');
  if (fields.length !== 5) {
    return { problem: `has ${fields.length} fields, Argo CD reads exactly 5`, fix: "write minute hour day-of-month month day-of-week, e.g. '0 0 20 12 *'" };
  }
  // parts of the one problem the schedule has (describe() words the message)
  const fieldProblems: string[] = [];
  const fixes = new Set<string>();
  const bits = fields.map((text, i) => {
    const result = parseField(text, FIELDS[i]);
    if ('problem' in result) {
      fieldProblems.push(`${FIELDS[i].name} ${JSON.stringify(text)} ${result.problem}`);
      fixes.add(result.fix);
      return { values: new Set<number>(), star: false };
    }
    return result;
  });
  if (fieldProblems.length > 0) return { problem: `is refused by Argo CD v3.5.1's cron parser: ${fieldProblems.join('; ')}`, fix: [...fixes].join('; ') };
  return CronSchedule._of(bits);
}

/** robfig/cron parser.go `getField`: a comma-separated list of ranges; empty items are dropped (`strings.FieldsFunc`). */
function parseField(text: string, bounds: Bounds): FieldBits | CronProblem {
  const values = new Set<number>();
  let star = false;
  for (const item of text.split(',').filter(x => x !== '')) {
    const range = parseRange(item, bounds);
    if ('problem' in range) return range;
    range.values.forEach(v => values.add(v));
    star = star || range.star;
  }
  return { values, star };
}

/** robfig/cron parser.go `getRange`: `*`/`?`, a number or name, `a-b`, each with an optional `/step`. */
function parseRange(item: string, bounds: Bounds): FieldBits | CronProblem {
  const rangeAndStep = item.split('/');
  const lowAndHigh = rangeAndStep[0].split('-');
  let start: number | CronProblem;
  let end: number | CronProblem;
  let star = false;
  // getRange reads `*` and `?` without looking at what follows a hyphen: `*-5` is `*`
  if (lowAndHigh[0] === '*' || lowAndHigh[0] === '?') {
    [start, end, star] = [bounds.min, bounds.max, true];
  } else {
    start = numberOrName(lowAndHigh[0], bounds);
    if (typeof start !== 'number') return start;
    if (lowAndHigh.length > 2) return { problem: `has too many hyphens in ${JSON.stringify(item)}`, fix: 'write a range as low-high, e.g. 1-5' };
    end = lowAndHigh.length === 2 ? numberOrName(lowAndHigh[1], bounds) : start;
    if (typeof end !== 'number') return end;
  }
  let step = 1;
  if (rangeAndStep.length > 2) return { problem: `has too many slashes in ${JSON.stringify(item)}`, fix: 'write one step, e.g. */15' };
  if (rangeAndStep.length === 2) {
    const parsed = integer(rangeAndStep[1]);
    if (typeof parsed !== 'number') return parsed;
    step = parsed;
    // "N/step" means "N-max/step"
    if (lowAndHigh.length === 1) end = bounds.max;
    if (step > 1) star = false;
  }
  const span = `${bounds.min}-${bounds.max}`;
  if (start < bounds.min) return { problem: `starts below ${bounds.min}`, fix: `use values ${span}` };
  if (end > bounds.max) {
    const sunday = bounds.name === 'day-of-week' && end === 7;
    return { problem: `goes above ${bounds.max}${sunday ? ' (Argo CD counts Sunday as 0 only)' : ''}`, fix: sunday ? 'use 0 for Sunday' : `use values ${span}` };
  }
  if (start > end) return { problem: `runs backwards (${start} to ${end})`, fix: 'write the lower bound first; a range cannot wrap around' };
  if (step === 0) return { problem: 'has a step of 0', fix: 'use a positive step, e.g. */15' };
  const values = new Set<number>();
  for (let n = start; n <= end; n += step) values.add(n);
  return { values, star };
}

/** robfig/cron parser.go `parseIntOrName`: a name of the field (case-insensitive), else an integer. */
function numberOrName(text: string, bounds: Bounds): number | CronProblem {
  const named = bounds.names?.indexOf(text.toLowerCase()) ?? -1;
  if (named >= 0) return named + (bounds.nameBase ?? 0);
  return integer(text, bounds.names);
}

/** robfig/cron parser.go `mustParseInt`: Go's `strconv.Atoi` (an optional `+`), never negative. */
function integer(text: string, names?: string[]): number | CronProblem {
  if (!/^\+?[0-9]+$/.test(text)) {
    return {
      problem: `has ${JSON.stringify(text)}, which is not a number${names ? ' or a name' : ''}`,
      fix: names ? `use numbers or the names ${names.join(', ')}` : 'use numbers, *, lists, ranges (a-b) and steps (*/n)',
    };
  }
  // strconv.Atoi refuses values beyond int64; the bounds of every field refuse them before
  return Number(text);
}
