import { clusterSecrets, secretData } from './argocd-applications';
import { ControllerFinding, finding } from './controller-finding';

/**
 * How Argo CD v3.5.1 connects to a cluster Secret's API server (docs
 * `docs/operator-manual/declarative-setup.md`, "Clusters": every EKS, GKE and AKS example carries
 * `tlsClientConfig.caData`). Without `caData` and with `insecure: false`, client-go verifies the
 * server certificate against the system CA pool; managed control planes (EKS, GKE, AKS, OKE)
 * present certificates signed by each cluster's own CA, so every request fails with
 * `x509: certificate signed by unknown authority`. An EKS `awsAuthConfig` mints its token for
 * `clusterName`: without one there is no token; with the wrong one the token is rejected
 * (detectable only when the real names are passed in, e.g. from Terraform).
 */
export interface ClusterConnectionOptions {
  /**
   * The real EKS cluster name of each Argo CD cluster name, where known.
   * @default - names are not checked
   */
  readonly eksClusterNames?: Record<string, string>;
}

export function checkClusterConnections(objects: any[], options: ClusterConnectionOptions = {}): ControllerFinding[] {
  const out: ControllerFinding[] = [];
  for (const secret of clusterSecrets(objects)) {
    const data = secretData(secret);
    const at = secret.stringData?.config !== undefined ? '/stringData/config' : '/data/config';
    let config: any;
    try {
      config = JSON.parse(data.config ?? '{}');
    } catch {
      continue;
    }
    const provider = managedProvider(data.server ?? '', config);
    const tls = config.tlsClientConfig ?? {};
    if (provider && !tls.insecure && !tls.caData && !tls.caFile) {
      out.push(finding(secret, `${at}/tlsClientConfig/caData`, 'cluster-ca-missing',
        `cluster ${JSON.stringify(data.name)} (${provider}, ${data.server}) has no tlsClientConfig.caData and insecure false: the ${provider} API server's certificate is signed by the cluster's own CA, so Argo CD fails every request with "x509: certificate signed by unknown authority"`));
    }
    if (config.awsAuthConfig !== undefined) out.push(...checkEks(secret, at, data.name, config.awsAuthConfig, options));
  }
  return out;
}

function checkEks(secret: any, at: string, name: string | undefined, aws: any, options: ClusterConnectionOptions): ControllerFinding[] {
  const path = `${at}/awsAuthConfig/clusterName`;
  if (!aws?.clusterName) {
    return [finding(secret, path, 'eks-cluster-name-missing', `awsAuthConfig has no clusterName: argocd-k8s-auth cannot mint a token and cluster ${JSON.stringify(name)} is unreachable`)];
  }
  const real = name === undefined ? undefined : options.eksClusterNames?.[name];
  if (real !== undefined && real !== aws.clusterName) {
    return [finding(secret, path, 'eks-cluster-name-mismatch',
      `awsAuthConfig.clusterName ${JSON.stringify(aws.clusterName)} is not the EKS cluster's name ${JSON.stringify(real)}: the token is minted for another cluster and every request is Unauthorized`)];
  }
  return [];
}

function managedProvider(server: string, config: any): string | undefined {
  const host = server.replace(/^https?:\/\//, '').split(/[/:]/)[0];
  const args: string[] = Array.isArray(config.execProviderConfig?.args) ? config.execProviderConfig.args : [];
  if (config.awsAuthConfig !== undefined || host.endsWith('.eks.amazonaws.com')) return 'EKS';
  if (host.endsWith('.azmk8s.io') || args[0] === 'azure') return 'AKS';
  if (args[0] === 'gcp' || config.execProviderConfig?.command === 'gke-gcloud-auth-plugin') return 'GKE';
  if (config.execProviderConfig?.command === 'oci') return 'OKE';
  // A bare IP cannot carry a publicly trusted certificate: whoever runs it has its own CA.
  if (/^\d+\.\d+\.\d+\.\d+$/.test(host)) return 'a self-managed control plane';
  return undefined;
}
