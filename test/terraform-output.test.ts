import * as fs from 'fs';
import * as path from 'path';
import { describe, expect, test } from 'vitest';
import { errorOf } from './fixtures';
import { generateFixture } from '../apps/infra/generate-fixture';
import { ArgoCdTopology, ArgoCdTopologyKind } from '../src/fleet/argocd-topology';
// Straight from the modules, not src/index.ts: the parser must not depend on the rest of the library.
import { Cluster, ClusterOptions } from '../src/fleet/cluster';
import { Accelerator, CloudProvider, Tier } from '../src/fleet/cluster-attributes';
import { clustersFromTerraformOutput } from '../src/fleet/terraform-output';

const FIXTURE_SOURCE = 'apps/infra/clusters.tfoutput.json';
const FIXTURE_TEXT = fs.readFileSync(path.join(__dirname, '..', FIXTURE_SOURCE), 'utf8');
const SOURCE = 'infra/clusters.tfoutput.json';

const GOOD = {
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
const OTHER = { ...GOOD, name: 'gcp-euw4-h100-prod-02', endpoint: 'https://34.90.40.41', provider: 'gcp', region: 'europe-west4', auth: { type: 'gke' } };

/** A `terraform output -json` document whose clusters output holds `value`. */
function tfOutput(value: unknown, outputs: Record<string, unknown> = {}): string {
  return JSON.stringify({ clusters: { sensitive: false, type: 'dynamic', value }, ...outputs }, undefined, 2);
}

function parse(value: unknown, customAccelerators: string[] = ['nvidia-b200']): ClusterOptions[] {
  return clustersFromTerraformOutput(tfOutput(value), { source: SOURCE, customAccelerators });
}

/** Problem lines of an error, with or without the "N problems" header. */
function problemsOf(message: string): string[] {
  const lines = message.split('\n');
  return lines.length === 1 ? lines : lines.slice(1).map(l => l.replace(/^ {2}- /, ''));
}

/** Comparable form: the value classes hold closures, so compare what they render to. */
function plain(c: ClusterOptions) {
  return {
    ...c,
    tier: c.tier && { name: c.tier.name, production: c.tier.production },
    accelerator: c.accelerator?.name,
    auth: c.auth && { kind: c.auth.kind, config: c.auth.toClusterConfig(c.name) },
    argoCd: c.argoCd && { kind: c.argoCd.kind, kargoShard: c.argoCd.kargoShard, namespace: c.argoCd.namespace },
  };
}

describe('the fixture apps/infra/clusters.tfoutput.json', () => {
  const clusters = clustersFromTerraformOutput(FIXTURE_TEXT, { source: FIXTURE_SOURCE });
  const prod = clusters.filter(c => c.tier === Tier.PROD);
  const accel = (c: ClusterOptions) => (c.accelerator ?? Accelerator.NONE).name;
  const pair = (c: ClusterOptions) => `${c.provider}/${accel(c)}`;
  const countBy = (items: ClusterOptions[], key: (c: ClusterOptions) => string) =>
    items.reduce<Record<string, number>>((acc, c) => ({ ...acc, [key(c)]: (acc[key(c)] ?? 0) + 1 }), {});
  const families = Accelerator.all().map(a => a.name);

  test('is what generate-fixture.ts writes', () => {
    expect(FIXTURE_TEXT).toBe(generateFixture());
  });

  test('holds 100 valid clusters, sorted by name, with names of at most 40 characters', () => {
    expect(clusters).toHaveLength(100);
    const names = clusters.map(c => c.name);
    expect(names).toEqual([...names].sort());
    for (const c of clusters) {
      expect(c.name.length).toBeLessThanOrEqual(40);
      expect(() => Cluster._define(c, 'test', ArgoCdTopology.central())).not.toThrow();
    }
  });

  test('spreads over 4 providers and 15 / 20 / 65 clusters in dev / staging / prod', () => {
    expect(countBy(clusters, c => c.provider)).toEqual({ aws: 30, gcp: 26, azure: 24, oci: 20 });
    expect(countBy(clusters, c => c.tier.name)).toEqual({ dev: 15, staging: 20, prod: 65 });
  });

  test('has every accelerator family and CPU-only in every tier, TPUs only on gcp and Trainium only on aws', () => {
    for (const tier of [Tier.DEV, Tier.STAGING, Tier.PROD]) {
      expect(new Set(clusters.filter(c => c.tier === tier).map(accel))).toEqual(new Set(families));
    }
    expect(new Set(clusters.filter(c => accel(c) === 'google-tpu').map(c => c.provider))).toEqual(new Set([CloudProvider.GCP]));
    expect(new Set(clusters.filter(c => accel(c) === 'aws-trainium').map(c => c.provider))).toEqual(new Set([CloudProvider.AWS]));
    for (const c of clusters) {
      expect((c.acceleratorCount ?? 0) > 0).toBe(accel(c) !== 'none');
    }
  });

  test('runs Kubernetes 1.29 to 1.32', () => {
    expect(new Set(clusters.map(c => c.kubernetesVersion))).toEqual(new Set(['1.29', '1.30', '1.31', '1.32']));
  });

  test('puts every prod cluster, and only those, in a ring of about 10 / 30 / 60 %', () => {
    for (const c of clusters) {
      if (c.tier === Tier.PROD) expect(['canary', 'early', 'broad']).toContain(c.labels?.ring);
      else expect(c.labels?.ring).toBeUndefined();
    }
    expect(countBy(prod, c => c.labels!.ring)).toEqual({ canary: 7, early: 20, broad: 38 });
  });

  test('has every prod provider × family pair in the early and broad rings, and every family and provider in canary', () => {
    const pairs = new Set(prod.map(pair));
    expect(pairs.size).toBe(20);
    const ring = (name: string) => prod.filter(c => c.labels!.ring === name);
    expect(new Set(ring('early').map(pair))).toEqual(pairs);
    expect(new Set(ring('broad').map(pair))).toEqual(pairs);
    // Seven canaries cannot cover 20 pairs: each covers a different one, so that every family and provider is in the first wave.
    const canary = ring('canary');
    expect(new Set(canary.map(pair)).size).toBe(canary.length);
    expect(new Set(canary.map(accel))).toEqual(new Set(families));
    expect(new Set(canary.map(c => c.provider))).toEqual(new Set(['aws', 'gcp', 'azure', 'oci']));
  });

  test('has 10 per-cluster Argo CDs (sovereign OCI regions and edge sites), the rest central', () => {
    const perCluster = clusters.filter(c => c.argoCd?.kind === ArgoCdTopologyKind.PER_CLUSTER);
    expect(perCluster.map(c => c.name)).toEqual([
      'aws-apne1-cpu-prod-01', 'aws-euw1-cpu-prod-01', 'aws-use1-cpu-prod-01', 'aws-use2-cpu-prod-01',
      'azr-eus-cpu-prod-01', 'azr-swc-cpu-prod-01',
      'oci-fra-h100-prod-01', 'oci-fra-mi300x-prod-01', 'oci-lhr-cpu-prod-01', 'oci-lhr-h100-prod-01',
    ]);
    expect(clusters.filter(c => c.argoCd !== undefined && c.argoCd.kind !== ArgoCdTopologyKind.PER_CLUSTER)).toEqual([]);
  });

  test('authenticates OCI with the oci exec plugin, and the clouds with explicit or default workload identity', () => {
    const byProvider = (p: CloudProvider) => clusters.filter(c => c.provider === p);
    for (const c of byProvider(CloudProvider.OCI)) {
      expect(c.auth?.toClusterConfig(c.name).execProviderConfig).toMatchObject({ command: 'oci', args: expect.arrayContaining(['generate-token']) });
    }
    for (const [p, kind] of [[CloudProvider.AWS, 'eks'], [CloudProvider.GCP, 'gke'], [CloudProvider.AZURE, 'aks']] as const) {
      expect(byProvider(p).filter(c => c.auth !== undefined).every(c => c.auth!.kind === kind)).toBe(true);
    }
    // every managed cluster of the central Argo CD has its CA, every EKS one its own name
    const central = clusters.filter(c => c.argoCd === undefined);
    expect(central.every(c => c.auth?.toClusterConfig(c.name).tlsClientConfig.caData)).toBe(true);
    expect(byProvider(CloudProvider.AWS).filter(c => c.auth).every(c => c.auth!.toClusterConfig(c.name).awsAuthConfig.clusterName === `eks-${c.name.slice(4)}`)).toBe(true);
    expect(byProvider(CloudProvider.AWS).some(c => c.auth?.toClusterConfig(c.name).awsAuthConfig.roleARN)).toBe(true);
    expect(clusters.filter(c => c.auth?.toClusterConfig(c.name).tlsClientConfig.caData).length).toBeGreaterThan(30);
  });

  test('has unique endpoints in each provider\'s format', () => {
    const formats: Record<string, RegExp> = {
      aws: /^https:\/\/[0-9A-F]{32}\.gr7\.[a-z0-9-]+\.eks\.amazonaws\.com$/,
      gcp: /^https:\/\/3[45]\.\d{1,3}\.\d{1,3}\.\d{1,3}$/,
      azure: /^https:\/\/[a-z0-9-]+-[0-9a-f]{8}\.hcp\.[a-z0-9]+\.azmk8s\.io$/,
      oci: /^https:\/\/\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}:6443$/,
    };
    for (const c of clusters) expect(c.server).toMatch(formats[c.provider]);
    expect(new Set(clusters.map(c => c.server)).size).toBe(100);
  });

  test('is a whole terraform output document: other outputs, one of them sensitive, are ignored', () => {
    const doc = JSON.parse(FIXTURE_TEXT);
    expect(Object.keys(doc)).toEqual(['clusters', 'fleet_registry_db_endpoint', 'vpc_ids']);
    expect(doc.fleet_registry_db_endpoint.sensitive).toBe(true);
  });
});

