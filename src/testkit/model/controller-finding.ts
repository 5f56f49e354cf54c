import { ManifestIssue } from '../manifest-issue';

/**
 * A problem the controller model predicts for a live installation: the object and field that
 * cause it, what happens live (`message`), and a stable `code` naming the modelled behaviour.
 */
export interface ControllerFinding extends ManifestIssue {
  /** The modelled behaviour, e.g. `namespace-not-permitted` (see `CONTROLLER_FINDING_CODES`). */
  readonly code: string;
}

/**
 * Every code the model reports: what happens live, and where upstream decides it as
 * `<repository> <file> <Function>` at the pinned tags (Argo CD v3.5.1, Kargo v1.11.2, Argo Rollouts
 * v1.9.1; the model's module comments say more). The model is TypeScript written after that code,
 * not the code itself. The one table of the codes: `CONTROLLER_FINDING_CODES` and the conformance
 * suite's `upstream` column (conformance/model-upstream.ts) are read from it, and
 * conformance/check-known-breaks.ts looks for the function's name.
 */
const MODELLED_BEHAVIOURS: Record<string, { readonly live: string; readonly upstream: string }> = {
  'project-not-found': {
    live: 'the Application names an AppProject that does not exist',
    upstream: 'argo-cd controller/sync.go (the Application\'s AppProject)',
  },
  'namespace-not-permitted': {
    live: 'CreateNamespace=true creates a Namespace the AppProject does not permit',
    upstream: 'argo-cd gitops-engine pkg/sync/sync_context.go autoCreateNamespace, pkg/apis/application/v1alpha1 AppProject.IsGroupKindNamePermitted',
  },
  'destination-not-permitted': {
    live: 'the destination cluster/namespace is not among the AppProject destinations',
    upstream: 'argo-cd pkg/apis/application/v1alpha1/app_project_types.go isDestinationMatched',
  },
  'source-repo-not-permitted': {
    live: 'the source repository is not among the AppProject sourceRepos',
    upstream: 'argo-cd pkg/apis/application/v1alpha1/app_project_types.go IsSourcePermitted',
  },
  'cluster-not-found': {
    live: 'the destination names a cluster Argo CD has no Secret for',
    upstream: 'argo-cd applicationset/generators/cluster.go (cluster Secrets), controller destination lookup',
  },
  'application-name-conflict': {
    live: 'ApplicationSets generate two Applications with one name: one of them never deploys',
    upstream: 'argo-cd applicationset/controllers/applicationset_controller.go (generated Application names)',
  },
  'applicationset-ownership-conflict': {
    live: 'after a fleet change an ApplicationSet generates an Application another one controls: its reconcile is blocked for good',
    upstream: 'argo-cd applicationset/controllers/applicationset_controller.go ApplicationSetReconciler.createOrUpdateInCluster',
  },
  'applicationset-application-outdated': {
    live: 'after a fleet change the ApplicationSet policy leaves an Application not updated or not deleted',
    upstream: 'argo-cd applicationset/controllers/applicationset_controller.go ApplicationSetReconciler.Reconcile (applicationsSync policy)',
  },
  'cluster-ca-missing': {
    live: 'a managed Kubernetes API server is reached without its CA (x509 failure)',
    upstream: 'argo-cd docs/operator-manual/declarative-setup.md (Clusters: caData)',
  },
  'eks-cluster-name-missing': {
    live: 'awsAuthConfig without clusterName: no token can be minted',
    upstream: 'argo-cd docs/operator-manual/declarative-setup.md (EKS awsAuthConfig.clusterName)',
  },
  'eks-cluster-name-mismatch': {
    live: 'awsAuthConfig.clusterName differs from the EKS cluster name',
    upstream: 'argo-cd docs/operator-manual/declarative-setup.md (EKS awsAuthConfig.clusterName)',
  },
  'verification-templates-conflict': {
    live: 'the verification\'s AnalysisTemplates share a metric name or give one argument two values',
    upstream: 'kargo pkg/rollouts/analysis_template.go flattenTemplates',
  },
  'verification-arg-not-string': {
    live: 'a verification argument does not evaluate to a string (e.g. an unquoted numeric tag)',
    upstream: 'kargo pkg/rollouts/analysis_run_builder.go buildArgs',
  },
  'verification-arg-undeclared': {
    live: 'a verification argument no AnalysisTemplate declares is dropped',
    upstream: 'kargo pkg/rollouts/analysis_template.go mergeArgs',
  },
  'verification-arg-unresolved': {
    live: 'an AnalysisTemplate argument gets no value',
    upstream: 'kargo pkg/rollouts/analysis_template.go mergeArgs',
  },
  'job-name-invalid': {
    live: 'a job metric\'s Job name, cut to 63 characters by Argo Rollouts, is not a valid name',
    upstream: 'argo-rollouts metricproviders/job/job.go newJobName',
  },
  'job-name-shared': {
    live: 'two job metrics of one AnalysisRun get the same Job name once cut',
    upstream: 'argo-rollouts metricproviders/job/job.go newJobName',
  },
  'promotion-failed': {
    live: 'a promotion step fails (see the message for the step and error)',
    upstream: 'kargo pkg/promotion/local_orchestrator.go ExecuteSteps',
  },
  'expression-error': {
    live: 'an `if` or a step config fails to evaluate',
    upstream: 'kargo pkg/expressions/json_templates.go EvaluateTemplate',
  },
  'step-config-invalid': {
    live: 'an evaluated step config has the wrong type (e.g. prNumber, desiredRevision)',
    upstream: 'kargo pkg/promotion/runner/builtin (step config validation after evaluation)',
  },
  'step-error': {
    live: 'a step cannot find the work tree or path it is given',
    upstream: 'kargo pkg/promotion/runner/builtin (step work tree and paths)',
  },
  'pr-closed': {
    live: 'the pull request was closed without being merged',
    upstream: 'kargo pkg/promotion/runner/builtin/git_pr_waiter.go',
  },
  'argocd-app-not-found': {
    live: 'argocd-update selects no Application authorized for the Stage',
    upstream: 'kargo pkg/promotion/runner/builtin/argocd_updater.go',
  },
  'argocd-source-mismatch': {
    live: 'argocd-update names a repoURL no source of the Application has',
    upstream: 'kargo pkg/promotion/runner/builtin/argocd_updater.go',
  },
  'git-branch-missing': {
    live: 'a git step needs a branch that does not exist yet',
    upstream: 'kargo pkg/promotion/runner/builtin/git_cloner.go, git_pusher.go',
  },
  'open-pr-target-missing': {
    live: 'git-open-pr targets a branch that does not exist',
    upstream: 'kargo pkg/promotion/runner/builtin/git_pr_opener.go',
  },
  'step-output-missing': {
    live: 'a step reads the output of a step that wrote none (Skipped)',
    upstream: 'kargo pkg/promotion/local_orchestrator.go (outputs of Skipped steps)',
  },
  'helm-dependency-not-found': {
    live: 'helm-update-chart names no dependency of Chart.yaml',
    upstream: 'kargo pkg/helm/dependency_manager.go processDependencyUpdates',
  },
  'application-revision-missing': {
    live: 'an Application cannot find its branch, revision or path after promotion',
    upstream: 'argo-cd repo-server (branch, revision and path of the Application after promotion)',
  },
  'artifact-unused': {
    live: 'a subscribed artifact never changes what a Stage renders',
    upstream: 'kargo pkg/promotion/runner/builtin/helm_template_runner.go, kustomize_builder.go (render inputs)',
  },
  'values-files-ignore-missing': {
    live: 'ignoreMissingValueFiles also hides a missing required values file',
    upstream: 'kargo pkg/promotion/runner/builtin/helm_template_runner.go composeValues',
  },
  'helm-template-capabilities': {
    live: 'helm-template renders without kubeVersion/apiVersions or drops CRDs',
    upstream: 'kargo pkg/promotion/runner/builtin/helm_template_runner.go newInstallAction',
  },
  'argocd-update-timeout-default': {
    live: 'argocd-update waits at most its 5 minute default',
    upstream: 'kargo pkg/promotion/runner/builtin/argocd_updater.go DefaultTimeout',
  },
  'metric-error-on-no-data': {
    live: 'a Prometheus condition fails to evaluate when the query returns no series (result[0] of an empty vector): the measurement errors',
    upstream: 'argo-rollouts utils/evaluate/evaluate.go EvaluateResult (metricproviders/prometheus/prometheus.go processResponse)',
  },
  'metric-outcome-mismatch': {
    live: 'a Prometheus metric\'s conditions give no data or NaN another outcome than its metric-outcomes annotation says',
    upstream: 'argo-rollouts utils/evaluate/evaluate.go EvaluateResult, EvalCondition',
  },
  'pod-security-restricted': {
    live: 'a pod template fails Pod Security "restricted": a namespace enforcing it refuses the pod (a verification Job never runs)',
    upstream: 'k8s.io/pod-security-admission v0.34.9 policy (the restricted checks)',
  },
  'web-metric-non-json-passes': {
    live: 'a web metric whose answer is not JSON passes without its condition, and no job metric guards it',
    upstream: 'argo-rollouts metricproviders/webmetric/webmetric.go parseResponse',
  },
  'freight-never-available': {
    live: 'a release never becomes available to a Stage (e.g. All join with requiredSoakTime, a soak after a control-flow Stage)',
    upstream: 'kargo pkg/api/warehouse.go ListFreightFromWarehouse, api/v1alpha1/stage_types.go IsFreightAvailable, '
      + 'api/v1alpha1/freight_types.go GetLongestSoak, pkg/controller/stages/control_flow_stages.go (Freight availability over time)',
  },
  'freight-late': {
    live: 'a release reaches a Stage later than its upstreams\' checks and its soak allow (e.g. a control-flow Stage waiting for the next event)',
    upstream: 'kargo pkg/controller/stages/control_flow_stages.go Reconcile, regular_stages.go Reconcile (when Stages reconcile)',
  },
  'soak-not-enforced': {
    live: 'a release reaches a Stage before the soak it asks for is over upstream',
    upstream: 'kargo api/v1alpha1/freight_types.go GetLongestSoak, HasSoakedIn',
  },
};

