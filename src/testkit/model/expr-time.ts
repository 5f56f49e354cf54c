/**
 * Go's time values as expr-lang v1.17.8 hands them to expressions: the builtins `now`,
 * `timezone`, `date` and `duration` (`builtin/builtin.go`), `time.Time.Format`, and the operators
 * on times and durations (`vm/runtime/helpers[generated].go` `Add`, `Subtract`, `Multiply`,
 * `Less`...; `checker/checker.go`). Only the forms the generated expressions use are modelled;
 * any other form throws, so a new use shows up in the tests instead of being evaluated wrongly.
 */

/** Thrown for an expression Go would refuse, or a form the model does not know. */
export class TimeError extends Error {}

/** A `*time.Location`. Kargo's container has no TZ, so `time.Local` is UTC. */
export class GoLocation {
  constructor(public readonly name: string) {}
}

/** A `time.Time`: an instant, and the location its wall clock is read in. */
export class GoTime {
  constructor(public readonly ms: number, public readonly zone: string = 'UTC') {}

  /** `time.Time.Format` for the layout elements 2006 01 02 15 04 05 1 2 Mon Jan. */
  public format(layout: unknown): string {
    if (typeof layout !== 'string') throw new TimeError(`invalid argument for Format (type ${typeof layout})`);
    const w = wallClock(this.ms, this.zone);
    const pad = (n: number) => String(n).padStart(2, '0');
    const values: Record<string, string> = {
      '2006': String(w.year).padStart(4, '0'),
      '01': pad(w.month),
      '02': pad(w.day),
      '15': pad(w.hour),
      '04': pad(w.minute),
      '05': pad(w.second),
      '1': String(w.month),
      '2': String(w.day),
      'Mon': WEEKDAYS[w.weekday],
      'Jan': MONTHS[w.month - 1],
    };
    return layoutElements(layout).map(e => (e.element ? values[e.element] : e.text)).join('');
  }
}

/** A `time.Duration`, in nanoseconds (exact for the whole minutes and seconds the expressions use). */
export class GoDuration {
  constructor(public readonly ns: number) {}
}

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/**
 * A layout split like Go's `nextStdChunk` (time/format.go) for the elements modelled; an element
 * Go knows and the model does not (`Monday`, `MST`, `-07:00`, `PM`, `_2`, `3`, fractions) throws.
 */
function layoutElements(layout: string): Array<{ element?: string; text?: string }> {
  const out: Array<{ element?: string; text?: string }> = [];
  const unmodelled = /^(January|Monday|MST|-07|Z07|PM|pm|_2|__2|002|03|3|4|5|06|[.,][09])/;
  let i = 0;
  while (i < layout.length) {
    const rest = layout.slice(i);
    const known = /^(2006|01|02|15|04|05|Mon|Jan|1|2)/.exec(rest);
    const other = unmodelled.exec(rest);
    // Go reads the longest element: `Monday` is not `Mon` followed by `day`
    if (other && !(known && known[1].length >= other[1].length)) {
      throw new TimeError(`layout element ${JSON.stringify(other[1])} of ${JSON.stringify(layout)} is not modelled`);
    }
    if (known) {
      out.push({ element: known[1] });
      i += known[1].length;
    } else {
      out.push({ text: layout[i] });
      i++;
    }
  }
  return out;
}

// building a formatter costs far more than using one
const FORMATS = new Map<string, Intl.DateTimeFormat>();

function wallClock(ms: number, zone: string) {
  const d = new Date(ms);
  if (zone === 'UTC' || zone === 'Local') {
    return {
      year: d.getUTCFullYear(),
      month: d.getUTCMonth() + 1,
      day: d.getUTCDate(),
      hour: d.getUTCHours(),
      minute: d.getUTCMinutes(),
      second: d.getUTCSeconds(),
      weekday: d.getUTCDay(),
    };
  }
  let format = FORMATS.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: zone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric', weekday: 'short',
    });
    FORMATS.set(zone, format);
  }
  const parts = format.formatToParts(d);
  const part = (type: string) => parts.find(p => p.type === type)!.value;
  return {
    year: Number(part('year')),
    month: Number(part('month')),
    day: Number(part('day')),
    hour: Number(part('hour')),
    minute: Number(part('minute')),
    second: Number(part('second')),
    weekday: WEEKDAYS.indexOf(part('weekday')),
  };
}

/** `timezone(name)`: `time.LoadLocation`. */
export function timezone(name: unknown): GoLocation {
  if (typeof name !== 'string') throw new TimeError(`invalid argument for timezone (type ${typeof name})`);
  if (name === '' || name === 'UTC') return new GoLocation('UTC');
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
  } catch {
    throw new TimeError(`unknown time zone ${name}`);
  }
  return new GoLocation(name);
}

/** `now()` / `now(tz)` at the model's clock. */
export function nowAt(clock: Date, args: unknown[]): GoTime {
  if (args.length === 0) return new GoTime(clock.getTime(), 'Local');
  if (args.length === 1 && args[0] instanceof GoLocation) return new GoTime(clock.getTime(), args[0].name);
  throw new TimeError(`invalid number of arguments (expected 0, got ${args.length})`);
}

