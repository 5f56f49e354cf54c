import { createHash } from 'crypto';
import { describe, show } from '../util/errors';

// Argo Rollouts v1.9.1 names the Job of a job metric's n-th measurement `<run uid>.<metric>.<n>`
// (metricproviders/job/job.go, newJobName). The run's UID has 36 characters; when the whole is
// longer than 63, the metric name is cut from the end to fit. A cut name ending in '-' makes the
// Job name an invalid DNS subdomain, so the Job is refused and every measurement errors; two
// metrics of one AnalysisRun cut to the same text get the same Job name, and the second adopts
// the first's Job (Run: AlreadyExists with the same owner), so it reports the other's result.

const RUN_UID_LENGTH = 36;
const JOB_NAME_LIMIT = 63;
/** What survives the cut of measurement 1 to 9 (up to 99: 23, and so on). */
const KEPT = JOB_NAME_LIMIT - RUN_UID_LENGTH - 3;
/** A name this long is never cut before measurement 1000. */
const NEVER_CUT = KEPT - 2;
/** Hex digits of the hash that tells cut names apart: at least this many survive any cut to 18 characters. */
const MIN_HASH = 7;

/**
 * A job metric name whose Job names stay valid and its own: `<name><suffix>` when it is never
 * cut, else the first characters of `name` and a hash of it, so that the part Argo Rollouts keeps
 * ends in a hex digit and differs from every other name's, then `suffix` (cut off in the Job name,
 * shown in the AnalysisRun), e.g. `version-aws-use1-3fa9c2d-answers-json`.
 * @internal
 */
export function jobSafeMetricName(name: string, suffix: string): string {
  if (`${name}${suffix}`.length <= NEVER_CUT) return `${name}${suffix}`;
  const head = name.slice(0, KEPT - 1 - MIN_HASH).replace(/-+$/, '');
  const hash = createHash('sha256').update(name).digest('hex').slice(0, KEPT - 1 - head.length);
  return `${head}-${hash}${suffix}`;
}

/** The part of a job metric's name that Argo Rollouts keeps in the Job name of measurement `n`. @internal */
export function jobNameStem(metricName: string, n: number): string {
  const room = JOB_NAME_LIMIT - RUN_UID_LENGTH - 2 - String(n).length;
  return metricName.length > room ? metricName.slice(0, room) : metricName;
}

/**
 * Why the Jobs of `checked` metrics would be refused or shared with another job metric of the same
 * AnalysisRun (`jobMetrics`, all the Stage's job metrics with their counts), for the first
 * `count` measurements. @internal
 */
export function jobNameProblems(checked: Array<{ name: string; count: number; owner: string; fix: string }>,
  jobMetrics: Array<{ name: string; count: number }>): string[] {
  const problems: string[] = [];
  for (const metric of checked) {
    for (const n of firstOfEachWidth(metric.count)) {
      const stem = jobNameStem(metric.name, n);
      const job = `<run uid>.${stem}.${n}`;
      const why = `Argo Rollouts keeps only the first ${stem.length} characters of a job metric's name in its Job name (metricproviders/job/job.go)`;
      if (stem.endsWith('-')) {
        problems.push(describe(`verification ${show(metric.owner)} metric ${show(metric.name)} Job name`, job, 'is refused by Kubernetes (a name part ends in "-")',
          `${why}; ${metric.fix}`));
        break;
      }
      const other = jobMetrics.find(m => m.name !== metric.name && n <= m.count && jobNameStem(m.name, n) === stem);
      if (other) {
        problems.push(describe(`verification ${show(metric.owner)} metric ${show(metric.name)} Job name`, job, `is also the Job of metric ${show(other.name)}, whose result it would report`,
          `${why}; ${metric.fix}`));
        break;
      }
    }
  }
  return problems;
}

/** 1, 10, 100, ... up to `count`: each width of measurement number cuts the name differently. */
function firstOfEachWidth(count: number): number[] {
  const out: number[] = [];
  for (let n = 1; n <= Math.max(1, count); n *= 10) out.push(n);
  return out;
}
