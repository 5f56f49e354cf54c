import { describe, expect, test } from 'vitest';
// Straight from the modules, not src/index.ts: the parser must not depend on the rest of the library.
import { Tier } from '../../src/fleet/cluster-attributes';
import { clustersFromTerraformOutput } from '../../src/fleet/terraform-output';
import { CREDENTIAL_SHAPES } from '../support/credentials';
import { errorOf } from '../support/fixtures';
import { GOOD, OTHER, parse, SOURCE, tfOutput } from '../support/terraform-output';

/** Problem lines of an error, with or without the "N problems" header. */
function problemsOf(message: string): string[] {
  const lines = message.split('\n');
  return lines.length === 1 ? lines : lines.slice(1).map(l => l.replace(/^ {2}- /, ''));
}

describe('clustersFromTerraformOutput fails', () => {
  test('fails if the file is not JSON, with the parser\'s message and the line', () => {
    const message = errorOf(() => clustersFromTerraformOutput('{\n  "clusters": {\n    "value": [],\n  }\n}', { source: SOURCE }));
    expect(message).toBe(`${SOURCE}: content is not valid JSON at line 4, column 3, got "Expected double-quoted property name in JSON at position 37"; `
      + `write it with \`terraform output -json > ${SOURCE}\``);
  });

  test('fails if the output is missing, listing the outputs there are', () => {
    const message = errorOf(() => clustersFromTerraformOutput(JSON.stringify({
      cluster: { sensitive: false, type: 'dynamic', value: [] },
      vpc_ids: { sensitive: false, type: ['map', 'string'], value: {} },
    }), { source: SOURCE }));
    expect(message).toBe(`${SOURCE}: output "clusters" not found, got outputs "cluster", "vpc_ids"; did you mean "cluster"? `
      + 'pass it as the output name, or add `output "clusters"` to the Terraform configuration, apply it and regenerate the file');
  });

  test('fails if the file holds only the value (terraform output -json clusters)', () => {
    expect(errorOf(() => clustersFromTerraformOutput(JSON.stringify([GOOD]), { source: SOURCE })))
      .toMatch(/^infra\/clusters.tfoutput.json: content must be the output of `terraform output -json` .*got \[\{.*; if it came from `terraform output -json clusters`/);
    expect(errorOf(() => clustersFromTerraformOutput(JSON.stringify({ [GOOD.name]: GOOD }), { source: SOURCE })))
      .toContain('no entry looks like a terraform output');
  });

  test('fails if the file is a Terraform state file', () => {
    const state = { version: 4, terraform_version: '1.9.8', outputs: { clusters: { value: [GOOD], type: 'dynamic' } }, resources: [] };
    expect(errorOf(() => clustersFromTerraformOutput(JSON.stringify(state), { source: SOURCE })))
      .toContain('content must be the output of `terraform output -json`, got a Terraform state file; state files hold secrets');
  });

  test('fails if the value is neither a list nor a map', () => {
    const text = JSON.stringify({ clusters: { sensitive: false, type: 'string', value: 'aws-use1-h100-prod-01' } });
    expect(errorOf(() => clustersFromTerraformOutput(text, { source: SOURCE }))).toBe(
      `${SOURCE}: output "clusters" must be a list or a map of cluster objects, got "aws-use1-h100-prod-01" (terraform type "string"); `
      + 'output a list ([{ name = ..., endpoint = ... }]) or a map keyed by cluster name');
    expect(errorOf(() => parse(GOOD))).toContain('must be a list or a map of clusters, got one cluster object');
  });

  test('fails if an entry is not an object', () => {
    expect(errorOf(() => parse(['aws-use1-h100-prod-01']))).toContain(`${SOURCE}: clusters[0]: entry must be an object (one cluster), got "aws-use1-h100-prod-01"`);
  });

  test('fails if a required field is missing', () => {
    const { endpoint: _, ...rest } = GOOD;
    expect(errorOf(() => parse([rest]))).toBe(`${SOURCE}: clusters[0] ("aws-use1-h100-prod-01"): endpoint is required, got nothing; `
      + 'use the https:// URL of the Kubernetes API server (the cluster resource\'s endpoint attribute)');
    const { name: __, ...unnamed } = GOOD;
    expect(errorOf(() => parse([unnamed]))).toContain('clusters[0]: name is required, got nothing; every cluster of a list needs a name');
  });

  test('fails if a field has the wrong type', () => {
    const problems = problemsOf(errorOf(() => parse({
      [GOOD.name]: { ...GOOD, name: undefined, accelerator_count: '8', kubernetes_version: 1.3, labels: { ring: 1 }, production: 'yes' },
    })));
    expect(problems).toEqual([
      `${SOURCE}: clusters["aws-use1-h100-prod-01"]: production must be true or false, got "yes"; write it without quotes`,
      `${SOURCE}: clusters["aws-use1-h100-prod-01"]: accelerator_count must be a whole number >= 0, got "8"; write it without quotes`,
      `${SOURCE}: clusters["aws-use1-h100-prod-01"]: kubernetes_version must be a string, got 1.3; quote it: as a number, 1.30 is 1.3`,
      `${SOURCE}: clusters["aws-use1-h100-prod-01"]: labels["ring"] must be a string, got 1; Kubernetes labels and environment variables are strings: quote it`,
    ]);
  });

  test('fails if a field is unknown, suggesting the closest known one', () => {
    const { endpoint, ...rest } = GOOD;
    const problems = problemsOf(errorOf(() => parse([{ ...rest, endpiont: endpoint, caData: 'Q0E=', tags: {}, vpc_id: 'vpc-0abc' }])));
    expect(problems).toEqual([
      `${SOURCE}: clusters[0] ("aws-use1-h100-prod-01"): endpiont is not a known field, got "${endpoint}"; did you mean "endpoint"?`,
      `${SOURCE}: clusters[0] ("aws-use1-h100-prod-01"): caData is not a known field, got "Q0E="; did you mean "ca_data"?`,
      `${SOURCE}: clusters[0] ("aws-use1-h100-prod-01"): tags is not a known field, got {}; did you mean "labels"?`,
      `${SOURCE}: clusters[0] ("aws-use1-h100-prod-01"): vpc_id is not a known field, got "vpc-0abc"; remove it; the known fields are `
        + 'name, endpoint, provider, region, tier, production, accelerator, accelerator_count, kubernetes_version, api_versions, labels, ca_data, auth, argocd, shard',
      `${SOURCE}: clusters[0] ("aws-use1-h100-prod-01"): endpoint is required, got nothing; `
        + 'use the https:// URL of the Kubernetes API server (the cluster resource\'s endpoint attribute)',
    ]);
    expect(errorOf(() => parse([{ ...GOOD, auth: { type: 'eks', rolearn: 'x' } }]))).toContain('auth.rolearn is not a known field, got "x"; did you mean "role_arn"?');
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

  describe('fails if an entry holds credentials, without showing them', () => {
    const SECRET = 'sup3r-s3cret-v4lue';
    const cases: Array<[string, object, string]> = [
      ['token', { token: SECRET }, 'token'],
      ['bearer_token', { bearer_token: SECRET }, 'bearer_token'],
      ['client_key', { client_key: SECRET }, 'client_key'],
      ['client_certificate', { client_certificate: SECRET }, 'client_certificate'],
      ['password', { password: SECRET }, 'password'],
      ['kubeconfig', { kubeconfig: SECRET }, 'kubeconfig'],
      ['kube_config (azurerm)', { kube_config: [{ host: 'h', client_key: SECRET }] }, 'kube_config'],
      ['secret_access_key', { secret_access_key: SECRET }, 'secret_access_key'],
      ['private_key', { private_key: SECRET }, 'private_key'],
      ['a camelCase key', { clientKeyData: SECRET }, 'clientKeyData'],
      ['a key inside auth', { auth: { type: 'eks', cluster_name: 'h100-prod-01', token: SECRET } }, 'auth.token'],
      ['an exec env variable', { auth: { type: 'exec', command: 'oci', env: { AWS_SECRET_ACCESS_KEY: SECRET } } }, 'auth.env["AWS_SECRET_ACCESS_KEY"]'],
      ['a label', { labels: { 'example.com/token': SECRET } }, 'labels["example.com/token"]'],
      ['a JWT value', { auth: { type: 'exec', command: 'kubectl', args: ['--token', `eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJhcmdvY2QifQ.${SECRET}`] } }, 'auth.args[1]'],
      ['a private key in ca_data', { ca_data: Buffer.from(`-----BEGIN RSA PRIVATE KEY-----\n${SECRET}\n-----END RSA PRIVATE KEY-----\n`).toString('base64') }, 'ca_data'],
    ];
    test.each(cases)('%s', (_, extra, field) => {
      const message = errorOf(() => parse([{ ...GOOD, ...extra }]));
      expect(message).toMatch(new RegExp(`^${SOURCE}: clusters\\[0\\] \\("aws-use1-h100-prod-01"\\): ${field.replace(/[[\].]/g, '\\$&')} (is|looks like) a credential, got <redacted>; `
        + 'credentials are never accepted from terraform output .*workload identity .*exec plugin'));
      expect(message).not.toContain(SECRET);
      expect(message).not.toContain(Buffer.from(SECRET).toString('base64').slice(0, 12));
    });

    // what the key names and token shapes above do not catch, the library's one rule does
    test.each(CREDENTIAL_SHAPES.map(shape => [shape.name, shape] as const))('%s in an exec argument', (_, shape) => {
      const message = errorOf(() => parse([{ ...GOOD, auth: { type: 'exec', command: 'argocd-k8s-auth', args: ['--token', shape.text] } }]));
      expect(message).toMatch(/clusters\[0\] \("aws-use1-h100-prod-01"\): auth(\.args\[1\] (is|looks like) a credential|: args\[1\] holds secret material)/);
      expect(message).not.toContain(shape.secret);
    });

    test('an empty credential attribute, as a typed Terraform object writes it', () => {
      expect(errorOf(() => parse([{ ...GOOD, auth: { type: 'eks', token: null } }])))
        .toContain('clusters[0] ("aws-use1-h100-prod-01"): auth.token is a credential, got null; credentials are never accepted');
    });

    test('credentials in the endpoint URL', () => {
      const message = errorOf(() => parse([{ ...GOOD, endpoint: `https://admin:${SECRET}@10.0.0.1` }, { ...OTHER, endpoint: `https://10.0.0.2/?token=${SECRET}` }]));
      expect(message).toContain('clusters[0] ("aws-use1-h100-prod-01"): endpoint must not carry credentials, got "https://<redacted>@10.0.0.1/"; credentials are never accepted');
      expect(message).toContain('clusters[1] ("gcp-euw4-h100-prod-02"): endpoint must not carry credentials, got "https://10.0.0.2/?<redacted>"');
      expect(message).not.toContain(SECRET);
    });

    test('secrets under unknown fields stay hidden in the unknown-field message', () => {
      const message = errorOf(() => parse([{ ...GOOD, extra: { note: 'x', password: SECRET } }]));
      expect(message).toContain('extra.password is a credential, got <redacted>');
      expect(message).toContain('extra is not a known field, got {"note":"x","password":"<redacted>"}');
      expect(message).not.toContain(SECRET);
    });
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