/** `date(text)` (its first two layouts) and `date(text, layout)`: `time.Parse`, in UTC. */
export function date(...args: unknown[]): GoTime {
  if (args.some(a => typeof a !== 'string') || args.length === 0 || args.length > 2) {
    throw new TimeError('date() with a location or a time zone is not modelled');
  }
  const [text, layout] = args as string[];
  if (layout !== undefined) return parse(layout, text);
  for (const l of ['2006-01-02', '15:04:05', '2006-01-02 15:04:05']) {
    try {
      return parse(l, text);
    } catch {
      // the builtin tries the next layout
    }
  }
  throw new TimeError(`date(${JSON.stringify(text)}) is not modelled beyond its first three layouts`);
}

/** `time.Parse` for the numeric layout elements. */
function parse(layout: string, text: string): GoTime {
  const v: Record<string, number> = { '2006': 0, '01': 1, '02': 1, '15': 0, '04': 0, '05': 0 };
  let rest = text;
  for (const e of layoutElements(layout)) {
    if (e.text !== undefined) {
      if (!rest.startsWith(e.text)) throw new TimeError(`parsing time ${JSON.stringify(text)} as ${JSON.stringify(layout)}: cannot parse`);
      rest = rest.slice(e.text.length);
      continue;
    }
    // stdHour reads one or two digits, the zero-padded elements exactly their width
    const width = e.element === '2006' ? /^\d{4}/ : e.element === '15' ? /^\d{1,2}/ : e.element! in v ? /^\d{2}/ : undefined;
    const m = width?.exec(rest);
    if (!m) throw new TimeError(`parsing time ${JSON.stringify(text)} as ${JSON.stringify(layout)}: element ${e.element} is not modelled or does not match`);
    v[e.element!] = Number(m[0]);
    rest = rest.slice(m[0].length);
  }
  if (rest !== '') throw new TimeError(`parsing time ${JSON.stringify(text)}: extra text: ${JSON.stringify(rest)}`);
  const [year, month, day, hour, minute, second] = ['2006', '01', '02', '15', '04', '05'].map(k => v[k]);
  const ms = Date.UTC(year, month - 1, day, hour, minute, second);
  if (month < 1 || month > 12 || new Date(ms).getUTCDate() !== day || hour > 23 || minute > 59 || second > 59) {
    throw new TimeError(`parsing time ${JSON.stringify(text)}: value out of range`);
  }
  return new GoTime(ms, 'UTC');
}

const UNITS: Record<string, number> = { ns: 1, us: 1e3, µs: 1e3, ms: 1e6, s: 1e9, m: 60e9, h: 3600e9 };

/** `duration(text)`: `time.ParseDuration`. */
export function duration(text: unknown): GoDuration {
  if (typeof text !== 'string') throw new TimeError(`invalid argument for duration (type ${typeof text})`);
  if (text === '0') return new GoDuration(0);
  const m = /^([-+]?)((?:\d+(?:\.\d*)?|\.\d+)(?:ns|us|µs|ms|s|m|h))+$/.exec(text);
  if (!m) throw new TimeError(`time: invalid duration ${JSON.stringify(text)}`);
  let ns = 0;
  for (const part of text.matchAll(/(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|ms|s|m|h)/g)) ns += Number(part[1]) * UNITS[part[2]];
  return new GoDuration(m[1] === '-' ? -ns : ns);
}

/** The operators on times and durations; undefined when neither operand is one. */
export function timeOperation(op: string, a: unknown, b: unknown): unknown {
  const isTime = (x: unknown): x is GoTime => x instanceof GoTime;
  const isDur = (x: unknown): x is GoDuration => x instanceof GoDuration;
  if (!isTime(a) && !isTime(b) && !isDur(a) && !isDur(b)) return undefined;
  const int = (x: unknown): x is number => typeof x === 'number' && Number.isInteger(x);
  switch (op) {
    case '+':
      if (isTime(a) && isDur(b)) return new GoTime(a.ms + b.ns / 1e6, a.zone);
      if (isDur(a) && isTime(b)) return new GoTime(b.ms + a.ns / 1e6, b.zone);
      if (isDur(a) && isDur(b)) return new GoDuration(a.ns + b.ns);
      break;
    case '-':
      if (isTime(a) && isDur(b)) return new GoTime(a.ms - b.ns / 1e6, a.zone);
      if (isTime(a) && isTime(b)) return new GoDuration((a.ms - b.ms) * 1e6);
      if (isDur(a) && isDur(b)) return new GoDuration(a.ns - b.ns);
      break;
    case '*':
      if (int(a) && isDur(b)) return new GoDuration(a * b.ns);
      if (isDur(a) && int(b)) return new GoDuration(a.ns * b);
      break;
    case '<': case '>': case '<=': case '>=': {
      const pair = isTime(a) && isTime(b) ? [a.ms, b.ms] : isDur(a) && isDur(b) ? [a.ns, b.ns] : undefined;
      if (!pair) break;
      const [x, y] = pair;
      return op === '<' ? x < y : op === '>' ? x > y : op === '<=' ? x <= y : x >= y;
    }
  }
  throw new TimeError(`invalid operation: ${goType(a)} ${op} ${goType(b)}`);
}

function goType(x: unknown): string {
  return x instanceof GoTime ? 'time.Time' : x instanceof GoDuration ? 'time.Duration' : typeof x;
}
