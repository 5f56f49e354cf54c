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

/**
 * A Go duration (`30m`, `1h`, `90s`) in the form Kubernetes stores a `metav1.Duration` field in:
 * `time.Duration.String()` (`30m0s`, `1h0m0s`, `1m30s`), which `metav1.Duration.MarshalJSON`
 * writes (k8s.io/apimachinery `pkg/apis/meta/v1/duration.go`). Kargo's defaulting webhooks decode
 * a Stage or Warehouse into its Go type and answer with the re-encoded object (controller-runtime
 * `admission.WithCustomDefaulter`, a patch from the request to `json.Marshal` of the object), so
 * any other spelling of a Kargo duration is rewritten on every apply and Argo CD sees the live
 * object differ from Git: write Kargo durations in this form.
 * @internal
 */
export function toMetaV1Duration(text: string): string {
  parseGoDuration(text);
  let ns = 0n;
  for (const part of text.matchAll(/(\d+)(?:\.(\d+))?(h|ms|m|s|us|µs|ns)/g)) {
    const unit = DURATION_NS[part[3]];
    const fraction = part[2] ?? '';
    ns += BigInt(part[1]) * unit + (BigInt(fraction || '0') * unit) / 10n ** BigInt(fraction.length);
  }
  return goDurationString(ns);
}

const DURATION_NS: Record<string, bigint> = {
  h: 3_600_000_000_000n, m: 60_000_000_000n, s: 1_000_000_000n, ms: 1_000_000n, us: 1_000n, µs: 1_000n, ns: 1n,
};

/** Go's `time.Duration.String()` of a non-negative duration in nanoseconds (go `src/time/time.go`). */
function goDurationString(ns: bigint): string {
  if (ns === 0n) return '0s';
  if (ns < 1_000_000_000n) {
    // under a second: the largest of ns, µs, ms that keeps a whole part
    const [unit, name] = ns < 1_000n ? [1n, 'ns'] : ns < 1_000_000n ? [1_000n, 'µs'] : [1_000_000n, 'ms'];
    return `${decimal(ns, unit)}${name}`;
  }
  const h = ns / 3_600_000_000_000n;
  const m = (ns / 60_000_000_000n) % 60n;
  const s = decimal(ns % 60_000_000_000n, 1_000_000_000n);
  return h > 0n ? `${h}h${m}m${s}s` : m > 0n ? `${m}m${s}s` : `${s}s`;
}

/** `value / unit` in decimal, without trailing zeros in its fraction (as Go's fmtFrac writes it). */
function decimal(value: bigint, unit: bigint): string {
  const whole = value / unit;
  const digits = unit.toString().length - 1;
  const fraction = (value % unit).toString().padStart(digits, '0').replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}` : `${whole}`;
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
