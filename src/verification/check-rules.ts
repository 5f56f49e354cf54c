import { Duration } from 'cdk8s';
import { VerificationKind, VerificationOptions } from './check-options';
import { MetricOutcomes } from './metric-outcome';
import { BUILT_IN_ARGS, checkText, fillPlaceholders, replaceRolloutsTags, SYNTH_PLACEHOLDERS } from './placeholders';
import { VerificationArg } from './verification-arg';
import { VerificationJobOptions } from '../fleet/verification-jobs';
import { call, field as fieldOf, fieldText, hint, num, prop } from '../util/code-hint';
import { toGoDuration } from '../util/duration';
import { describe, show, within } from '../util/errors';
import { dns1123LabelProblem } from '../util/names';
import { urlDefect } from '../util/urls';

/** The name of the soak metric in its Stage's template (`<kargoStage>-verification`), and of its check. @internal */
export const SOAK_CHECK_NAME = 'soak';

// The rules every kind of check applies: common options (name, args, timing) and text that ends
// up in plain sight (URLs, headers, env values). Internal: not re-exported.

/** When and how often a check measures. @internal */
export interface Timing {
  readonly interval?: string;
  readonly initialDelay?: string;
  readonly count: number;
  readonly failureLimit: number;
  readonly consecutiveErrorLimit?: number;
  readonly dryRun: boolean;
}

/** @internal */
export interface KindDefaults {
  readonly count: number;
  readonly failureLimit: number;
  /** Whether errors count against `failureLimit` (see VerificationOptions.failureLimit). */
  readonly boundErrors: boolean;
  /**
   * Whether a measurement ends in the reconcile that takes it (an HTTP request, a query), so
   * that a run can end before Kargo has recorded it (FIRST_MEASUREMENT_DELAY); a Job's lasts the Job.
   */
  readonly measuredAtOnce: boolean;
}

/**
 * Builds a check's metric from its text, placeholders filled by `fill`; `jobs` is how the fleet
 * runs verification Jobs on the hub.
 * @internal
 */
export type MetricBuilder = (fill: (text: string) => string, labels: Record<string, string>,
  jobs: VerificationJobOptions | undefined) => Record<string, unknown>;

/** What a check factory resolves: everything the Verification holds. @internal */
export interface CheckParts {
  readonly kind: VerificationKind;
  readonly name: string;
  readonly args: Record<string, VerificationArg>;
  /** The args the generated metrics substitute, built-in ones included. */
  readonly referencedArgs: string[];
  /** Whether the check is measured once per cluster. */
  readonly perCluster: boolean;
  readonly build: MetricBuilder | undefined;
  /**
   * A second metric measured with the same timing, named after the check's metric, which must
   * pass too: the JSON guard of an HTTP check.
   */
  readonly companion?: { readonly name: (metricName: string) => string; readonly build: MetricBuilder };
  readonly timing: Timing | undefined;
  /** `AnalysisTemplate` or `ClusterAnalysisTemplate`, for template references. */
  readonly templateKind: string | undefined;
  /** What a measurement counts as on no data and NaN, for Prometheus checks. */
  readonly outcomes?: MetricOutcomes;
  readonly problems: string[];
}

const DEFAULT_INTERVAL = Duration.minutes(1);
/**
 * The wait before the first measurement of a probe that measurement can end (count 1, or
 * failureLimit 0). Kargo v1.11.2 requeues a verifying Stage only on its AnalysisRun's update
 * event, and finds the Stage by an index on the Stage's status, which it writes after it created
 * the run (pkg/controller/stages/event_handlers.go stageEnqueuerForAnalysisRuns.Update,
 * pkg/indexer/indexer.go StagesByAnalysisRun, regular_stages.go verifyStageFreight): a run that
 * ends first is dropped, and the Stage stays "pending verification" until its periodic reconcile
 * five minutes later. The e2e runs saw it three times, with a probe that fails at once.
 */
const FIRST_MEASUREMENT_DELAY = Duration.seconds(5);
/** @internal */
export const PROBE_DEFAULTS: KindDefaults = { count: 5, failureLimit: 1, boundErrors: true, measuredAtOnce: true };
/** @internal */
export const JOB_DEFAULTS: KindDefaults = { count: 1, failureLimit: 0, boundErrors: false, measuredAtOnce: false };
const ARG_NAME = /^[A-Za-z][A-Za-z0-9_-]*$/;
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const SECRET_LOOKING_HEADER = /(authorization|cookie|token|secret|passw(or)?d|api[-_]?key|credential|private[-_]?key|session)/i;
const CREDENTIAL_VALUE = /^\s*(bearer|basic|token|digest)\s+\S{8,}/i;
const SECRET_REFERENCE = /^\s*(?:[A-Za-z][\w-]*\s+)?\{\{\s*args\.([^}\s]+)\s*\}\}\s*$/;

