import { createHash } from 'crypto';
import { writeFileSync } from 'fs';
import * as path from 'path';

/*
 * Generates clusters.tfoutput.json: what `terraform output -json` prints for the example
 * fleet's Terraform. Deterministic (every "random" value is a hash of the cluster name), so
 * the committed file only changes when this script does:
 *
 *   npx tsx apps/infra/generate-fixture.ts
 *
 * Everything in it is fake: account ids are AWS's documentation examples, IPs and hashes are
 * derived from names, and the CA certificates say FAKE in their body.
 */

type Provider = 'aws' | 'gcp' | 'azure' | 'oci';
type Family = 'none' | 'nvidia-h100' | 'nvidia-h200' | 'nvidia-gb200' | 'amd-mi300x' | 'google-tpu' | 'aws-trainium';
type TierName = 'dev' | 'staging' | 'prod';
type Ring = 'canary' | 'early' | 'broad';
type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const PREFIX: Record<Provider, string> = { aws: 'aws', gcp: 'gcp', azure: 'azr', oci: 'oci' };

/** Region name → the short code used in cluster names (OCI's own region keys are airport codes). */
const REGION_CODES: Record<string, string> = {
  'us-east-1': 'use1',
  'us-east-2': 'use2',
  'us-west-2': 'usw2',
  'eu-west-1': 'euw1',
  'eu-central-1': 'euc1',
  'ap-northeast-1': 'apne1',
  'us-central1': 'usc1',
  'us-east4': 'use4',
  'us-east5': 'use5',
  'europe-west4': 'euw4',
  'asia-southeast1': 'asse1',
  'eastus': 'eus',
  'eastus2': 'eus2',
  'southcentralus': 'scus',
  'westeurope': 'weu',
  'swedencentral': 'swc',
  'us-ashburn-1': 'iad',
  'us-chicago-1': 'ord',
  'eu-frankfurt-1': 'fra',
  'uk-london-1': 'lhr',
  'ap-tokyo-1': 'nrt',
};

const FAMILY_SHORT: Record<Family, string> = {
  'none': 'cpu',
  'nvidia-h100': 'h100',
  'nvidia-h200': 'h200',
  'nvidia-gb200': 'gb200',
  'amd-mi300x': 'mi300x',
  'google-tpu': 'tpu',
  'aws-trainium': 'trn',
};

const TIER_SHORT: Record<TierName, string> = { dev: 'dev', staging: 'stg', prod: 'prod' };

/** Where each provider offers each family, roughly as the clouds do. */
const REGIONS: Record<Provider, Partial<Record<Family, string[]>>> = {
  aws: {
    'none': ['us-east-1', 'eu-west-1', 'us-west-2', 'eu-central-1', 'ap-northeast-1', 'us-east-2'],
    'nvidia-h100': ['us-east-1', 'us-west-2', 'ap-northeast-1', 'us-east-2'],
    'nvidia-h200': ['us-east-2', 'us-east-1', 'us-west-2'],
    'nvidia-gb200': ['us-east-1', 'us-west-2'],
    'aws-trainium': ['us-east-2', 'us-west-2', 'us-east-1'],
  },
  gcp: {
    'none': ['us-central1', 'europe-west4', 'us-east4', 'asia-southeast1'],
    'nvidia-h100': ['us-central1', 'europe-west4', 'us-east4', 'asia-southeast1'],
    'nvidia-h200': ['us-central1', 'europe-west4'],
    'nvidia-gb200': ['us-central1', 'us-east4'],
    'google-tpu': ['us-east5', 'europe-west4', 'us-central1'],
  },
  azure: {
    'none': ['eastus', 'westeurope', 'eastus2', 'swedencentral'],
    'nvidia-h100': ['eastus', 'southcentralus', 'westeurope', 'swedencentral'],
    'nvidia-h200': ['eastus2', 'swedencentral'],
    'nvidia-gb200': ['southcentralus', 'eastus'],
    'amd-mi300x': ['eastus', 'westeurope', 'swedencentral'],
  },
  oci: {
    'none': ['us-ashburn-1', 'eu-frankfurt-1', 'uk-london-1', 'ap-tokyo-1'],
    'nvidia-h100': ['us-ashburn-1', 'eu-frankfurt-1', 'uk-london-1'],
    'nvidia-h200': ['us-chicago-1', 'us-ashburn-1'],
    'nvidia-gb200': ['us-chicago-1', 'us-ashburn-1'],
    'amd-mi300x': ['us-chicago-1', 'eu-frankfurt-1'],
  },
};