/** Every code the model reports, with the upstream behaviour it stands for. */
export const CONTROLLER_FINDING_CODES: Record<string, string> = Object.fromEntries(
  Object.entries(MODELLED_BEHAVIOURS).map(([code, b]) => [code, b.live]));

/** Where upstream decides what a code stands for (`<repository> <file> <Function>`), if the model reports the code. */
export function controllerFindingUpstream(code: string): string | undefined {
  return Object.prototype.hasOwnProperty.call(MODELLED_BEHAVIOURS, code) ? MODELLED_BEHAVIOURS[code].upstream : undefined;
}

/** Where each object came from (a file, or `inline`), without changing the object. */
const sources = new WeakMap<object, string>();

export function setSource(obj: unknown, source: string): void {
  if (obj !== null && typeof obj === 'object') sources.set(obj, source);
}

export function sourceOf(obj: unknown): string {
  return obj !== null && typeof obj === 'object' ? sources.get(obj) ?? 'inline' : 'inline';
}

export function finding(obj: any, path: string, code: string, message: string): ControllerFinding {
  const metadata = obj?.metadata ?? {};
  const base = { source: sourceOf(obj), apiVersion: String(obj?.apiVersion ?? ''), kind: String(obj?.kind ?? ''), name: String(metadata.name ?? '') };
  return { ...base, ...(metadata.namespace !== undefined ? { namespace: String(metadata.namespace) } : {}), path, message, code };
}