describe('clustersFromTerraformOutput', () => {
  test('the list form and the map form give the same clusters', () => {
    const map = JSON.parse(FIXTURE_TEXT).clusters.value as Record<string, object>;
    // Reversed, so that the result's order cannot come from the input's.
    const list = Object.entries(map).map(([name, entry]) => ({ name, ...entry })).reverse();
    const fromMap = clustersFromTerraformOutput(FIXTURE_TEXT, { source: FIXTURE_SOURCE });
    const fromList = parse(list);
    expect(fromList.map(plain)).toEqual(fromMap.map(plain));
  });

  test('a map entry may repeat its name', () => {
    const { name, ...rest } = GOOD;
    expect(parse({ [name]: { name, ...rest } }).map(plain)).toEqual(parse([GOOD]).map(plain));
  });

  test('maps every field to ClusterOptions', () => {
    const [c] = parse([{
      ...GOOD,
      tier: 'qa',
      production: false,
      accelerator: 'nvidia-b200',
      ca_data: 'Q0E=',
      auth: { type: 'eks', cluster_name: 'prod-h100', role_arn: 'arn:aws:iam::777788889999:role/argocd' },
      argocd: { mode: 'central' },
      shard: 3,
    }]);
    expect(plain(c)).toEqual({
      name: 'aws-use1-h100-prod-01',
      server: GOOD.endpoint,
      provider: 'aws',
      region: 'us-east-1',
      tier: { name: 'qa', production: false },
      accelerator: 'nvidia-b200',
      acceleratorCount: 64,
      kubernetesVersion: '1.31',
      labels: { ring: 'canary' },
      auth: {
        kind: 'eks',
        config: {
          awsAuthConfig: { clusterName: 'prod-h100', roleARN: 'arn:aws:iam::777788889999:role/argocd' },
          tlsClientConfig: { insecure: false, caData: 'Q0E=' },
        },
      },
      argoCd: { kind: 'central', kargoShard: undefined, namespace: undefined },
      shard: 3,
    });
  });

  test('keeps ca_data without auth by using the provider default', () => {
    const [c] = parse([{ ...OTHER, ca_data: 'Q0E=' }]);
    expect(c.auth?.kind).toBe('gke');
    expect(c.auth?.toClusterConfig(c.name).tlsClientConfig.caData).toBe('Q0E=');
  });

  test('treats null as absent, as Terraform writes unset optional attributes', () => {
    const [c] = parse([{
      ...GOOD,
      accelerator: null,
      accelerator_count: null,
      labels: null,
      argocd: null,
      shard: null,
      production: null,
      auth: { type: 'eks', cluster_name: 'h100-prod-01', role_arn: null, login_method: null, command: null, args: null },
    }]);
    expect([c.accelerator, c.acceleratorCount, c.labels, c.argoCd, c.shard]).toEqual([undefined, undefined, undefined, undefined, undefined]);
    expect(c.auth?.toClusterConfig(c.name).awsAuthConfig).toEqual({ clusterName: 'h100-prod-01' });
  });

  test('reads another output by name', () => {
    const text = JSON.stringify({ gpu_clusters: { sensitive: false, type: 'dynamic', value: [GOOD] } });
    expect(clustersFromTerraformOutput(text, { source: SOURCE, outputName: 'gpu_clusters' })).toHaveLength(1);
  });

  test('an empty output is an empty fleet', () => {
    expect(parse([])).toEqual([]);
    expect(parse({})).toEqual([]);
  });
});