/** @internal */
export interface CommonOptions {
  readonly name: string;
  readonly args: Record<string, VerificationArg>;
  readonly declared: Set<string>;
  readonly timing: Timing;
}

/** @internal */
export function commonOptions(kind: VerificationKind, options: VerificationOptions | undefined, defaults: KindDefaults,
  problems: string[]): CommonOptions {
  const name = options?.name ?? kind;
  const nameProblem = dns1123LabelProblem(`${name}`);
  if (nameProblem) problems.push(describe(fieldOf(kind, 'check', prop('name')), name, nameProblem, 'use e.g. "health"'));
  if (name === SOAK_CHECK_NAME) {
    problems.push(describe(fieldOf(kind, 'check', prop('name')), name, 'is reserved for the metric that waits a soak (a dry-run metric: a check of that name would not gate)',
      'name the check after what it checks, e.g. "soak-probe" or "health"'));
  }
  const args = { ...options?.args ?? {} };
  for (const [argName, arg] of Object.entries(args)) {
    checkArgName(problems, argName, true);
    for (const p of arg?._problems ?? []) problems.push(within(`${fieldText(prop('args'))}.${argName}`, p));
  }
  const count = options?.count ?? defaults.count;
  const countOk = Number.isInteger(count) && count >= 1;
  if (!countOk) problems.push(describe(fieldOf(kind, prop('count')), count, 'must be a whole number of at least 1'));
  const failureLimit = options?.failureLimit ?? defaults.failureLimit;
  if (!(Number.isInteger(failureLimit) && failureLimit >= 0)) {
    problems.push(describe(fieldOf(kind, prop('failureLimit')), failureLimit, 'must be a whole number of at least 0'));
  } else if (countOk && failureLimit >= count) {
    problems.push(describe(fieldOf(kind, prop('failureLimit')), failureLimit, `must be less than count (${count})`, 'otherwise the check can never fail'));
  }
  const interval = seconds(problems, fieldText(fieldOf(kind, prop('interval'))), options?.interval ?? DEFAULT_INTERVAL);
  const firstEnds = defaults.measuredAtOnce && (count === 1 || failureLimit === 0);
  const initialDelay = seconds(problems, fieldText(fieldOf(kind, prop('initialDelay'))),
    options?.initialDelay ?? (firstEnds ? FIRST_MEASUREMENT_DELAY : undefined));
  return {
    name: `${name}`,
    args,
    declared: new Set(Object.keys(args)),
    timing: {
      interval: interval !== undefined ? toGoDuration(Duration.seconds(interval)) : undefined,
      initialDelay: initialDelay !== undefined ? toGoDuration(Duration.seconds(initialDelay)) : undefined,
      count,
      failureLimit,
      consecutiveErrorLimit: defaults.boundErrors ? failureLimit : undefined,
      dryRun: options?.dryRun ?? false,
    },
  };
}

/** @internal */
export function checkArgName(problems: string[], name: string, generated: boolean) {
  if (!ARG_NAME.test(name)) {
    problems.push(describe('arg name', name, "must start with a letter and consist of letters, digits, '_' and '-'"));
  }
  if (generated && BUILT_IN_ARGS[name] !== undefined) {
    problems.push(describe('arg name', name, `is built in ({{args.${name}}} is always the Kargo ${name})`, hint`remove it from ${prop('args')}, or pick another name`));
  }
}

/** Header names and values; credentials only as a reference to a Secret arg. @internal */
export function checkHeaders(problems: string[], kind: string, headers: Array<[string, string]>, common: CommonOptions): string[] {
  const refs: string[] = [];
  for (const [key, value] of headers) {
    const field = `${kind} header ${show(key)}`;
    if (!HEADER_NAME.test(key)) problems.push(describe(`${kind} header name`, key, 'is not a valid HTTP header name'));
    const looksSecret = SECRET_LOOKING_HEADER.test(key) || CREDENTIAL_VALUE.test(value);
    const reference = SECRET_REFERENCE.exec(value)?.[1];
    if (looksSecret && !(reference !== undefined && common.args[reference]?.isSecret)) {
      const problem = credentialProblem(field, reference, common,
        `headers: { '${key}': 'Bearer {{args.token}}' } with args: { token: VerificationArg.fromSecret('<secret>', '<key>') }`);
      if (problem) {
        problems.push(problem);
        continue;
      }
    }
    refs.push(...checkText(problems, field, value, common.declared));
  }
  return refs;
}

