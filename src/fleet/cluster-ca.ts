import { CloudProvider } from './cluster-attributes';
import { show } from '../util/errors';

// The one rule for a cluster's CA certificate, for clusters defined in code (`ClusterAuth`,
// `Cluster`) and read from `terraform output -json`: what the data must look like, and which
// clusters the central Argo CD cannot reach without it. Each input names the field its own way
// (`caData`, `ca_data`) and gives its own fix; the problem is worded here once.

/** Base64 text. @internal */
export const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/** Providers whose API servers present a certificate of the cluster's own CA (EKS, GKE, AKS, OKE). */
const MANAGED_CONTROL_PLANES: readonly string[] = [CloudProvider.AWS, CloudProvider.GCP, CloudProvider.AZURE, CloudProvider.OCI];

/**
 * What is wrong with CA data, if anything: Argo CD's `tlsClientConfig.caData` is the PEM
 * certificate, base64-encoded (argo-cd v3.5.1 `docs/operator-manual/declarative-setup.md`,
 * "Clusters").
 * @internal
 */
export function caDataProblem(caData: string): { problem: string; rawPem: boolean } | undefined {
  if (caData.includes('-----BEGIN')) return { problem: 'must be base64-encoded, but is a raw PEM', rawPem: true };
  if (caData.length === 0 || !BASE64.test(caData)) return { problem: 'must be a base64-encoded PEM certificate', rawPem: false };
  return undefined;
}

/**
 * Why a cluster of `provider` that the central Argo CD reaches needs CA data, or undefined when
 * it does not: without `tlsClientConfig.caData` client-go verifies a managed control plane's
 * certificate against the system pool and every request fails with x509 "certificate signed by
 * unknown authority".
 * @internal
 */
export function caDataRequiredProblem(provider: string | undefined): string | undefined {
  if (provider === undefined || !MANAGED_CONTROL_PLANES.includes(provider)) return undefined;
  return `is required for provider ${show(provider)} with the central Argo CD: its API server's certificate is signed by the cluster's own CA`;
}
