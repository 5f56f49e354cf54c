import { ControllerFinding, finding } from './controller-finding';

/**
 * Step configs that make a Kargo v1.11.2 promotion silently do less than intended:
 * - `helm-template` renders client-only (`pkg/promotion/runner/builtin/helm_template_runner.go`
 *   `newInstallAction`): `.Capabilities.KubeVersion` is Helm's built-in default unless
 *   `kubeVersion` is set, `.Capabilities.APIVersions` holds only the built-in groups unless
 *   `apiVersions` lists more, and `crds/` is dropped unless `includeCRDs: true`;
 * - `ignoreMissingValueFiles` applies to every file of `valuesFiles` (`composeValues`): a missing
 *   required file renders with chart defaults instead of failing;
 * - `argocd-update` waits at most 5 minutes (`argocd_updater.go`, `DefaultTimeout`) unless the
 *   step sets `retry.timeout`: a slow sync wave or a deny sync window fails the promotion.
 */
export function checkStepConfigs(objects: any[]): ControllerFinding[] {
  const out: ControllerFinding[] = [];
  for (const obj of objects) {
    const list = obj?.kind === 'Stage' ? obj.spec?.promotionTemplate?.spec?.steps : obj?.kind === 'PromotionTask' || obj?.kind === 'ClusterPromotionTask' ? obj.spec?.steps : undefined;
    if (!Array.isArray(list)) continue;
    const base = obj.kind === 'Stage' ? '/spec/promotionTemplate/spec/steps' : '/spec/steps';
    list.forEach((step: any, i: number) => {
      const at = `${base}/${i}`;
      if (step?.uses === 'helm-template') out.push(...checkHelmTemplate(obj, at, step.config ?? {}));
      if (step?.uses === 'argocd-update' && step.retry?.timeout === undefined) {
        out.push(finding(obj, `${at}/retry/timeout`, 'argocd-update-timeout-default',
          `argocd-update ${JSON.stringify(step.as ?? `step-${i + 1}`)} has no retry.timeout: it waits at most the 5m default for the Applications to sync, so a slow wave or a deny sync window fails the promotion`));
      }
    });
  }
  return out;
}

function checkHelmTemplate(obj: any, at: string, cfg: any): ControllerFinding[] {
  const out: ControllerFinding[] = [];
  const missing: string[] = [];
  if (!cfg.kubeVersion) missing.push('kubeVersion (charts see Helm\'s default Kubernetes version, not the cluster\'s)');
  // a `${{ }}` expression (e.g. per-cluster API versions) is a list once evaluated, checked by the runner
  const apiVersionsExpression = typeof cfg.apiVersions === 'string' && cfg.apiVersions.includes('${{');
  if (!apiVersionsExpression && (!Array.isArray(cfg.apiVersions) || cfg.apiVersions.length === 0)) missing.push('apiVersions (.Capabilities.APIVersions.Has is false for every CRD-provided API)');
  if (cfg.includeCRDs !== true) missing.push('includeCRDs: true (CRDs in the chart\'s crds/ directory are dropped)');
  if (missing.length > 0) {
    out.push(finding(obj, `${at}/config`, 'helm-template-capabilities', `helm-template renders client-only without ${missing.join(', ')}: the rendered manifests differ from what helm install would apply to the cluster`));
  }
  if (cfg.ignoreMissingValueFiles === true) {
    const files: unknown[] = Array.isArray(cfg.valuesFiles) ? cfg.valuesFiles : [];
    out.push(finding(obj, `${at}/config/ignoreMissingValueFiles`, 'values-files-ignore-missing',
      `ignoreMissingValueFiles applies to all ${files.length} values file(s) ${JSON.stringify(files)}: a required values file that is missing renders silently with chart defaults; keep it unset and merge only the optional files first (yaml-merge with ignoreMissingFiles)`));
  }
  return out;
}
