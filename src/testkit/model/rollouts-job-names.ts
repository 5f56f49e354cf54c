import { ControllerFinding, finding } from './controller-finding';

const RUN_UID_LENGTH = 36;
const DNS_LIMIT = 63;
const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/**
 * Argo Rollouts v1.9.1 names the Job of a job metric's n-th measurement `<run uid>.<metric>.<n>`
 * and, past 63 characters, cuts the metric name from the end (`metricproviders/job/job.go`
 * `newJobName`; the UID has 36 characters). A cut ending in `-` is not a DNS subdomain, so
 * Kubernetes refuses the Job and the measurement errors; two metrics of one AnalysisRun cut to
 * the same text share a Job, and the second reports the first one's result. Checked for the
 * first measurement of each width of `n` up to the metric's count (a metric that measures
 * without a count: up to 100).
 */
export function checkJobNames(stage: any, metrics: any[]): ControllerFinding[] {
  const out: ControllerFinding[] = [];
  const jobs = metrics.filter((m) => m?.provider?.job && typeof m.name === 'string');
  for (const metric of jobs) {
    for (const n of measurements(metric)) {
      const stem = stemOf(metric.name, n);
      const job = `${'0'.repeat(8)}-0000-0000-0000-${'0'.repeat(12)}.${stem}.${n}`;
      if (!DNS_SUBDOMAIN.test(job)) {
        out.push(finding(stage, '/spec/verification/analysisTemplates', 'job-name-invalid',
          `job metric ${JSON.stringify(metric.name)} runs measurement ${n} as Job "<run uid>.${stem}.${n}", which is not a valid name: Kubernetes refuses the Job and the measurement errors`));
        break;
      }
      const other = jobs.find((m) => m !== metric && m.name !== metric.name && n <= countOf(m) && stemOf(m.name, n) === stem);
      if (other) {
        out.push(finding(stage, '/spec/verification/analysisTemplates', 'job-name-shared',
          `job metrics ${JSON.stringify(metric.name)} and ${JSON.stringify(other.name)} both run measurement ${n} as Job "<run uid>.${stem}.${n}": one reports the other's result`));
        break;
      }
    }
  }
  return out;
}

function stemOf(name: string, n: number): string {
  const full = RUN_UID_LENGTH + 2 + name.length + String(n).length;
  return full <= DNS_LIMIT ? name : name.slice(0, name.length - (full - DNS_LIMIT));
}

function countOf(metric: any): number {
  const count = Number(metric.count);
  if (Number.isInteger(count) && count > 0) return count;
  return metric.interval ? 100 : 1;
}

function measurements(metric: any): number[] {
  const out: number[] = [];
  for (let n = 1; n <= countOf(metric); n *= 10) out.push(n);
  return out;
}