/**
 * How many clusters of each provider × family: dev, staging, then prod by ring. Staging and the
 * early and broad rings hold every pair; dev and the canary ring hold every family and provider.
 */
const PLAN: Array<[Provider, Family, number, number, Record<Ring, number>]> = [
  ['aws', 'none', 1, 1, { canary: 1, early: 1, broad: 5 }],
  ['aws', 'nvidia-h100', 1, 1, { canary: 0, early: 1, broad: 4 }],
  ['aws', 'nvidia-h200', 1, 1, { canary: 0, early: 1, broad: 2 }],
  ['aws', 'nvidia-gb200', 0, 1, { canary: 0, early: 1, broad: 1 }],
  ['aws', 'aws-trainium', 1, 1, { canary: 1, early: 1, broad: 2 }],
  ['gcp', 'none', 1, 1, { canary: 0, early: 1, broad: 3 }],
  ['gcp', 'nvidia-h100', 1, 1, { canary: 1, early: 1, broad: 3 }],
  ['gcp', 'nvidia-h200', 0, 1, { canary: 0, early: 1, broad: 1 }],
  ['gcp', 'nvidia-gb200', 1, 1, { canary: 0, early: 1, broad: 1 }],
  ['gcp', 'google-tpu', 1, 1, { canary: 1, early: 1, broad: 2 }],
  ['azure', 'none', 1, 1, { canary: 0, early: 1, broad: 2 }],
  ['azure', 'nvidia-h100', 1, 1, { canary: 0, early: 1, broad: 3 }],
  ['azure', 'nvidia-h200', 0, 1, { canary: 1, early: 1, broad: 1 }],
  ['azure', 'nvidia-gb200', 0, 1, { canary: 0, early: 1, broad: 1 }],
  ['azure', 'amd-mi300x', 1, 1, { canary: 1, early: 1, broad: 2 }],
  ['oci', 'none', 1, 1, { canary: 0, early: 1, broad: 1 }],
  ['oci', 'nvidia-h100', 0, 1, { canary: 0, early: 1, broad: 1 }],
  ['oci', 'nvidia-h200', 1, 1, { canary: 0, early: 1, broad: 1 }],
  ['oci', 'nvidia-gb200', 1, 1, { canary: 1, early: 1, broad: 1 }],
  ['oci', 'amd-mi300x', 1, 1, { canary: 0, early: 1, broad: 1 }],
];

/** Accelerators per cluster: whole nodes (8 GPUs), NVL72 racks, TPU slices, Trn2 instances (16 chips). */
const COUNTS: Record<Exclude<Family, 'none'>, Record<TierName, number[]>> = {
  'nvidia-h100': { dev: [8, 16], staging: [16, 32], prod: [64, 128, 256, 512] },
  'nvidia-h200': { dev: [8], staging: [16, 32], prod: [64, 128, 256] },
  'nvidia-gb200': { dev: [72], staging: [72], prod: [144, 288, 576] },
  'amd-mi300x': { dev: [8, 16], staging: [16, 32], prod: [64, 128, 256] },
  'google-tpu': { dev: [8, 16], staging: [16, 32], prod: [64, 128, 256] },
  'aws-trainium': { dev: [16], staging: [32], prod: [64, 128, 256] },
};

const VERSIONS: Record<TierName, string[]> = {
  dev: ['1.32', '1.32', '1.31'],
  staging: ['1.31', '1.32', '1.30', '1.31'],
  prod: ['1.31', '1.30', '1.31', '1.29', '1.30', '1.31', '1.32'],
};

/** AWS's documentation example account ids, one per tier. */
const AWS_ACCOUNTS: Record<TierName, string> = { dev: '111122223333', staging: '444455556666', prod: '777788889999' };

interface Planned {
  readonly name: string;
  readonly provider: Provider;
  readonly region: string;
  readonly family: Family;
  readonly tier: TierName;
  readonly ring?: Ring;
  /** Position among the clusters of its provider, to vary optional fields. */
  readonly nth: number;
}

function hash(seed: string): Buffer {
  return createHash('sha256').update(seed).digest();
}

function hex(seed: string, length: number): string {
  return hash(seed).toString('hex').slice(0, length);
}

function octets(seed: string): number[] {
  return [...hash(seed).subarray(0, 3)].map(b => 1 + (b % 254));
}

