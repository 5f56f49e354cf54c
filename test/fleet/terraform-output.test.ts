import * as fs from 'fs';
import * as path from 'path';
import { describe, expect, test } from 'vitest';
import { generateFixture } from '../../apps/infra/generate-fixture';
import { ArgoCdTopology, ArgoCdTopologyKind } from '../../src/fleet/argocd-topology';
import { Cluster, ClusterOptions } from '../../src/fleet/cluster';
import { Tier, Accelerator, CloudProvider } from '../../src/fleet/cluster-attributes';
import { clustersFromTerraformOutput } from '../../src/fleet/terraform-output';
import { errorOf } from '../support/fixtures';
import { GOOD, OTHER, parse, SOURCE } from '../support/terraform-output';

// Straight from the modules, not src/index.ts: the parser must not depend on the rest of the library.

const FIXTURE_SOURCE = 'apps/infra/clusters.tfoutput.json';
const FIXTURE_TEXT = fs.readFileSync(path.join(__dirname, '..', '..', FIXTURE_SOURCE), 'utf8');

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

describe('clustersFromTerraformOutput fails on the document', () => {
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
});