/** Drops exact duplicates (the same problem seen through many generated Applications or scenarios). */
export function uniqueFindings(findings: ControllerFinding[]): ControllerFinding[] {
  const seen = new Set<string>();
  return findings.filter((f) => {
    const key = JSON.stringify([f.source, f.kind, f.namespace, f.name, f.path, f.code, f.message]);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Go `path/filepath.Match`: `*` and `?` stop at `/`, `[...]` classes, `\` escapes. */
export function filepathMatch(pattern: string, value: string): boolean {
  let re = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '*') {re += '[^/]*';} else if (c === '?') {re += '[^/]';} else if (c === '\\' && i + 1 < pattern.length) {re += escapeRe(pattern[++i]);} else if (c === '[') {
      const end = pattern.indexOf(']', i + 1);
      if (end < 0) return false;
      re += '[' + pattern.slice(i + 1, end).replace(/^\^/, '^').replace(/\\/g, '\\\\') + ']';
      i = end;
    } else {re += escapeRe(c);}
  }
  return new RegExp(`^${re}$`).test(value);
}

const globCache = new Map<string, RegExp>();

/** gobwas/glob without separators, as Argo CD's `globMatch` uses it: `*` matches anything; `!` negates. */
export function globMatch(pattern: string | undefined, value: string): boolean {
  if (pattern === undefined) return false;
  if (pattern.startsWith('!')) return !globMatch(pattern.slice(1), value);
  if (pattern === '*') return true;
  let re = globCache.get(pattern);
  if (!re) {
    re = new RegExp(`^${pattern.split('*').map((part) => part.split('?').map(escapeRe).join('.')).join('.*')}$`);
    globCache.set(pattern, re);
  }
  return re.test(value);
}

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}