function plan(): Planned[] {
  const planned: Planned[] = [];
  const serial = new Map<string, number>();
  const perProvider = new Map<Provider, number>();
  for (const [provider, family, dev, staging, rings] of PLAN) {
    const regions = REGIONS[provider][family]!;
    let regionIndex = 0;
    const slots: Array<[TierName, Ring | undefined, number]> = [
      ['dev', undefined, dev], ['staging', undefined, staging],
      ['prod', 'canary', rings.canary], ['prod', 'early', rings.early], ['prod', 'broad', rings.broad],
    ];
    for (const [tier, ring, count] of slots) {
      for (let i = 0; i < count; i++) {
        const region = regions[regionIndex++ % regions.length];
        const base = `${PREFIX[provider]}-${REGION_CODES[region]}-${FAMILY_SHORT[family]}-${TIER_SHORT[tier]}`;
        const n = (serial.get(base) ?? 0) + 1;
        serial.set(base, n);
        const nth = perProvider.get(provider) ?? 0;
        perProvider.set(provider, nth + 1);
        planned.push({ name: `${base}-${String(n).padStart(2, '0')}`, provider, region, family, tier, ring, nth });
      }
    }
  }
  return planned;
}

function endpoint(c: Planned, salt: string): string {
  const seed = `${c.name}${salt}`;
  switch (c.provider) {
    case 'aws': return `https://${hex(seed, 32).toUpperCase()}.gr7.${c.region}.eks.amazonaws.com`;
    case 'gcp': return `https://${[hash(seed)[3] % 2 === 0 ? 34 : 35, ...octets(seed)].join('.')}`;
    case 'azure': return `https://${c.name}-${hex(seed, 8)}.hcp.${c.region}.azmk8s.io`;
    case 'oci': return `https://${[[129, 132, 138, 150, 152, 158][hash(seed)[3] % 6], ...octets(seed)].join('.')}:6443`;
  }
}

function fakeCaData(name: string): string {
  const pem = `-----BEGIN CERTIFICATE-----\nFAKE-CA-FOR-TESTS-ONLY/${name}\nTHIS-IS-NOT-A-REAL-CERTIFICATE\n-----END CERTIFICATE-----\n`;
  return Buffer.from(pem).toString('base64');
}

/** The name AWS knows an EKS cluster by, as an EKS module names it. */
function eksName(c: Planned): string {
  return `eks-${c.name.replace(/^aws-/, '')}`;
}

function auth(c: Planned): Json | undefined {
  switch (c.provider) {
    case 'aws':
      // Some clusters live in the tier's own account and are reached through a role Argo CD assumes.
      // The EKS name is AWS's, not the fleet's: Argo CD mints its token for it.
      return c.nth % 3 === 1
        ? { type: 'eks', cluster_name: eksName(c), role_arn: `arn:aws:iam::${AWS_ACCOUNTS[c.tier]}:role/argocd-fleet-deployer` }
        : { type: 'eks', cluster_name: eksName(c) };
    case 'gcp':
      return c.nth % 2 === 0 ? undefined : { type: 'gke' };
    case 'azure':
      if (c.nth % 3 === 0) return undefined;
      return c.nth % 3 === 1 ? { type: 'aks' } : { type: 'aks', login_method: 'workloadidentity', environment: 'AzurePublicCloud' };
    case 'oci': {
      const ocid = `ocid1.cluster.oc1.${REGION_CODES[c.region]}.aaaaaaaa${hex(`${c.name}/ocid`, 52)}`;
      const result: { [key: string]: Json } = {
        type: 'exec',
        command: 'oci',
        args: ['ce', 'cluster', 'generate-token', '--cluster-id', ocid, '--region', c.region],
        env: { OCI_CLI_AUTH: 'instance_principal' },
      };
      if (c.nth % 2 === 0) {
        result.api_version = 'client.authentication.k8s.io/v1beta1';
        result.install_hint = 'the oci cli ships in the platform argo cd image (platform/argocd/Dockerfile)';
      }
      return result;
    }
  }
}

function acceleratorCount(c: Planned): number | undefined {
  if (c.family === 'none') return c.nth % 2 === 0 ? 0 : undefined;
  const counts = COUNTS[c.family][c.tier];
  return counts[c.nth % counts.length];
}

/**
 * Sovereign-region OCI clusters and edge sites run their own Argo CD, each reached through its own
 * Kargo shard (a Kargo controller talks to exactly one Argo CD).
 */
