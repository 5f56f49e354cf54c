import { describe, expect, test } from 'vitest';
import { Accelerator, ClusterAuth, ClusterOptions, CloudProvider, Tier } from '../../src';
import { TEST_CA } from '../support/fixtures';
import { base, fleetOf } from '../support/one-cluster';

describe('Cluster', () => {
  test('the kubernetes version is kept as its minor version', () => {
    const { fleet } = fleetOf({ ...base, kubernetesVersion: 'v1.31.4' });
    expect(fleet.clusters[0].kubernetesVersion).toBe('1.31');
  });

  test.each<[string, Partial<ClusterOptions>, RegExp]>([
    ['the name is not a DNS label', { name: 'Prod_Cluster' }, /cluster "Prod_Cluster": name must consist of lowercase/],
    ['the name is longer than 63 characters', { name: 'c'.repeat(64) }, /name must be at most 63 characters/],
    ['the server is not https', { server: 'http://c1.example.com' }, /server must use https, got "http:\/\/c1.example.com"/],
    ['the server is not a URL', { server: 'c1.example.com' }, /server must be a URL/],
    ['the server carries credentials', { server: 'https://user:pw@c1.example.com' }, /server (must not carry credentials|holds secret material \(credentials in a URL\))/],
    ['the provider is unknown', { provider: 'digitalocean' as CloudProvider }, /provider is not a known provider, got "digitalocean"; use one of "aws", "gcp", "azure", "oci", "on-prem"/],
    ['the provider is misspelt', { provider: 'azrue' as CloudProvider }, /provider is not a known provider, got "azrue"; did you mean "azure"\?/],
    ['the accelerator is not a known family', { accelerator: Accelerator.of('nvidia-h10O') },
      /accelerator: name is not a known accelerator family, got "nvidia-h10O"; did you mean "nvidia-h100"\? \(to add a family, declare it with Accelerator.custom\("nvidia-h10O"\)\)/],
    ['the region is empty', { region: '' }, /region must not be empty/],
    ['accelerators are counted on a CPU-only cluster', { acceleratorCount: 8 }, /acceleratorCount counts accelerators but accelerator is "none", got 8; set accelerator/],
    ['the kubernetes version is malformed', { kubernetesVersion: 'latest' }, /kubernetesVersion must look like "1.31"/],
    ['an extra label uses the reserved prefix', { labels: { 'gitops-platform.io/tier': 'x' } }, /reserved prefix gitops-platform.io\//],
    ['an extra label value is invalid', { labels: { ring: 'can ary' } }, /labels\["ring"\] must be empty or consist/],
    ['an on-prem cluster has no auth', { provider: CloudProvider.ON_PREM, auth: undefined }, /auth is required for provider "on-prem" with the central Argo CD, got nothing; use ClusterAuth.exec\(\)/],
    ['an AWS cluster has no auth', { auth: undefined }, /auth is required for provider "aws" with the central Argo CD, got nothing; use ClusterAuth.eks\(\{ clusterName/],
    ['a GKE cluster has no CA', { provider: CloudProvider.GCP, auth: ClusterAuth.gke() }, /auth caData is required for provider "gcp" with the central Argo CD: its API server's certificate is signed by the cluster's own CA, got nothing; use ClusterAuth.gke/],
    ['an on-prem API server at an IP address has no CA', { provider: CloudProvider.ON_PREM, server: 'https://10.0.0.9', auth: ClusterAuth.exec({ command: 'kubelogin' }) },
      /auth caData is required for the API server "https:\/\/10.0.0.9": no publicly trusted certificate names an IP address, so its CA is the cluster's own, got nothing; pass \{ caData \}/],
    ['an EKS cluster has no name', { auth: ClusterAuth.eks({ clusterName: '' }, { caData: TEST_CA }) }, /eks clusterName is required, got ""/],
    ['an exec plugin gets a literal token', { auth: ClusterAuth.exec({ command: 'x', env: { API_TOKEN: 'abc' } }) }, /exec auth env name looks like secret material and has a literal value, got "API_TOKEN"/],
    ['the EKS role is not an ARN', { auth: ClusterAuth.eks({ clusterName: 'c1', roleArn: 'argocd' }, { caData: TEST_CA }) }, /roleArn must be an IAM role ARN/],
    ['caData is not base64', { auth: ClusterAuth.gke({ caData: '-----BEGIN CERTIFICATE-----' }) }, /caData must be base64-encoded, but is a raw PEM, got "-----BEGIN CERTIFICATE-----"; base64-encode the PEM/],
    ['the accelerator name is invalid', { accelerator: Accelerator.custom('NVIDIA H100') }, /accelerator name must be empty or consist/],
    ['the tier name is invalid', { tier: Tier.of('pre prod') }, /tier name must be empty or consist/],
  ])('fails if %s', (_, change, message) => {
    expect(() => fleetOf({ ...base, ...change })).toThrow(message);
  });

  test('reports every problem of a cluster at once', () => {
    expect(() => fleetOf({ ...base, server: 'ftp://x', region: '' })).toThrow(/2 problems[\s\S]*server must use https[\s\S]*region must not be empty/);
  });
});
