import { ManifestIssue } from '../manifest-issue';

/**
 * A problem the controller model predicts for a live installation: the object and field that
 * cause it, what happens live (`message`), and a stable `code` naming the modelled behaviour.
 */
export interface ControllerFinding extends ManifestIssue {
  /** The modelled behaviour, e.g. `namespace-not-permitted` (see `CONTROLLER_FINDING_CODES`). */
  readonly code: string;
}

/** Every code the model reports, with the upstream behaviour it stands for. */
export const CONTROLLER_FINDING_CODES: Record<string, string> = {
  'project-not-found': 'the Application names an AppProject that does not exist',
  'namespace-not-permitted': 'CreateNamespace=true creates a Namespace the AppProject does not permit',
  'destination-not-permitted': 'the destination cluster/namespace is not among the AppProject destinations',
  'source-repo-not-permitted': 'the source repository is not among the AppProject sourceRepos',
  'cluster-not-found': 'the destination names a cluster Argo CD has no Secret for',
  'application-name-conflict': 'ApplicationSets generate two Applications with one name: one of them never deploys',
  'applicationset-ownership-conflict': 'after a fleet change an ApplicationSet generates an Application another one controls: its reconcile is blocked for good',
  'applicationset-application-outdated': 'after a fleet change the ApplicationSet policy leaves an Application not updated or not deleted',
  'cluster-ca-missing': 'a managed Kubernetes API server is reached without its CA (x509 failure)',
  'eks-cluster-name-missing': 'awsAuthConfig without clusterName: no token can be minted',
  'eks-cluster-name-mismatch': 'awsAuthConfig.clusterName differs from the EKS cluster name',
  'verification-templates-conflict': 'the verification\'s AnalysisTemplates share a metric name or give one argument two values',
  'verification-arg-not-string': 'a verification argument does not evaluate to a string (e.g. an unquoted numeric tag)',
  'verification-arg-undeclared': 'a verification argument no AnalysisTemplate declares is dropped',
  'verification-arg-unresolved': 'an AnalysisTemplate argument gets no value',
  'job-name-invalid': 'a job metric\'s Job name, cut to 63 characters by Argo Rollouts, is not a valid name',
  'job-name-shared': 'two job metrics of one AnalysisRun get the same Job name once cut',
  'promotion-failed': 'a promotion step fails (see the message for the step and error)',
  'expression-error': 'an `if` or a step config fails to evaluate',
  'step-config-invalid': 'an evaluated step config has the wrong type (e.g. prNumber, desiredRevision)',
  'step-error': 'a step cannot find the work tree or path it is given',
  'pr-closed': 'the pull request was closed without being merged',
  'argocd-app-not-found': 'argocd-update selects no Application authorized for the Stage',
  'argocd-source-mismatch': 'argocd-update names a repoURL no source of the Application has',
  'git-branch-missing': 'a git step needs a branch that does not exist yet',
  'open-pr-target-missing': 'git-open-pr targets a branch that does not exist',
  'step-output-missing': 'a step reads the output of a step that wrote none (Skipped)',
  'helm-dependency-not-found': 'helm-update-chart names no dependency of Chart.yaml',
  'application-revision-missing': 'an Application cannot find its branch, revision or path after promotion',
  'artifact-unused': 'a subscribed artifact never changes what a Stage renders',
  'values-files-ignore-missing': 'ignoreMissingValueFiles also hides a missing required values file',
  'helm-template-capabilities': 'helm-template renders without kubeVersion/apiVersions or drops CRDs',
  'argocd-update-timeout-default': 'argocd-update waits at most its 5 minute default',
  'metric-error-on-no-data': 'a Prometheus condition fails to evaluate when the query returns no series (result[0] of an empty vector): the measurement errors',
  'metric-outcome-mismatch': 'a Prometheus metric\'s conditions give no data or NaN another outcome than its metric-outcomes annotation says',
  'pod-security-restricted': 'a pod template fails Pod Security "restricted": a namespace enforcing it refuses the pod (a verification Job never runs)',
  'web-metric-non-json-passes': 'a web metric whose answer is not JSON passes without its condition, and no job metric guards it',
  'freight-never-available': 'a release never becomes available to a Stage (e.g. All join with requiredSoakTime, a soak after a control-flow Stage)',
  'freight-late': 'a release reaches a Stage later than its upstreams\' checks and its soak allow (e.g. a control-flow Stage waiting for the next event)',
  'soak-not-enforced': 'a release reaches a Stage before the soak it asks for is over upstream',
};

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
