import { CONTROLLER_FINDING_CODES } from '../src/testkit';

/**
 * What each test kit model code stands for upstream. The model is TypeScript written after the
 * upstream code, not the upstream code itself: every label says `model:` so a reader never takes
 * a model finding for a verdict of Argo CD, Kargo or Argo Rollouts. Paths are inside the upstream
 * repositories at the pinned tags (Argo CD v3.5.1, Kargo v1.11.2, Argo Rollouts v1.9.1), after the
 * model's own module comments (src/testkit/model/). A new model code needs its row here, as
 * `<repository> <file> <Function>`: check-known-breaks.ts looks for the function's name.
 */
const MODELLED: Record<string, string> = {
  'project-not-found': 'argo-cd controller/sync.go (the Application\'s AppProject)',
  'namespace-not-permitted': 'argo-cd gitops-engine pkg/sync/sync_context.go autoCreateNamespace, pkg/apis/application/v1alpha1 AppProject.IsGroupKindNamePermitted',
  'destination-not-permitted': 'argo-cd pkg/apis/application/v1alpha1/app_project_types.go isDestinationMatched',
  'source-repo-not-permitted': 'argo-cd pkg/apis/application/v1alpha1/app_project_types.go IsSourcePermitted',
  'cluster-not-found': 'argo-cd applicationset/generators/cluster.go (cluster Secrets), controller destination lookup',
  'application-name-conflict': 'argo-cd applicationset/controllers/applicationset_controller.go (generated Application names)',
  'cluster-ca-missing': 'argo-cd docs/operator-manual/declarative-setup.md (Clusters: caData)',
  'eks-cluster-name-missing': 'argo-cd docs/operator-manual/declarative-setup.md (EKS awsAuthConfig.clusterName)',
  'eks-cluster-name-mismatch': 'argo-cd docs/operator-manual/declarative-setup.md (EKS awsAuthConfig.clusterName)',
  'verification-templates-conflict': 'kargo pkg/rollouts/analysis_template.go flattenTemplates',
  'verification-arg-not-string': 'kargo pkg/rollouts/analysis_run_builder.go buildArgs',
  'verification-arg-undeclared': 'kargo pkg/rollouts/analysis_template.go mergeArgs',
  'verification-arg-unresolved': 'kargo pkg/rollouts/analysis_template.go mergeArgs',
  'job-name-invalid': 'argo-rollouts metricproviders/job/job.go newJobName',
  'job-name-shared': 'argo-rollouts metricproviders/job/job.go newJobName',
  'promotion-failed': 'kargo pkg/promotion/local_orchestrator.go ExecuteSteps',
  'expression-error': 'kargo pkg/expressions/json_templates.go EvaluateTemplate',
  'step-config-invalid': 'kargo pkg/promotion/runner/builtin (step config validation after evaluation)',
  'step-error': 'kargo pkg/promotion/runner/builtin (step work tree and paths)',
  'pr-closed': 'kargo pkg/promotion/runner/builtin/git_pr_waiter.go',
  'argocd-app-not-found': 'kargo pkg/promotion/runner/builtin/argocd_updater.go',
  'argocd-source-mismatch': 'kargo pkg/promotion/runner/builtin/argocd_updater.go',
  'git-branch-missing': 'kargo pkg/promotion/runner/builtin/git_cloner.go, git_pusher.go',
  'open-pr-target-missing': 'kargo pkg/promotion/runner/builtin/git_pr_opener.go',
  'step-output-missing': 'kargo pkg/promotion/local_orchestrator.go (outputs of Skipped steps)',
  'helm-dependency-not-found': 'kargo pkg/helm/dependency_manager.go processDependencyUpdates',
  'application-revision-missing': 'argo-cd repo-server (branch, revision and path of the Application after promotion)',
  'artifact-unused': 'kargo pkg/promotion/runner/builtin/helm_template_runner.go, kustomize_builder.go (render inputs)',
  'values-files-ignore-missing': 'kargo pkg/promotion/runner/builtin/helm_template_runner.go composeValues',
  'helm-template-capabilities': 'kargo pkg/promotion/runner/builtin/helm_template_runner.go newInstallAction',
  'argocd-update-timeout-default': 'kargo pkg/promotion/runner/builtin/argocd_updater.go DefaultTimeout',
  'web-metric-non-json-passes': 'argo-rollouts metricproviders/webmetric/webmetric.go parseResponse',
  'metric-error-on-no-data': 'argo-rollouts utils/evaluate/evaluate.go EvaluateResult (metricproviders/prometheus/prometheus.go processResponse)',
  'metric-outcome-mismatch': 'argo-rollouts utils/evaluate/evaluate.go EvaluateResult, EvalCondition',
  'pod-security-restricted': 'k8s.io/pod-security-admission v0.34.9 policy (the restricted checks)',
  'freight-never-available': 'kargo pkg/api/warehouse.go ListFreightFromWarehouse, api/v1alpha1/stage_types.go IsFreightAvailable, '
    + 'api/v1alpha1/freight_types.go GetLongestSoak, pkg/controller/stages/control_flow_stages.go (Freight availability over time)',
  'freight-late': 'kargo pkg/controller/stages/control_flow_stages.go Reconcile, regular_stages.go Reconcile (when Stages reconcile)',
  'soak-not-enforced': 'kargo api/v1alpha1/freight_types.go GetLongestSoak, HasSoakedIn',
  'applicationset-ownership-conflict': 'argo-cd applicationset/controllers/applicationset_controller.go ApplicationSetReconciler.createOrUpdateInCluster',
  'applicationset-application-outdated': 'argo-cd applicationset/controllers/applicationset_controller.go ApplicationSetReconciler.Reconcile (applicationsSync policy)',
};

/** The upstream column of a model finding: `model: test kit model of <upstream>`. */
export function modelUpstream(code: string): string {
  const of = MODELLED[code];
  return `model: test kit model of ${of ?? CONTROLLER_FINDING_CODES[code] ?? code} (${code}${of ? '' : '; no upstream function listed in conformance/model-upstream.ts'})`;
}
