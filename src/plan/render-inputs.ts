import { PlacedCluster } from './app-release';
import { ManifestSource } from '../artifact/manifest-source';
import { hint, prop } from '../util/code-hint';
import { describe, ProblemList, show } from '../util/errors';

const LISTED = 5;

/**
 * What rendering an app needs to know about each cluster it is placed on. helm-template renders
 * client-only (kargo v1.11.2 `pkg/promotion/runner/builtin/helm_template_runner.go`
 * `newInstallAction`): without the cluster's `kubeVersion`, `.Capabilities.KubeVersion` and the
 * chart's own `kubeVersion` constraint see Helm's built-in default, so a chart picks API versions
 * for a Kubernetes the cluster does not run. Reports the clusters whose version is unknown.
 * @internal
 */
export function checkRenderInputs(problems: ProblemList, source: ManifestSource, clusters: PlacedCluster[]): void {
  if (!source._type.needsKubernetesVersion) return;
  const unknown = [...new Set(clusters.filter(c => c.variables.kubernetesVersion === undefined).map(c => c.name))].sort();
  if (unknown.length === 0) return;
  const shown = unknown.slice(0, LISTED).map(n => show(n)).join(', ') + (unknown.length > LISTED ? ` and ${unknown.length - LISTED} more` : '');
  problems.add(describe(prop('kubernetesVersion'), unknown, 'must be set on every cluster of its placement: helm-template needs it to render the chart as '
    + 'helm install would for them (.Capabilities.KubeVersion and the chart\'s kubeVersion constraint would see Helm\'s built-in default)',
  hint`set ${prop('kubernetesVersion')} on these clusters (Terraform output: kubernetes_version), or narrow the app's targets`, () => `none on cluster(s) ${shown}`));
}
