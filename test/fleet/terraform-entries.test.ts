import { describe, expect, test } from 'vitest';
// Straight from the modules, not src/index.ts: the parser must not depend on the rest of the library.
import { Tier } from '../../src/fleet/cluster-attributes';
import { clustersFromTerraformOutput } from '../../src/fleet/terraform-output';
import { errorOf } from '../support/fixtures';
import { GOOD, OTHER, parse, problemsOf, SOURCE, tfOutput } from '../support/terraform-output';

describe('clustersFromTerraformOutput fails', () => {

  test('fails if an entry is not an object', () => {
    expect(errorOf(() => parse(['aws-use1-h100-prod-01']))).toContain(`${SOURCE}: clusters[0]: entry must be an object (one cluster), got "aws-use1-h100-prod-01"`);
  });

  test('fails if the provider is unknown, listing the allowed ones', () => {
    expect(errorOf(() => parse([{ ...GOOD, provider: 'google' }]))).toBe(`${SOURCE}: clusters[0] ("aws-use1-h100-prod-01"): `
      + 'provider is not a supported provider, got "google"; use one of aws, gcp, azure, oci, on-prem (did you mean "gcp"?)');
    expect(errorOf(() => parse([{ ...GOOD, provider: 'digitalocean' }]))).toContain('got "digitalocean"; use one of aws, gcp, azure, oci, on-prem');
  });

  test('fails if the endpoint is not a URL or not https', () => {
    const problems = problemsOf(errorOf(() => parse([
      { ...GOOD, endpoint: 'B6E012BC9B3B086FA378DBC30BA41CFC.gr7.us-east-1.eks.amazonaws.com' },
      { ...OTHER, endpoint: 'http://34.90.40.41' },
    ])));
    expect(problems).toEqual([
      `${SOURCE}: clusters[0] ("aws-use1-h100-prod-01"): endpoint must be a URL, got "B6E012BC9B3B086FA378DBC30BA41CFC.gr7.us-east-1.eks.amazonaws.com"; `
        + 'use the https:// URL of the Kubernetes API server (the cluster resource\'s endpoint attribute)',
      `${SOURCE}: clusters[1] ("gcp-euw4-h100-prod-02"): endpoint must use https, got "http://34.90.40.41"; `
        + 'use the https:// URL of the Kubernetes API server (the cluster resource\'s endpoint attribute)',
    ]);
  });

  test('fails if two clusters have the same name, naming both entries', () => {
    expect(errorOf(() => parse([GOOD, OTHER, { ...OTHER, endpoint: 'https://34.90.40.42' }]))).toBe(
      `${SOURCE}: clusters[2] ("gcp-euw4-h100-prod-02"): name is also the name of clusters[1] ("gcp-euw4-h100-prod-02"), got "gcp-euw4-h100-prod-02"; `
      + 'cluster names must be unique in the fleet: rename one of them');
  });

  test('fails if two clusters have the same endpoint, naming both entries', () => {
    const { name: _a, ...a } = GOOD;
    const { name: _b, ...b } = { ...OTHER, endpoint: `${GOOD.endpoint.toLowerCase()}/` };
    expect(errorOf(() => parse({ a, b }))).toBe(
      `${SOURCE}: clusters["b"]: endpoint is also the endpoint of clusters["a"], got "${GOOD.endpoint.toLowerCase()}/"; `
      + 'each cluster needs its own API server URL: one of the two entries points at the wrong cluster');
  });

  test('fails if a map entry\'s name differs from its key', () => {
    expect(errorOf(() => parse({ 'aws-use1-h100-prod-1': GOOD }))).toBe(`${SOURCE}: clusters["aws-use1-h100-prod-1"]: `
      + 'name differs from its map key "aws-use1-h100-prod-1", got "aws-use1-h100-prod-01"; the key is the cluster name: make them equal or drop name');
  });

  test('fails if auth is missing for the central argo cd where the provider has no default', () => {
    const oci = { ...GOOD, provider: 'oci', region: 'us-ashburn-1', auth: undefined };
    expect(errorOf(() => parse([{ ...oci, argocd: { mode: 'central' } }]))).toBe(`${SOURCE}: clusters[0] ("aws-use1-h100-prod-01"): `
      + 'auth is required for provider "oci" with the central argo cd, as it has no workload identity default, got nothing; '
      + 'use { type = "exec", command = "<credential plugin in the argo cd image>", args = [...] }');
    // Its own Argo CD needs none; without argocd, the fleet's default topology decides.
    expect(parse([{ ...oci, argocd: { mode: 'per-cluster' } }])[0].auth).toBeUndefined();
    expect(errorOf(() => parse([oci]))).toContain('auth is required for provider "oci" with the central argo cd');
    expect(clustersFromTerraformOutput(tfOutput([oci]), { source: SOURCE, centralByDefault: false })[0].auth).toBeUndefined();
  });

  test('fails without the ca and the eks cluster name the central argo cd needs', () => {
    expect(errorOf(() => parse([{ ...GOOD, ca_data: undefined }]))).toBe(`${SOURCE}: clusters[0] ("aws-use1-h100-prod-01"): `
      + 'ca_data is required for provider "aws" with the central Argo CD: its API server\'s certificate is signed by the cluster\'s own CA, got nothing; '
      + 'output the cluster\'s CA certificate, base64-encoded (aws_eks_cluster.<name>.certificate_authority[0].data)');
    // each provider's own attribute
    expect(errorOf(() => parse([{ ...GOOD, provider: 'gcp', auth: { type: 'gke' }, ca_data: undefined }])))
      .toContain('base64-encoded (google_container_cluster.<name>.master_auth[0].cluster_ca_certificate)');
    expect(errorOf(() => parse([{ ...GOOD, provider: 'azure', auth: { type: 'aks' }, ca_data: undefined }])))
      .toContain('base64-encoded (azurerm_kubernetes_cluster.<name>.kube_config[0].cluster_ca_certificate)');
    expect(errorOf(() => parse([{ ...GOOD, auth: undefined }]))).toContain('auth is required for provider "aws" with the central argo cd: argo cd mints its token for the eks cluster name, got nothing');
    expect(errorOf(() => parse([{ ...GOOD, auth: { type: 'eks' } }]))).toContain('auth.cluster_name is required, got nothing');
    expect(parse([{ ...GOOD, ca_data: undefined, argocd: { mode: 'per-cluster' } }])).toHaveLength(1);
  });

  test('fails if two entries share a Kargo shard, in the file\'s own terms (argocd.kargo_shard)', () => {
    const own = (name: string, endpoint: string) => ({ ...GOOD, name, endpoint, ca_data: undefined, argocd: { mode: 'per-cluster', kargo_shard: 'edge' } });
    const message = errorOf(() => parse([own('edge-1', 'https://edge-1.example.com'), own('edge-2', 'https://edge-2.example.com')]));
    expect(message).toBe(`${SOURCE}: clusters[1] ("edge-2"): argocd.kargo_shard is also the Kargo shard of clusters[0] ("edge-1"), got "edge"; `
      + 'a Kargo shard talks to exactly one Argo CD, so every cluster with its own Argo CD needs its own shard');
    expect(message).not.toMatch(/argoCd|kargoShard/);
  });

  test('fails if auth is malformed', () => {
    expect(errorOf(() => parse([{ ...GOOD, auth: { type: 'iam' } }])))
      .toContain('auth.type is not a supported authentication, got "iam"; use one of "eks", "gke", "aks", "exec"');
    expect(errorOf(() => parse([{ ...GOOD, auth: 'eks' }]))).toContain('auth must be an object, got "eks"; use e.g. { type = "eks", cluster_name = "..." }');
    expect(errorOf(() => parse([{ ...GOOD, auth: { cluster_name: 'x' } }]))).toContain('auth.type is required, got nothing');
    expect(errorOf(() => parse([{ ...GOOD, auth: { type: 'gke', role_arn: 'arn:aws:iam::777788889999:role/x' } }])))
      .toContain('auth.role_arn applies only to auth type "eks", but auth.type is "gke", got "arn:aws:iam::777788889999:role/x"; remove it or change auth.type');
    expect(errorOf(() => parse([{ ...GOOD, auth: { type: 'exec', args: ['x'] } }]))).toContain('auth.command is required, got nothing');
    // Problems found by ClusterAuth come out in Terraform's names.
    expect(errorOf(() => parse([{ ...GOOD, auth: { type: 'eks', cluster_name: 'x', role_arn: 'argocd' } }])))
      .toContain('clusters[0] ("aws-use1-h100-prod-01"): auth: eks role_arn must be an IAM role ARN (arn:aws:iam::<account>:role/<name>), got "argocd"');
  });

  test('fails if ca_data is not base64', () => {
    expect(errorOf(() => parse([{ ...GOOD, ca_data: '-----BEGIN CERTIFICATE-----\nMIIC\n-----END CERTIFICATE-----\n' }])))
      .toContain('ca_data must be base64-encoded, but is a raw PEM, got "-----BEGIN CERTIFICATE-----\\nMIIC\\n-----END CERTIFICATE-----\\n"; wrap it in base64encode()');
    expect(errorOf(() => parse([{ ...GOOD, ca_data: 'not base64!' }]))).toContain('ca_data must be a base64-encoded PEM certificate, got "not base64!"');
  });

  test('fails if a tier is ambiguous or invalid', () => {
    expect(errorOf(() => parse([{ ...GOOD, tier: 'Prod' }])))
      .toContain('tier differs from the predefined tier "prod" only in case, got "Prod"; write "prod"');
    expect(errorOf(() => parse([{ ...GOOD, tier: 'production' }])))
      .toContain('production is required for the custom tier "production", got nothing; set production = true if its clusters serve production traffic');
    expect(errorOf(() => parse([{ ...GOOD, tier: 'prod', production: false }])))
      .toContain('production contradicts tier "prod", which is a production tier, got false; remove it');
    expect(parse([{ ...GOOD, tier: 'prod', production: true }])[0].tier).toBe(Tier.PROD);
    expect(errorOf(() => parse([{ ...GOOD, tier: 'QA env', production: false }])))
      .toContain('clusters[0] ("aws-use1-h100-prod-01"): tier: tier name must be empty or consist of alphanumerics');
  });

  test('fails if an accelerator is a shorthand or not label-safe', () => {
    expect(errorOf(() => parse([{ ...GOOD, accelerator: 'H100' }])))
      .toContain('accelerator is not a family name, and would become a new family next to "nvidia-h100", got "H100"; write "nvidia-h100"');
    expect(errorOf(() => parse([{ ...GOOD, accelerator: 'cpu', accelerator_count: 0 }]))).toContain('write "none"');
    expect(errorOf(() => parse([{ ...GOOD, accelerator: 'nvidia b200!' }], ['nvidia b200!'])))
      .toContain('clusters[0] ("aws-use1-h100-prod-01"): accelerator: accelerator name must be empty or consist of alphanumerics');
  });

  test('fails if an accelerator is neither predefined nor declared custom, naming the closest family', () => {
    expect(errorOf(() => parse([{ ...GOOD, accelerator: 'nvidia-h10O' }])))
      .toContain('accelerator is not a known accelerator family, got "nvidia-h10O"; did you mean "nvidia-h100"? '
        + '(to add a family, list it in ClusterFleet.fromTerraformOutput({ customAccelerators }))');
    expect(errorOf(() => parse([{ ...GOOD, accelerator: 'nvidia-b200' }], []))).toContain('accelerator is not a known accelerator family, got "nvidia-b200"');
    expect(parse([{ ...GOOD, accelerator: 'nvidia-b200' }])[0].accelerator?.name).toBe('nvidia-b200');
  });

  test('fails if argocd is malformed', () => {
    expect(errorOf(() => parse([{ ...GOOD, argocd: { mode: 'per_cluster' } }])))
      .toContain('argocd.mode is not an argo cd topology, got "per_cluster"; use "central" or "per-cluster" (did you mean "per-cluster"?)');
    expect(errorOf(() => parse([{ ...GOOD, argocd: { mode: 'central', kargo_shard: 'x' } }])))
      .toContain('argocd.kargo_shard applies only to mode "per-cluster", but argocd.mode is "central", got "x"');
    expect(errorOf(() => parse([{ ...GOOD, argocd: { mode: 'per-cluster', namespace: 'Argo_CD' } }])))
      .toContain('argocd: per-cluster argo cd namespace must consist of lowercase letters');
    expect(errorOf(() => parse([{ ...GOOD, argocd: { mode: 'per-cluster' }, shard: 1 }])))
      .toContain('shard applies only to clusters served by the central argo cd, but argocd.mode is "per-cluster", got 1');
    expect(errorOf(() => parse([{ ...GOOD, shard: -1 }]))).toContain('shard must be a whole number >= 0, got -1');
  });

  test('reports every problem of every entry at once', () => {
    const message = errorOf(() => parse([
      { ...GOOD, provider: 'amazon', endpoint: 'http://x', token: 'abc' },
      { ...OTHER, tier: 'Staging', region: 7 },
      { ...OTHER, name: 'gcp-usc1-h100-prod-01' },
    ]));
    expect(message.split('\n')[0]).toBe(`cannot read clusters from terraform output ${SOURCE}: 6 problems`);
    expect(problemsOf(message).map(p => p.replace(`${SOURCE}: `, ''))).toEqual([
      'clusters[0] ("aws-use1-h100-prod-01"): token is a credential, got <redacted>; ' + problemsOf(message)[0].split('; ').slice(1).join('; '),
      'clusters[0] ("aws-use1-h100-prod-01"): endpoint must use https, got "http://x"; use the https:// URL of the Kubernetes API server (the cluster resource\'s endpoint attribute)',
      'clusters[0] ("aws-use1-h100-prod-01"): provider is not a supported provider, got "amazon"; use one of aws, gcp, azure, oci, on-prem (did you mean "aws"?)',
      'clusters[1] ("gcp-euw4-h100-prod-02"): region must be a string, got 7; use the provider\'s region name, e.g. "us-east-1"',
      'clusters[1] ("gcp-euw4-h100-prod-02"): tier differs from the predefined tier "staging" only in case, got "Staging"; write "staging"',
      'clusters[2] ("gcp-usc1-h100-prod-01"): endpoint is also the endpoint of clusters[1] ("gcp-euw4-h100-prod-02"), got "https://34.90.40.41"; '
        + 'each cluster needs its own API server URL: one of the two entries points at the wrong cluster',
    ]);
    expect(problemsOf(message).every(p => p.startsWith(`${SOURCE}: clusters[`))).toBe(true);
  });
});