describe('clustersFromTerraformOutput fails', () => {
  test('fails if the file is not JSON, with the parser\'s message and the line', () => {
    const message = errorOf(() => clustersFromTerraformOutput('{\n  "clusters": {\n    "value": [],\n  }\n}', { source: SOURCE }));
    expect(message).toBe(`${SOURCE}: is not valid JSON at line 4, column 3: Expected double-quoted property name in JSON at position 37; `
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
      .toMatch(/^infra\/clusters.tfoutput.json: must be the output of `terraform output -json` .*got \[\{.*; if it came from `terraform output -json clusters`/);
    expect(errorOf(() => clustersFromTerraformOutput(JSON.stringify({ [GOOD.name]: GOOD }), { source: SOURCE })))
      .toContain('no entry looks like a terraform output');
  });

  test('fails if the file is a Terraform state file', () => {
    const state = { version: 4, terraform_version: '1.9.8', outputs: { clusters: { value: [GOOD], type: 'dynamic' } }, resources: [] };
    expect(errorOf(() => clustersFromTerraformOutput(JSON.stringify(state), { source: SOURCE })))
      .toContain('is a Terraform state file, not `terraform output -json`; state files hold secrets');
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
      + 'output the cluster\'s ca certificate, base64-encoded (e.g. aws_eks_cluster.<name>.certificate_authority[0].data)');
    expect(errorOf(() => parse([{ ...GOOD, auth: undefined }]))).toContain('auth is required for provider "aws" with the central argo cd: argo cd mints its token for the eks cluster name, got nothing');
    expect(errorOf(() => parse([{ ...GOOD, auth: { type: 'eks' } }]))).toContain('auth.cluster_name is required, got nothing');
    expect(parse([{ ...GOOD, ca_data: undefined, argocd: { mode: 'per-cluster' } }])).toHaveLength(1);
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
