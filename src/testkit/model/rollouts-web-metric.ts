import { ControllerFinding, finding } from './controller-finding';

/**
 * Argo Rollouts v1.9.1 `metricproviders/webmetric/webmetric.go` `parseResponse`: a 2xx answer
 * whose body is not JSON is returned as Successful before `successCondition` or
 * `failureCondition` is evaluated, so a check with a real condition passes whenever the endpoint
 * answers plain text (an error page, a proxy's 200). A condition that is literally `true` checks
 * only the status code and is not affected.
 *
 * A web metric is guarded when the same template has a job metric that makes the same request
 * and fails unless the answer is JSON (a Job that fails is a Failed measurement,
 * `metricproviders/job/job.go` `Resume`), measured on the same schedule: its container's env
 * `CHECK_URL` and `CHECK_METHOD` equal the web metric's url and method (what
 * `Verification.http()` emits as `<metric>-answers-json`). The AnalysisRun then passes only if
 * both do.
 */
export function checkWebMetrics(objects: any[]): ControllerFinding[] {
  const out: ControllerFinding[] = [];
  for (const obj of objects) {
    if (obj?.kind !== 'AnalysisTemplate' && obj?.kind !== 'ClusterAnalysisTemplate') continue;
    const metrics: any[] = Array.isArray(obj.spec?.metrics) ? obj.spec.metrics : [];
    metrics.forEach((metric: any, i: number) => {
      if (!metric?.provider?.web) return;
      const conditions = [['successCondition', metric.successCondition], ['failureCondition', metric.failureCondition]]
        .filter(([, c]) => typeof c === 'string' && c.trim() !== '' && c.trim() !== 'true' && c.trim() !== 'false');
      if (conditions.length === 0 || metrics.some((other) => guards(other, metric))) return;
      for (const [field, condition] of conditions) {
        out.push(finding(obj, `/spec/metrics/${i}/${field}`, 'web-metric-non-json-passes',
          `web metric ${JSON.stringify(metric.name)} checks ${field} ${JSON.stringify(condition)}, but an answer that is not JSON is counted Successful without evaluating it: a plain-text answer from ${JSON.stringify(metric.provider.web.url)} always passes`
          + ' (no job metric of the template makes the same request on the same schedule and fails on a non-JSON answer)'));
      }
    });
  }
  return out;
}

const SCHEDULE = ['initialDelay', 'interval', 'count', 'failureLimit', 'consecutiveErrorLimit'];

/** Whether `job` is a job metric requesting the web metric's url with its method, on its schedule. */
function guards(job: any, web: any): boolean {
  if (!job?.provider?.job || job === web) return false;
  const containers: any[] = job.provider.job.spec?.template?.spec?.containers ?? [];
  const env = new Map<string, unknown>((containers[0]?.env ?? []).map((e: any) => [e?.name, e?.value]));
  return env.get('CHECK_URL') === web.provider.web.url
    && env.get('CHECK_METHOD') === (web.provider.web.method ?? 'GET')
    && SCHEDULE.every((field) => String(job[field] ?? '') === String(web[field] ?? ''));
}