/**
 * Why a credential-looking header or env value is refused, never showing the value (it may be
 * the credential). Undefined when it references an undeclared arg: that problem is reported
 * on its own and is the one to fix.
 * @internal
 */
export function credentialProblem(field: string, reference: string | undefined, common: CommonOptions, example: string): string | undefined {
  if (reference !== undefined && !common.declared.has(reference) && BUILT_IN_ARGS[reference] === undefined) return undefined;
  if (reference !== undefined) {
    return `${field} looks like a credential but {{args.${reference}}} does not come from a Secret; declare it with VerificationArg.fromSecret('<secret>', '<key>')`;
  }
  return `${field} looks like a credential, got a literal value; put it in a Kubernetes Secret in the project namespace: ${example}`;
}

/** Checks a text that ends up in plain sight and returns the args it references; secret args are refused there. @internal */
export function publicText(problems: string[], field: string, text: string, common: CommonOptions, why: string): string[] {
  const refs = checkText(problems, field, text, common.declared);
  for (const name of refs) {
    if (common.args[name]?.isSecret) {
      problems.push(describe(field, `{{args.${name}}}`, 'references a secret argument', `secrets may only be used in headers (or a whole job env value): ${why}`));
    }
  }
  return refs;
}

/** @internal */
/** Why a container image reference cannot be pulled as written, or undefined. */
export function imageReferenceProblem(image: string): string | undefined {
  return image.trim() === '' || /\s/.test(image) ? 'must be an image reference without spaces' : undefined;
}

export function checkUrl(problems: string[], field: string, url: string) {
  // Placeholders stand for host names and path segments: probe with a plain word in their place.
  const probe = fillPlaceholders(replaceRolloutsTags(url, 'x'), Object.fromEntries(SYNTH_PLACEHOLDERS.map(p => [p, 'x'])));
  const defect = urlDefect(probe, { schemes: ['http:', 'https:'] });
  if (defect === 'not-a-url' || defect === 'scheme') {
    problems.push(describe(field, url, 'must be an http:// or https:// URL'));
  } else if (defect === 'credentials') {
    problems.push(describe(field, '<a URL with user info>', 'must not carry credentials', hint`use a header with a ${call('VerificationArg', 'fromSecret')} arg`, String));
  }
}

/** Whole seconds of a duration, or undefined (with a problem) when it has none. @internal */
export function seconds(problems: string[], field: string, duration: Duration | undefined): number | undefined {
  if (duration === undefined) return undefined;
  const ms = typeof duration?.toMilliseconds === 'function' ? duration.toMilliseconds() : NaN;
  if (!(Number.isFinite(ms) && ms > 0 && ms % 1000 === 0)) {
    problems.push(describe(field, Number.isFinite(ms) ? `${ms / 1000}s` : String(duration), 'must be a positive whole number of seconds', hint`use e.g. ${call('Duration', 'seconds', num(30))}`));
    return undefined;
  }
  return ms / 1000;
}

/** @internal */
export function entries(record: Record<string, string> | undefined): Array<[string, string]> {
  return Object.entries(record ?? {}).map(([k, v]) => [k, `${v}`]);
}

/** @internal */
export function unique(values: string[]): string[] {
  return [...new Set(values)].sort();
}

/** @internal */
export function argNameFor(envName: string): string {
  return envName.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '') || 'secret';
}

/** A URL that ends up in plain sight: checks its text and its form, returns the args it references. @internal */
export function publicUrl(problems: string[], field: string, url: string, common: CommonOptions, why: string): string[] {
  const refs = publicText(problems, field, url, common, why);
  checkUrl(problems, field, url);
  return refs;
}

/** The parts of a check whose metric this library generates. @internal */
export function generatedCheck(kind: VerificationKind, common: CommonOptions, refs: string[], perCluster: boolean, build: MetricBuilder,
  problems: string[], companion?: CheckParts['companion']): CheckParts {
  return {
    kind,
    name: common.name,
    args: common.args,
    referencedArgs: unique(refs),
    perCluster,
    build,
    companion,
    timing: common.timing,
    templateKind: undefined,
    problems,
  };
}
