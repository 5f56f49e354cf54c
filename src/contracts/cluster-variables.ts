/**
 * The attributes of a cluster that values files, overlay paths, render tasks and checks may
 * refer to by name, in the order messages list them. Declared once: the render task's vars,
 * the source's path tokens and the checks' placeholders all follow this list.
 * @internal
 */
export const CLUSTER_VARIABLES = ['cluster', 'region', 'provider', 'accelerator', 'tier'];

/** The cluster variables plus the pipeline stage: what one render of one cluster is given. @internal */
export const RELEASE_VARIABLES = ['stage', ...CLUSTER_VARIABLES];

/**
 * Cluster attributes only the render reads (not path tokens or placeholders): the Kubernetes
 * version helm-template assumes (empty: Helm's default). @internal
 */
export const RENDER_ONLY_VARIABLES = ['kubeVersion'];

/** The values of the cluster variables for one cluster. @internal */
export interface ClusterVariableSource {
  readonly name: string;
  readonly region: string;
  readonly provider: string;
  readonly accelerator: string;
  readonly tier: string;
  readonly kubernetesVersion?: string;
}

/** The cluster variables of one cluster, by variable name. @internal */
export function clusterVariables(c: ClusterVariableSource): Record<string, string> {
  return { cluster: c.name, region: c.region, provider: c.provider, accelerator: c.accelerator, tier: c.tier };
}

/**
 * The render-only variables of one cluster, by variable name. A Helm app is placed only on
 * clusters whose Kubernetes version is known (`plan/render-inputs.ts`). @internal
 */
export function renderOnlyVariables(c: ClusterVariableSource): Record<string, string> {
  return { kubeVersion: c.kubernetesVersion! };
}
