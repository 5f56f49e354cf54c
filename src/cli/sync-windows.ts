/**
 * Argo CD sync windows, evaluated the way the application controller does: a window is active
 * from each time its cron schedule fires (in its time zone) for its duration, and applies to an
 * Application when one of its applications / namespaces / clusters globs matches (all of the
 * non-empty lists with `andOperator`).
 *
 * Upstream: argo-cd pkg/apis/application/v1alpha1/types.go (SyncWindow.Active, SyncWindow.Matches,
 * SyncWindows.Matches), which parse schedules with robfig/cron built without descriptors (see
 * ../util/cron) and durations with Go's time.ParseDuration.
 */

import { CronSchedule, CronTime, DAYS } from '../util/cron';
import { parseGoDuration } from '../util/duration';

export { CronSchedule } from '../util/cron';
export type { CronTime } from '../util/cron';

/** One `spec.syncWindows[]` entry of an AppProject. */
export interface SyncWindow {
  readonly kind?: string;
  readonly schedule?: string;
  readonly duration?: string;
  readonly timeZone?: string;
  readonly applications?: string[];
  readonly namespaces?: string[];
  readonly clusters?: string[];
  readonly andOperator?: boolean;
  readonly manualSync?: boolean;
  readonly description?: string;
}

/** An Argo CD Application a window may apply to. */
export interface WindowTarget {
  /** The Application's name. */
  readonly application: string;
  /** The destination namespace. */
  readonly namespace: string;
  /** Names the destination cluster goes by (cluster name, destination name or server URL). */
  readonly clusters: string[];
}


// building a formatter costs far more than using one: a window of days checks thousands of minutes
const FORMATS = new Map<string, Intl.DateTimeFormat>();

/** The parts of an instant on a time zone's wall clock, with a formatter cached per zone and shape. */
function wallParts(instant: Date, timeZone: string, seconds: boolean): Intl.DateTimeFormatPart[] {
  const key = `${timeZone}\n${seconds}`;
  let format = FORMATS.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      ...seconds ? { second: 'numeric' } : { weekday: 'short' },
    });
    FORMATS.set(key, format);
  }
  return format.formatToParts(instant);
}

/** The wall-clock fields of an instant in an IANA time zone (UTC when not given). */
export function wallClock(instant: Date, timeZone: string = 'UTC'): CronTime {
  const parts = wallParts(instant, timeZone, false);
  const part = (type: string) => parts.find((p) => p.type === type)!.value;
  return {
    minute: Number(part('minute')),
    hour: Number(part('hour')),
    dayOfMonth: Number(part('day')),
    month: Number(part('month')),
    dayOfWeek: DAYS.indexOf(part('weekday').toLowerCase().slice(0, 3)),
  };
}

/** When an active window opened and when it closes. */
export interface ActiveWindow {
  readonly start: Date;
  readonly end: Date;
}

/** Go's zero time, which robfig/cron's `SpecSchedule.Next` returns for a schedule that never fires. */
const GO_ZERO_TIME = new Date('0001-01-01T00:00:00Z');
/** The latest instant a JavaScript Date holds. */
const END_OF_TIME = new Date(8.64e15);

/**
 * The occurrence of a window that is active at `now`, if any, as Argo CD v3.5.1 computes it
 * (`SyncWindow.active`): `now` is shifted by the zone's offset at `now`
 * (`scheduleOffsetByTimeZone`) and the schedule runs on that shifted clock as UTC (the
 * controller's `time.Local`); the window is active when a firing `f` lies in
 * `(shifted - duration, shifted]`. Across a daylight saving change this differs from reading
 * every past instant in the zone, and it is what Argo CD does. A schedule that never fires is
 * active from Go's zero time for ever (`schedule.Next(...)` is the zero time, `Before` every
 * instant).
 * @throws when the schedule, duration or time zone is invalid
 */
export function activeOccurrence(window: SyncWindow, now: Date): ActiveWindow | undefined {
  const schedule = CronSchedule.parse(window.schedule ?? '');
  const duration = parseGoDuration(window.duration ?? '');
  const timeZone = window.timeZone || 'UTC';
  // an unknown zone throws here rather than silently using UTC
  new Intl.DateTimeFormat('en-US', { timeZone });
  if (schedule.firesNever) return { start: GO_ZERO_TIME, end: END_OF_TIME };
  const minute = 60_000;
  const offset = zoneOffset(now, timeZone);
  const wall = now.getTime() + offset;
  // minute by minute back from now, skipping the days and hours the schedule does not fire in
  for (let t = Math.floor(wall / minute) * minute; t > wall - duration;) {
    const d = new Date(t);
    const fields = {
      minute: d.getUTCMinutes(), hour: d.getUTCHours(), dayOfMonth: d.getUTCDate(), month: d.getUTCMonth() + 1, dayOfWeek: d.getUTCDay(),
    };
    if (!schedule.matchesDay(fields)) {
      t = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()) - minute;
    } else if (!schedule.matchesHour(fields.hour)) {
      t -= (fields.minute + 1) * minute;
    } else if (schedule.matches(fields)) {
      return { start: new Date(t - offset), end: new Date(t - offset + duration) };
    } else {
      t -= minute;
    }
  }
  return undefined;
}

/** The zone's offset from UTC at an instant, in milliseconds (Go's `Time.Zone()` offset). */
function zoneOffset(instant: Date, timeZone: string): number {
  const parts = wallParts(instant, timeZone, true);
  const part = (type: string) => Number(parts.find((p) => p.type === type)!.value);
  const wall = Date.UTC(part('year'), part('month') - 1, part('day'), part('hour'), part('minute'), part('second'));
  return wall - Math.floor(instant.getTime() / 1000) * 1000;
}

/** Whether a glob (`*`, `?`) matches a name, as Argo CD's glob.Match does. */
export function globMatches(pattern: string, name: string): boolean {
  const regex = pattern.split('').map((c) => (c === '*' ? '.*' : c === '?' ? '.' : c.replace(/[\\^$.|+()[\]{}]/g, '\\$&'))).join('');
  return new RegExp(`^${regex}$`).test(name);
}

/** Whether a window applies to an Application. */
export function windowApplies(window: SyncWindow, target: WindowTarget): boolean {
  const checks: boolean[] = [];
  if (window.applications?.length) {
    checks.push(window.applications.some((p) => globMatches(p, target.application)));
  }
  if (window.namespaces?.length) {
    checks.push(window.namespaces.some((p) => globMatches(p, target.namespace)));
  }
  if (window.clusters?.length) {
    checks.push(window.clusters.some((p) => target.clusters.some((c) => globMatches(p, c))));
  }
  if (checks.length === 0) return false;
  return window.andOperator ? checks.every(Boolean) : checks.some(Boolean);
}