function perClusterArgoCd(clusters: Planned[]): Map<string, Json> {
  const result = new Map<string, Json>();
  const byName = [...clusters].sort((a, b) => (a.name < b.name ? -1 : 1));
  for (const c of byName.filter(x => x.provider === 'oci' && x.tier === 'prod' && (x.region.startsWith('eu-') || x.region.startsWith('uk-')))) {
    result.set(c.name, { mode: 'per-cluster', kargo_shard: `kargo-${c.name}` });
  }
  const edge = byName.filter(x => (x.provider === 'aws' || x.provider === 'azure') && x.family === 'none' && x.ring === 'broad');
  for (const c of [...edge.filter(x => x.provider === 'aws').slice(0, 4), ...edge.filter(x => x.provider === 'azure').slice(0, 2)]) {
    result.set(c.name, result.size % 2 === 0 ? { mode: 'per-cluster' } : { mode: 'per-cluster', namespace: 'argocd-edge' });
  }
  return result;
}

function entry(c: Planned, server: string, argocd: Json | undefined): { [key: string]: Json } {
  const e: { [key: string]: Json } = {
    endpoint: server,
    provider: c.provider,
    region: c.region,
    tier: c.tier,
    kubernetes_version: VERSIONS[c.tier][c.nth % VERSIONS[c.tier].length],
  };
  // Modules differ in how much they spell out: CPU clusters sometimes omit accelerator altogether.
  if (c.family !== 'none' || c.nth % 3 !== 0) e.accelerator = c.family;
  const n = acceleratorCount(c);
  if (n !== undefined) e.accelerator_count = n;
  // the NVIDIA GPU operator's CRDs, which GPU charts test with .Capabilities.APIVersions.Has
  if (c.family.startsWith('nvidia-')) e.api_versions = ['nvidia.com/v1'];
  const labels: { [key: string]: Json } = {};
  if (c.ring) labels.ring = c.ring;
  if (argocd !== undefined && c.provider !== 'oci') labels.site = 'edge';
  if (Object.keys(labels).length > 0) e.labels = labels;
  // Required for every managed control plane the central Argo CD reaches; some clusters with
  // their own Argo CD output it anyway.
  if (argocd === undefined || c.provider === 'oci' || c.nth % 3 === 1) e.ca_data = fakeCaData(c.name);
  const a = auth(c);
  if (a !== undefined) e.auth = a;
  if (argocd !== undefined) e.argocd = argocd;
  return e;
}

/** Terraform prints object attributes and map keys sorted. */
function sorted(value: Json): Json {
  if (Array.isArray(value)) return value.map(sorted);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.keys(value).sort().map(k => [k, sorted(value[k])]));
}

/** The type `terraform output -json` prints for a value built from object and tuple literals. */
function terraformType(value: Json, key?: string): Json {
  if (typeof value === 'string') return 'string';
  if (typeof value === 'number') return 'number';
  if (typeof value === 'boolean') return 'bool';
  if (value === null) return 'dynamic';
  if (Array.isArray(value)) return key === 'args' || key === 'api_versions' ? ['list', 'string'] : ['tuple', value.map(v => terraformType(v))];
  if (key === 'labels' || key === 'env') return ['map', 'string'];
  return ['object', Object.fromEntries(Object.entries(value).map(([k, v]) => [k, terraformType(v, k)]))];
}

/** The fixture's text, exactly as committed. */
export function generateFixture(): string {
  const planned = plan();
  const argocd = perClusterArgoCd(planned);
  const servers = new Set<string>();
  const clusters: { [key: string]: Json } = {};
  for (const c of planned) {
    let salt = '';
    while (servers.has(endpoint(c, salt))) salt += '+';
    servers.add(endpoint(c, salt));
    if (clusters[c.name] !== undefined) throw new Error(`duplicate cluster name ${c.name}`);
    clusters[c.name] = entry(c, endpoint(c, salt), argocd.get(c.name));
  }
  const vpcIds: { [key: string]: Json } = {};
  for (const region of [...new Set(planned.filter(c => c.provider === 'aws').map(c => c.region))]) {
    vpcIds[region] = `vpc-0${hex(`vpc/${region}`, 16)}`;
  }
  const value = sorted(clusters);
  const doc = {
    clusters: { sensitive: false, type: terraformType(value), value },
    fleet_registry_db_endpoint: {
      sensitive: true,
      type: 'string',
      value: 'fleet-registry.cluster-cfakeexample01.us-east-1.rds.amazonaws.com:5432',
    },
    vpc_ids: { sensitive: false, type: ['map', 'string'], value: sorted(vpcIds) },
  };
  return `${JSON.stringify(doc, undefined, 2)}\n`;
}

if (process.argv[1] !== undefined && /generate-fixture\.ts$/.test(process.argv[1])) {
  const file = path.join(__dirname, 'clusters.tfoutput.json');
  writeFileSync(file, generateFixture());
  console.log(`wrote ${path.relative(process.cwd(), file)}`);
}
