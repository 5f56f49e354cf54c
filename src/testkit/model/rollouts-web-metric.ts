import { ControllerFinding, finding } from './controller-finding';

/**
 * Argo Rollouts v1.9.1 `metricproviders/webmetric/webmetric.go` `parseResponse`: a 2xx answer
 * whose body is not JSON is returned as Successful before `successCondition` or
 * `failureCondition` is evaluated, so a check with a real condition passes whenever the endpoint
 * answers plain text (an error page, a proxy's 200). A condition that is literally `true` checks
 * only the status code and is not affected.
 */
export function checkWebMetrics(objects: any[]): ControllerFinding[] {
  const out: ControllerFinding[] = [];
  for (const obj of objects) {
    if (obj?.kind !== 'AnalysisTemplate' && obj?.kind !== 'ClusterAnalysisTemplate') continue;
    (obj.spec?.metrics ?? []).forEach((metric: any, i: number) => {
      if (!metric?.provider?.web) return;
      const conditions = [['successCondition', metric.successCondition], ['failureCondition', metric.failureCondition]]
        .filter(([, c]) => typeof c === 'string' && c.trim() !== '' && c.trim() !== 'true' && c.trim() !== 'false');
      for (const [field, condition] of conditions) {
        out.push(finding(obj, `/spec/metrics/${i}/${field}`, 'web-metric-non-json-passes',
          `web metric ${JSON.stringify(metric.name)} checks ${field} ${JSON.stringify(condition)}, but an answer that is not JSON is counted Successful without evaluating it: a plain-text answer from ${JSON.stringify(metric.provider.web.url)} always passes`));
      }
    });
  }
  return out;
}
