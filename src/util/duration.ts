import { Duration } from 'cdk8s';
import { describe } from './errors';

/**
 * Renders a duration the way Kargo and Argo expect it (`1h30m`, `45s`), matching
 * `^([0-9]+(\.[0-9]+)?(s|m|h))+$`.
 * @internal
 */
export function toGoDuration(duration: Duration): string {
  const total = duration.toSeconds();
  if (!Number.isInteger(total) || total <= 0) {
    throw new Error(describe('duration', `${total}s`, 'must be a positive whole number of seconds'));
  }
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  return `${h ? `${h}h` : ''}${m ? `${m}m` : ''}${s ? `${s}s` : ''}`;
}

const MAX_GO_DURATION_MS = 9_223_372_036_854.775807;

const DURATION_UNITS: Record<string, number> = { h: 3_600_000, m: 60_000, s: 1_000, ms: 1, us: 0.001, µs: 0.001, ns: 0.000001 };

/**
 * Parses a Go duration (`1h`, `90m`, `1h30m`) into milliseconds, as `time.ParseDuration` accepts it
 * (the plan and the command line read back the durations the output holds).
 * @throws when it does not parse
 */
export function parseGoDuration(text: string): number {
  const match = /^((\d+(\.\d+)?)(h|ms|m|s|us|µs|ns))+$/.test(text);
  if (!match) {
    throw new Error(describe('duration', text, 'is not a Go duration', 'use e.g. 1h or 90m'));
  }
  let ms = 0;
  for (const part of text.matchAll(/(\d+(?:\.\d+)?)(h|ms|m|s|us|µs|ns)/g)) {
    ms += Number(part[1]) * DURATION_UNITS[part[2]];
  }
  // Go durations are int64 nanoseconds: time.ParseDuration refuses a longer one ("invalid duration"),
  // so Argo CD refuses such a window and Kargo such a field (conformance/property-values.ts found
  // the CLI taking one)
  if (ms > MAX_GO_DURATION_MS) {
    throw new Error(describe('duration', text, 'is longer than a Go duration can be (2562047h47m16.854775807s)'));
  }
  return ms;
}
