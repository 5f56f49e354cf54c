import { Duration } from 'cdk8s';
import { VerificationArg } from './verification-arg';

// What every kind of check shares: its kind and the common options (name, args, timing).

/**
 * What a check runs.
 */
export enum VerificationKind {
  /** An HTTP request (Argo Rollouts `web` metric). */
  HTTP = 'http',
  /** A PromQL query (Argo Rollouts `prometheus` metric). */
  PROMETHEUS = 'prometheus',
  /** A container run as a Kubernetes Job in the hub cluster (Argo Rollouts `job` metric). */
  JOB = 'job',
  /** An AnalysisTemplate or ClusterAnalysisTemplate that exists already. */
  TEMPLATE = 'template',
}

/**
 * Options common to the checks this library generates an AnalysisTemplate for.
 *
 * A check is measured `count` times, `interval` apart, and fails once more than `failureLimit`
 * measurements failed. The measurements of HTTP and Prometheus checks run on the hub, where Kargo
 * runs, and reach each cluster over the network.
 */
export interface VerificationOptions {
  /**
   * The check's name (DNS label), unique among an app's checks. It names the AnalysisTemplate
   * (`<kargo stage>-<name>`) and its metrics (`<name>-<cluster>`).
   * @default - the kind: 'http', 'prometheus' or 'job'
   */
  readonly name?: string;
  /**
   * Time between measurements (whole seconds), when `count` is more than 1.
   * @default Duration.minutes(1)
   */
  readonly interval?: Duration;
  /**
   * How many measurements are taken. Measurements that error (unreachable, timeout, non-2xx,
   * query error) are retried and not counted.
   * @default 5 for HTTP and Prometheus checks (about four minutes of watching), 1 for job checks
   */
  readonly count?: number;
  /**
   * How many measurements may fail before the check fails; less than `count`, or the check
   * could never fail. For HTTP and Prometheus checks it also bounds consecutive errors, so an
   * endpoint that stays unreachable fails the check instead of retrying forever.
   * @default 1 for HTTP and Prometheus checks (one flaky measurement is tolerated), 0 for job checks
   */
  readonly failureLimit?: number;
  /**
   * Wait before the first measurement (whole seconds). Kargo starts verification once the
   * promotion finished and the Argo CD Applications are healthy, so none is usually needed.
   * @default - 5 seconds for an HTTP or Prometheus check whose first measurement can end it
   * (`count` 1 or `failureLimit` 0): Kargo v1.11.2 misses an AnalysisRun that ends before the
   * Stage has recorded it, and the release waits up to five minutes; none otherwise
   */
  readonly initialDelay?: Duration;
  /**
   * Measure and report without affecting the verification result (Argo Rollouts `dryRun`),
   * e.g. to try a new check.
   * @default false
   */
  readonly dryRun?: boolean;
  /**
   * Arguments the check references as `{{args.<name>}}`. `{{args.stage}}` (the Kargo Stage)
   * and `{{args.project}}` (the Kargo project) are always available and must not be declared.
   * @default - none
   */
  readonly args?: Record<string, VerificationArg>;
}
