import { VerificationKind } from './check-options';
import { CheckParts, MetricBuilder, Timing } from './check-rules';
import { httpCheck, HttpVerificationOptions } from './http-check';
import { jobCheck, JobVerificationOptions } from './job-check';
import { jobSafeMetricName } from './job-names';
import { MetricOutcomes } from './metric-outcome';
import { fillPlaceholders } from './placeholders';
import { prometheusCheck, PrometheusVerificationOptions } from './prometheus-check';
import { templateCheck, TemplateVerificationOptions } from './template-check';
import { VerificationArg } from './verification-arg';
import { VerificationJobOptions } from '../fleet/verification-jobs';
import { compact } from '../util/collections';
import { describe } from '../util/errors';

/**
 * A check that Kargo runs after promoting an app to a Stage, before the Freight counts as
 * verified there and may move on. Checks that use `{cluster}` (or `{region}`, ...) are measured
 * once per cluster of the Stage; the others once per Stage.
 *
 * @see https://docs.kargo.io/user-guide/how-to-guides/verification
 *
 * @example
 * Verification.http({ name: 'health', url: 'https://api.{cluster}.acme.internal/healthz' });
 */
export class Verification {
  /**
   * An HTTP request against each cluster, e.g. a health endpoint:
   * `Verification.http({ url: 'https://api.{cluster}.example.com/healthz' })`.
   */
  public static http(options: HttpVerificationOptions): Verification {
    return new Verification(httpCheck(options), options);
  }

  /**
   * A PromQL query, usually one per cluster through a label matcher, with a threshold:
   * `Verification.prometheus({ address, query: 'sum(rate(errors{cluster="{cluster}"}[5m]))', threshold: 1, comparison: Comparison.LESS_THAN })`.
   * `noData` and `nan` say what an answer without series and a NaN sample (a ratio without
   * traffic) count as; each comparison has a documented default (an upper bound passes on both).
   */
  public static prometheus(options: PrometheusVerificationOptions): Verification {
    return new Verification(prometheusCheck(options), options);
  }

  /**
   * A container run as a Kubernetes Job in the hub cluster, e.g. a smoke test suite against
   * each cluster: `Verification.job({ image: 'ghcr.io/acme/smoke:1.4.0', containerArgs: ['--target', 'https://api.{cluster}.example.com'] })`.
   */
  public static job(options: JobVerificationOptions): Verification {
    return new Verification(jobCheck(options), options);
  }

  /**
   * An AnalysisTemplate that exists in the Kargo project namespace, or a ClusterAnalysisTemplate
   * (`clusterScoped`). Nothing is generated for it and it runs once per Stage, not per cluster;
   * its args may use `{stage}` and `{namespace}`.
   */
  public static fromTemplate(templateName: string, options: TemplateVerificationOptions = {}): Verification {
    return new Verification(templateCheck(templateName, options), { templateName, ...options });
  }

  /** What the check runs. */
  public readonly kind: VerificationKind;
  /** The check's name (the template's name for `fromTemplate()`). */
  public readonly name: string;
  /** @internal */
  public readonly _args: Record<string, VerificationArg>;
  /** The args the generated metrics substitute, built-in ones included. @internal */
  public readonly _referencedArgs: string[];
  /** Whether the check is measured once per cluster. @internal */
  public readonly _perCluster: boolean;
  /** `AnalysisTemplate` or `ClusterAnalysisTemplate`, for `fromTemplate()`. @internal */
  public readonly _templateKind: string | undefined;
  /** What a measurement counts as on no data and NaN, for Prometheus checks. @internal */
  public readonly _outcomes: MetricOutcomes | undefined;
  /** @internal */
  public readonly _problems: string[];
  private readonly build: MetricBuilder | undefined;
  private readonly companion: CheckParts['companion'];
  private readonly timing: Timing | undefined;
  /** What the factory was given, as the user wrote it: the constructs' walk for credentials reads it. @internal */
  public readonly _options: unknown;

  private constructor(parts: CheckParts, options: unknown) {
    this._options = options;
    this.kind = parts.kind;
    this.name = parts.name;
    this._args = parts.args;
    this._referencedArgs = parts.referencedArgs;
    this._perCluster = parts.perCluster;
    this.build = parts.build;
    this.companion = parts.companion;
    this.timing = parts.timing;
    this._templateKind = parts.templateKind;
    this._outcomes = parts.outcomes;
    this._problems = parts.problems;
  }

  /**
   * The metrics of one cluster (or of the Stage), placeholders filled from `values`: the check's
   * metric and, for an HTTP check with a condition, its JSON guard, measured on the same schedule.
   * @internal
   */
  public _renderMetrics(metricName: string, values: Record<string, string>, labels: Record<string, string>,
    jobs?: VerificationJobOptions): any[] {
    if (!this.build || !this.timing) throw new Error(describe('verification', this.name, 'is a template reference and has no metric'));
    const t = this.timing;
    const fill = (text: string) => fillPlaceholders(text, values);
    const timed = (name: string, body: Record<string, unknown>) => compact({
      name,
      initialDelay: t.initialDelay,
      interval: t.count > 1 ? t.interval : undefined,
      count: t.count,
      failureLimit: t.failureLimit,
      consecutiveErrorLimit: t.consecutiveErrorLimit,
      ...body,
    });
    const body = this.build(fill, labels, jobs);
    // a job metric's name is cut in its Job's name (job-names.ts): keep the kept part valid and its own
    const isJob = (body.provider as { job?: unknown } | undefined)?.job !== undefined;
    const metrics = [timed(isJob ? jobSafeMetricName(metricName, '') : metricName, body)];
    if (this.companion) metrics.push(timed(this.companion.name(metricName), this.companion.build(fill, labels, jobs)));
    return metrics;
  }

  /** @internal */
  public get _dryRun(): boolean {
    return this.timing?.dryRun ?? false;
  }
}
