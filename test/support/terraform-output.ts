import { ClusterOptions } from '../../src/fleet/cluster';
import { clustersFromTerraformOutput } from '../../src/fleet/terraform-output';

export const SOURCE = 'infra/clusters.tfoutput.json';

export const GOOD = {
  name: 'aws-use1-h100-prod-01',
  endpoint: 'https://B6E012BC9B3B086FA378DBC30BA41CFC.gr7.us-east-1.eks.amazonaws.com',
  provider: 'aws',
  region: 'us-east-1',
  tier: 'prod',
  accelerator: 'nvidia-h100',
  accelerator_count: 64,
  kubernetes_version: '1.31',
  labels: { ring: 'canary' },
  // the central Argo CD needs a managed cluster's CA, and the EKS cluster's own name
  ca_data: 'Q0E=',
  auth: { type: 'eks', cluster_name: 'h100-prod-01' },
};

export const OTHER = { ...GOOD, name: 'gcp-euw4-h100-prod-02', endpoint: 'https://34.90.40.41', provider: 'gcp', region: 'europe-west4', auth: { type: 'gke' } };

/** A `terraform output -json` document whose clusters output holds `value`. */
export function tfOutput(value: unknown, outputs: Record<string, unknown> = {}): string {
  return JSON.stringify({ clusters: { sensitive: false, type: 'dynamic', value }, ...outputs }, undefined, 2);
}

export function parse(value: unknown, customAccelerators: string[] = ['nvidia-b200']): ClusterOptions[] {
  return clustersFromTerraformOutput(tfOutput(value), { source: SOURCE, customAccelerators });
}

/** Problem lines of an error, with or without the "N problems" header. */
export function problemsOf(message: string): string[] {
  const lines = message.split('\n');
  return lines.length === 1 ? lines : lines.slice(1).map(l => l.replace(/^ {2}- /, ''));
}
