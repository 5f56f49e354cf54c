import fc from 'fast-check';
import { ApprovalSpec, ArgSpec, BudgetSpec, CheckSpec, ClusterSpec, FleetSpec, FreezeSpec, PipelineSpec, SelSpec, StageSpec, WavesSpec } from './model';
import { Comparison, PlatformLabels } from '../../src';

// ---------------------------------------------------------------------------------------------
// Generators: valid definitions by construction, then (in a fraction of the cases) one defect
// ---------------------------------------------------------------------------------------------

/** A value one time in `freq`, else undefined. */
export function maybe<T>(arb: fc.Arbitrary<T>, freq = 2): fc.Arbitrary<T | undefined> {
  return fc.oneof({ arbitrary: fc.constant(undefined), weight: freq - 1 }, { arbitrary: arb, weight: 1 });
}

/** Undefined one time in `freq`, else a value. */
export function often<T>(arb: fc.Arbitrary<T>, freq = 2): fc.Arbitrary<T | undefined> {
  return fc.option(arb, { nil: undefined, freq });
}

/** Drops the undefined members, so counterexamples print compactly. */
export function clean<T>(value: T): T {
  return JSON.parse(JSON.stringify(value));
}

export const PROVIDERS = ['aws', 'gcp', 'azure', 'oci', 'on-prem'];
export const REGIONS = ['us-east-1', 'us-central1', 'europe-west4', 'eastus', 'ap-tokyo-1', 'dc1'];
export const TIERS = ['dev', 'qa', 'staging', 'prod', 'edge'];
export const ACCELERATORS = ['none', 'nvidia-h100', 'nvidia-h200', 'amd-mi300x', 'google-tpu', 'nvidia-b200'];
export const RINGS = ['canary', 'early', 'broad'];

export const clusterName = fc.oneof(
  { arbitrary: fc.stringMatching(/^[a-z][a-z0-9]{0,5}(-[a-z0-9]{1,6}){0,3}$/), weight: 200 },
  // valid DNS labels that YAML or Kargo expressions could take for something else
  { arbitrary: fc.constantFrom('y', 'n', 'on', 'off', 'yes', 'no', 'true', 'null', '1e3', '0755', '123', '0x1f', '1-2', 'nan', 'inf', '0o17', '2024-01-01'), weight: 8 },
  // names with double dashes, which per-cluster chart ids (<app>--<cluster>) contain too
  { arbitrary: fc.stringMatching(/^[a-z]{1,4}--[a-z0-9]{1,4}$/), weight: 4 },
  { arbitrary: fc.stringMatching(/^[a-z][a-z0-9-]{40,61}[a-z0-9]$/), weight: 1 },
);

/** A cluster before `finishClusters`; `server` picks the form of its URL. */
export type RawCluster = Omit<ClusterSpec, 'server'> & { server: number };

export const clusterArb: fc.Arbitrary<RawCluster> = fc.record({
  name: clusterName,
  provider: fc.constantFrom(...PROVIDERS),
  region: fc.constantFrom(...REGIONS),
  tier: fc.constantFrom(...TIERS),
  accelerator: maybe(fc.constantFrom(...ACCELERATORS), 3),
  acceleratorCount: maybe(fc.integer({ min: 1, max: 64 })),
  // a Helm app needs every cluster's version: leave it out rarely, so most generated fleets are renderable
  kubernetesVersion: fc.oneof({ arbitrary: fc.constantFrom('1.29', '1.30', '1.31', '1.32', 'v1.31.4', '1.30.2-eks'), weight: 30 }, { arbitrary: fc.constant(undefined), weight: 1 }),
  labels: maybe(fc.record({
    'ring': often(fc.constantFrom(...RINGS), 3),
    'zone': maybe(fc.constantFrom('a', 'b'), 3),
    'team.example.com/owner': maybe(fc.constantFrom('platform', 'ml'), 4),
  }, { requiredKeys: [] }), 2),
  auth: maybe(fc.oneof(
    fc.record({
      k: fc.constant('exec' as const),
      command: fc.constantFrom('oci-auth', 'kubelogin'),
      args: maybe(fc.constant<string[]>(['get-token'])),
      env: maybe(fc.constant<Record<string, string>>({ REGION: 'x' })),
    }, { requiredKeys: ['k', 'command'] }),
    fc.record({ k: fc.constant('eks' as const), roleArn: maybe(fc.constant('arn:aws:iam::123456789012:role/argocd')) }, { requiredKeys: ['k'] }),
    fc.constant({ k: 'gke' as const }),
    fc.constant({ k: 'aks' as const }),
  ), 4),
  caData: maybe(fc.constant('LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0t'), 8),
  argoCd: maybe(fc.oneof(
    { arbitrary: fc.constant({ k: 'central' as const }), weight: 1 },
    {
      arbitrary: fc.record({
        k: fc.constant('per-cluster' as const),
        kargoShard: maybe(fc.constantFrom('edge-shard', 'kargo-a'), 3),
        namespace: maybe(fc.constantFrom('argocd', 'argo-cd'), 3),
      }, { requiredKeys: ['k'] }),
      weight: 2,
    }), 5),
  shard: maybe(fc.integer({ min: 0, max: 3 }), 12),
  server: fc.constantFrom(0, 0, 0, 1, 1, 2, 3), // host name, IP address, path (Rancher-style), IPv6
}, { requiredKeys: ['name', 'provider', 'region', 'tier', 'server', 'kubernetesVersion'] });

/** Unique servers and Kargo shards, counts only with accelerators, auth where the provider needs it. */
export function finishClusters(raw: RawCluster[], fleetPerCluster: boolean, shards: number | undefined): ClusterSpec[] {
  return raw.map(({ server, ...c }, i) => {
    const accelerated = c.accelerator !== undefined && c.accelerator !== 'none';
    const cluster: ClusterSpec = {
      ...c,
      server: [`https://${c.name}.k8s.example.com`, `https://10.0.${Math.floor(i / 200)}.${(i % 200) + 1}`, `https://api.example.com:6443/k8s/clusters/c-${i}`,
        `https://[2001:db8::${(i + 1).toString(16)}]:6443`][server % 4],
      acceleratorCount: accelerated ? c.acceleratorCount ?? 8 : undefined,
    };
    const central = c.argoCd ? c.argoCd.k === 'central' : !fleetPerCluster;
    // the central Argo CD needs the CA of every managed control plane, and a way into EKS
    // (and of any API server at an IP address, which no public certificate names)
    const ipServer = /^https:\/\/(\d|\[)/.test(cluster.server);
    if (central && (ipServer || ['aws', 'gcp', 'azure', 'oci'].includes(c.provider))) cluster.caData ??= 'LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0t';
    if (central && c.provider === 'aws' && cluster.auth === undefined) cluster.auth = { k: 'eks' };
    if ((c.provider === 'oci' || c.provider === 'on-prem') && central && c.auth?.k !== 'exec') cluster.auth = { k: 'exec', command: `${c.provider}-auth` };
    if (c.shard !== undefined && (!central || shards === undefined || c.shard >= shards)) delete cluster.shard;
    if (c.argoCd?.k === 'per-cluster' && c.argoCd.kargoShard !== undefined) cluster.argoCd = { ...c.argoCd, kargoShard: `${c.argoCd.kargoShard}-${i}` };
    return clean(cluster);
  });
}

export const fleetArb: fc.Arbitrary<FleetSpec> = fc.record({
  fromTerraform: fc.integer({ min: 0, max: 5 }).map(n => n === 0),
  perCluster: fc.integer({ min: 0, max: 9 }).map(n => n === 0),
  shards: maybe(fc.integer({ min: 1, max: 4 }), 4),
  fleetName: maybe(fc.constantFrom('prod-fleet', 'edge'), 6),
  argoCdNamespace: maybe(fc.constant('gitops'), 8),
  clusters: fc.uniqueArray(clusterArb, { minLength: 1, maxLength: 30, selector: c => c.name }),
}).map(f => clean({
  fromTerraform: f.fromTerraform,
  fleetName: f.fleetName,
  argoCdNamespace: f.argoCdNamespace,
  topology: f.perCluster ? { k: 'per-cluster' } : undefined,
  shards: f.shards,
  clusters: finishClusters(f.clusters, f.perCluster, f.shards),
}));

// ----- pipelines, derived from the fleet: each stage selects a slice of the clusters

export const STAGE_NAMES = ['dev', 'test', 'qa', 'staging', 'preprod', 'prod', 'prod-eu', 'canary', 'edge', 'dr'];
/** Stage names that look like the Kargo Stages of another stage's waves. */
export const LOOKALIKE_STAGE_NAMES = ['prod-w1', 'prod-w2', 'prod-canary', 'prod-broad', 'dev-w1', 'staging-early'];

export interface Member { readonly index: number; readonly c: ClusterSpec }

export type PartitionKey = 'tier' | 'provider' | 'accelerator' | 'region' | 'ring' | 'names';

export function valueOf(key: PartitionKey, c: ClusterSpec): string {
  switch (key) {
    case 'tier': return c.tier;
    case 'provider': return c.provider;
    case 'accelerator': return c.accelerator ?? 'none';
    case 'region': return c.region;
    case 'ring': return c.labels?.ring ?? '';
    case 'names': return c.name;
  }
}

export function sortValues(key: PartitionKey, values: string[]): string[] {
  const order = key === 'tier' ? TIERS : key === 'ring' ? RINGS : [];
  return [...values].sort((a, b) => {
    const ia = order.indexOf(a);
    const ib = order.indexOf(b);
    return ia !== ib ? (ia < 0 ? 99 : ia) - (ib < 0 ? 99 : ib) : a.localeCompare(b);
  });
}

export const PARTITION_LABELS: Record<string, string> = {
  tier: PlatformLabels.TIER, provider: PlatformLabels.PROVIDER, accelerator: PlatformLabels.ACCELERATOR, region: PlatformLabels.REGION,
};

/** A selector of exactly the clusters whose partition value is in `group`, in one of several equivalent forms. */
export function groupSelector(key: PartitionKey, group: string[], all: string[], style: number): SelSpec {
  if (group.length === all.length) return style % 2 === 0 ? { k: 'all' } : { k: 'expr', key: PlatformLabels.CLUSTER, op: 'Exists' };
  const others = all.filter(v => !group.includes(v));
  switch (key) {
    case 'ring': {
      // '' stands for the clusters without a ring label
      if (group.includes('')) {
        return group.length === 1 && style % 2 === 1 ? { k: 'expr', key: 'ring', op: 'DoesNotExist' } : { k: 'expr', key: 'ring', op: 'NotIn', values: others };
      }
      if (style % 3 === 0 && !others.includes('')) return { k: 'expr', key: 'ring', op: 'NotIn', values: others };
      return group.length === 1 ? { k: 'labels', v: { ring: group[0] } } : { k: 'expr', key: 'ring', op: 'In', values: group };
    }
    case 'names':
      return { k: 'names', v: group };
    default: {
      const label = PARTITION_LABELS[key];
      if (style % 5 === 1) return { k: 'expr', key: label, op: 'NotIn', values: others };
      if (style % 5 === 2) return { k: 'and', of: [{ k: key, v: group }, { k: 'expr', key: PlatformLabels.TOPOLOGY, op: 'Exists' }] };
      if (style % 5 === 3 && group.length === 1) return { k: 'labels', v: { [label]: group[0] } };
      // the same label twice: .and() keeps one matchLabels entry
      if (style % 5 === 4 && group.length === 1) return { k: 'and', of: [{ k: 'labels', v: { [label]: group[0] } }, { k: key, v: group }, { k: 'labels', v: { [label]: group[0] } }] };
      return { k: key, v: group } as SelSpec;
    }
  }
}

/** Selectors picked at random: they may overlap, select nothing, or be malformed. */
export const randomSelector: fc.Arbitrary<SelSpec> = fc.oneof(
  fc.constant({ k: 'all' } as SelSpec),
  fc.record({ k: fc.constant('tier' as const), v: fc.subarray(TIERS, { minLength: 1 }) }),
  fc.record({ k: fc.constant('provider' as const), v: fc.subarray(PROVIDERS, { minLength: 1 }) }),
  fc.record({ k: fc.constant('accelerator' as const), v: fc.subarray(ACCELERATORS, { minLength: 1 }) }),
  fc.record({ k: fc.constant('labels' as const), v: fc.constantFrom<Record<string, string>>({ ring: 'canary' }, { zone: 'a' }, { ring: 'broad', zone: 'b' }) }),
  fc.record({
    key: fc.constantFrom('ring', 'zone', PlatformLabels.TIER, PlatformLabels.ACCELERATOR),
    op: fc.constantFrom('In', 'NotIn', 'Exists', 'DoesNotExist'),
    values: fc.subarray(['canary', 'broad', 'a', 'prod', 'nvidia-h100'], { minLength: 1 }),
  }).map(e => clean({ k: 'expr' as const, ...e, values: e.op === 'In' || e.op === 'NotIn' ? e.values : undefined })),
);

export const randomSelectorAnd: fc.Arbitrary<SelSpec> = fc.oneof(
  { arbitrary: randomSelector, weight: 3 },
  { arbitrary: fc.array(randomSelector, { minLength: 2, maxLength: 3 }).map(of => ({ k: 'and', of }) as SelSpec), weight: 1 },
);

export const approvalArb: fc.Arbitrary<ApprovalSpec> = fc.oneof(
  { arbitrary: fc.constant({ k: 'automatic' as const }), weight: 4 },
  { arbitrary: fc.record({ k: fc.constant('manual' as const), promoters: maybe(fc.constant<string[]>(['sre', 'release-managers']), 3) }, { requiredKeys: ['k'] }), weight: 4 },
  {
    arbitrary: fc.record({
      k: fc.constant('pr' as const),
      promoters: maybe(fc.constant<string[]>(['sre'])),
      labels: maybe(fc.constant<string[]>(['release', 'kargo'])),
      open: maybe(fc.boolean()),
    }, { requiredKeys: ['k'] }),
    weight: 2,
  },
);

export const budgetArb: fc.Arbitrary<BudgetSpec> = fc.record({
  maxClusters: maybe(fc.integer({ min: 1, max: 12 })),
  maxPercent: maybe(fc.integer({ min: 10, max: 100 })),
}, { requiredKeys: [] });

// ----- verification checks (valid; defects are injected later)

export const argValueArb: fc.Arbitrary<ArgSpec> = fc.oneof(
  { arbitrary: fc.constantFrom('{stage}', 'v1', 'gateway').map(text => ({ k: 'value' as const, text })), weight: 4 },
  { arbitrary: fc.constant({ k: 'expr' as const, text: 'ctx.stage' }), weight: 2 },
  { arbitrary: fc.constant({ k: 'imageTag' as const, repo: 'ghcr.io/acme/api' }), weight: 1 },
  { arbitrary: fc.constant({ k: 'commit' as const, url: 'https://github.com/acme/api.git' }), weight: 1 },
);

// some are named like a wave plus a check, so generated template and metric names can collide
export const CHECK_NAMES = ['health', 'errors', 'smoke', 'latency', 'ready', 'slo', 'w1-health', 'canary-health', 'broad-smoke'];
export const checkNameArb = maybe(fc.constantFrom(...CHECK_NAMES), 6);

export const httpCheckArb: fc.Arbitrary<CheckSpec> = fc.record({
  name: checkNameArb,
  url: fc.constantFrom(
    'https://api.{cluster}.example.com/healthz',
    'https://{region}.status.example.com/{stage}/{tier}',
    'http://gateway.example.com/health',
    'https://{provider}.example.com/{accelerator}?app={{args.app}}',
  ),
  method: maybe(fc.constantFrom('GET', 'POST', 'PUT'), 4),
  headers: maybe(fc.constantFrom<Record<string, string>>({ 'X-Cluster': '{cluster}' }, { Authorization: 'Bearer {{args.token}}' })),
  jsonPath: fc.boolean(),
  condition: maybe(fc.constantFrom('result == \'UP\'', 'true'), 3),
  count: fc.integer({ min: 1, max: 6 }),
  failureLimit: fc.nat(),
  intervalMs: maybe(fc.constantFrom(10_000, 60_000), 4),
  timeoutMs: maybe(fc.constant(5000), 4),
  dryRun: maybe(fc.boolean(), 4),
}, { requiredKeys: ['url', 'jsonPath', 'count', 'failureLimit'] }).map(c => {
  const args: Record<string, ArgSpec> = {};
  if (c.url.includes('{{args.app}}')) args.app = { k: 'value', text: 'gateway' };
  if (c.headers?.Authorization) args.token = { k: 'secret', name: 'probe-token', key: 'token' };
  return clean({
    k: 'http' as const,
    ...c,
    jsonPath: c.jsonPath && c.condition ? '{$.status}' : undefined,
    body: c.method && c.method !== 'GET' ? '{"cluster": "{cluster}"}' : undefined,
    failureLimit: c.failureLimit % c.count,
    args: Object.keys(args).length > 0 ? args : undefined,
  });
});

export const promCheckArb: fc.Arbitrary<CheckSpec> = fc.record({
  name: checkNameArb,
  address: fc.constantFrom('http://prometheus.{region}.example.com:9090', 'https://thanos.example.com'),
  query: fc.constantFrom(
    'sum(rate(http_requests_total{cluster="{cluster}",code=~"5.."}[5m])) / sum(rate(http_requests_total{cluster="{cluster}"}[5m]))',
    'up{job="gateway",stage="{stage}"}',
    'sum(rate(errors{app="{{args.app}}"}[5m]))',
  ),
  condition: fc.boolean(),
  threshold: fc.constantFrom(0.01, 1, 0),
  comparison: fc.constantFrom(...Object.values(Comparison)),
  count: maybe(fc.integer({ min: 2, max: 5 }), 3),
}, { requiredKeys: ['address', 'query', 'condition', 'threshold', 'comparison'] }).map(c => clean({
  k: 'prometheus' as const,
  name: c.name,
  address: c.address,
  query: c.query,
  count: c.count,
  ...c.condition ? { condition: 'len(result) > 0 && result[0] < 0.05' } : { threshold: c.threshold, comparison: c.comparison },
  args: c.query.includes('{{args.app}}') ? { app: { k: 'value' as const, text: 'gateway' } } : undefined,
}));

export const jobCheckArb: fc.Arbitrary<CheckSpec> = fc.record({
  name: checkNameArb,
  image: fc.constantFrom('ghcr.io/acme/smoke:1.4.0', 'ghcr.io/acme/smoke:{{args.version}}'),
  command: maybe(fc.constant<string[]>(['/bin/smoke'])),
  containerArgs: maybe(fc.constantFrom<string[]>(['--target', 'https://api.{cluster}.example.com'], ['--stage', '{stage}'])),
  env: maybe(fc.constantFrom<Record<string, string>>({ REGION: '{region}' }, { API_TOKEN: '{{args.token}}' })),
}, { requiredKeys: ['image'] }).map(c => {
  const args: Record<string, ArgSpec> = {};
  if (c.image.includes('{{args.version}}')) args.version = { k: 'imageTag', repo: 'ghcr.io/acme/api' };
  if (c.env?.API_TOKEN) args.token = { k: 'secret', name: 'smoke', key: 'token' };
  return clean({ k: 'job' as const, ...c, args: Object.keys(args).length > 0 ? args : undefined });
});

export const templateCheckArb: fc.Arbitrary<CheckSpec> = fc.record({
  name: fc.constantFrom('shared-smoke', 'org.slo-check'),
  clusterScoped: maybe(fc.boolean()),
  args: maybe(fc.record({ service: argValueArb })),
}, { requiredKeys: ['name'] }).map(c => clean({ k: 'template' as const, ...c }));

export const checkArb: fc.Arbitrary<CheckSpec> = fc.oneof(
  { arbitrary: httpCheckArb, weight: 4 },
  { arbitrary: promCheckArb, weight: 2 },
  { arbitrary: jobCheckArb, weight: 2 },
  { arbitrary: templateCheckArb, weight: 1 },
);

export function checkName(c: CheckSpec): string {
  return c.name ?? c.k;
}

/** 1 to `max` checks with distinct names, each name tagged so lists of different owners do not clash. */
export function checksArb(max: number, tag: string): fc.Arbitrary<CheckSpec[]> {
  return fc.uniqueArray(checkArb, { minLength: 1, maxLength: max, selector: checkName })
    .map(list => list.map(c => ({ ...c, name: `${checkName(c)}${tag}` })));
}

/** Turns a chain of stages into a graph: a diamond, a control-flow gate before the last stage, or a fan-out of the last stage. */
function asGraph(stages: StageSpec[], g: { graph: string; anyJoin: boolean; style: number }): StageSpec[] {
  const join = g.anyJoin ? 'any' as const : undefined;
  if (g.graph === 'diamond' && stages.length >= 3) {
    // two stages after one upstream share its soak: it is waited once, in that upstream's checks
    stages[2] = clean({ ...stages[2], after: [stages[0].name], soakMs: stages[1].soakMs });
    if (stages.length >= 4) stages[3] = { ...stages[3], after: [stages[1].name, stages[2].name], join };
  } else if (g.graph === 'gate' && stages.length >= 2) {
    // the soak, if any, is the gate's (Freight never soaks in a control-flow Stage), and the stages
    // the gate follows, each also followed by the next, share it: one upstream waits one soak
    const soakMs = g.style % 2 === 0 ? 60_000 : undefined;
    const gate: StageSpec = clean({ name: 'gate-cf', after: stages.slice(0, -1).map(s => s.name), join, soakMs });
    const before = stages.slice(0, -1).map((s, i) => (i === 0 ? s : clean({ ...s, soakMs })));
    return [...before, gate, clean({ ...stages[stages.length - 1], soakMs: undefined })];
  } else if (g.graph === 'fan') {
    const last = stages[stages.length - 1];
    stages[stages.length - 1] = { ...last, fanOut: g.style % 2 === 0 ? PlatformLabels.PROVIDER : PlatformLabels.REGION };
  }
  return stages;
}

/**
 * Kargo's quickstart shape: a copy of the first stage, on the same clusters in a namespace of its
 * own (`<stage>-uat`), follows it; the first stage keeps the app's namespace or gets its own too.
 */
function withSharedStage(stages: StageSpec[], style: number): StageSpec[] {
  const first = stages[0];
  if (first.sel === undefined) return stages;
  const copy: StageSpec = clean({ ...first, name: `${first.name}-uat`, after: undefined, ns: style % 2 === 0 ? '{app}-{stage}' : '{stage}-{app}' });
  const own = style % 3 === 0 ? { ...first, ns: 'ns-{app}-{stage}' } : first;
  return [own, copy, ...stages.slice(1)];
}

/** A pipeline whose stages partition the fleet by one attribute, with the clusters of each stage. */
export function pipelineArb(clusters: ClusterSpec[], id: string, tag: string): fc.Arbitrary<{ pipeline: PipelineSpec; members: Member[][] }> {
  const members: Member[] = clusters.map((c, index) => ({ index, c }));
  return pipelineGenesArb(tag).map(g => pipelineOf(g, members, id));
}

/** The random choices a pipeline is made from. */
function pipelineGenesArb(tag: string) {
  return fc.record({
    key: fc.constantFrom<PartitionKey>('tier', 'tier', 'provider', 'accelerator', 'region', 'ring', 'names'),
    stageCount: fc.integer({ min: 1, max: 4 }),
    style: fc.nat(),
    names: fc.shuffledSubarray(STAGE_NAMES, { minLength: 4, maxLength: 4 }),
    lookalike: fc.integer({ min: 0, max: 9 }),
    stageOptions: fc.tuple(...Array.from({ length: 4 }, () => fc.record({
      approval: often(approvalArb, 6),
      wavesKind: fc.constantFrom('none', 'single', 'label', 'label', 'count', 'pct'),
      count: fc.integer({ min: 1, max: 5 }),
      pct: fc.subarray([1, 5, 10, 20, 25, 33, 50, 75, 90]).map(p => [...p, 100]),
      extraRing: fc.boolean(),
      soakMs: maybe(fc.constantFrom(30, 60, 90, 3600, 5400).map(s => s * 1000), 2),
      production: maybe(fc.boolean(), 5),
      budget: fc.integer({ min: 0, max: 3 }),
      randomBudget: maybe(budgetArb, 80),
      checks: maybe(checksArb(2, `-${tag}`), 5),
      freeze: maybe(freezeArb, 5),
    }))),
    budget: maybe(fc.constantFrom<BudgetSpec>({ maxPercent: 100 }, { maxClusters: 30 }), 6),
    random: fc.integer({ min: 0, max: 11 }),
    // chains, or graphs: a diamond (two stages after the first, joined), a control-flow gate, a fan-out
    graph: fc.constantFrom('chain', 'chain', 'diamond', 'gate', 'fan'),
    anyJoin: fc.boolean(),
    randomSelectors: fc.array(randomSelectorAnd, { minLength: 4, maxLength: 4 }),
    // sometimes two stages share clusters in different namespaces
    shared: fc.integer({ min: 0, max: 3 }),
  });
}

type PipelineGenes = ReturnType<typeof pipelineGenesArb> extends fc.Arbitrary<infer G> ? G : never;

function pipelineOf(g: PipelineGenes, members: Member[], id: string): { pipeline: PipelineSpec; members: Member[][] } {
  const values = sortValues(g.key, [...new Set(members.map(m => valueOf(g.key, m.c)))]);
  const count = Math.min(g.stageCount, values.length);
  // consecutive chunks of the sorted values, one per stage
  const chunks: string[][] = [];
  for (let i = 0; i < count; i++) chunks.push(values.slice(Math.floor((i * values.length) / count), Math.floor(((i + 1) * values.length) / count)));
  const stageMembers = chunks.map(chunk => members.filter(m => chunk.includes(valueOf(g.key, m.c))));
  const names = [...g.names];
  // a stage named like another stage's wave (prod-w1, prod-canary, ...)
  if (g.lookalike === 0 && count >= 2) {
    // the second stage is named like a wave of the first (prod-w1 after prod), which may or may not have that wave
    const lookalike = LOOKALIKE_STAGE_NAMES[g.style % LOOKALIKE_STAGE_NAMES.length];
    names[0] = lookalike.slice(0, lookalike.lastIndexOf('-'));
    names[1] = lookalike;
    for (let i = 2; i < names.length; i++) if (names[i] === names[0]) names[i] = 'other';
  }
  const stages: StageSpec[] = chunks.map((chunk, i) => stageOf(g, i, chunk, values, stageMembers[i], names[i]));
  const chain = g.shared === 0 ? withSharedStage(stages, g.style) : stages;
  return { pipeline: clean({ id, stages: asGraph(chain, g), budget: g.budget }), members: stageMembers };
}

/** Stage i of the pipeline: its clusters (the chunk of values), selector, approval, waves, soak, budget, checks, freeze. */
function stageOf(g: PipelineGenes, i: number, chunk: string[], values: string[], inStageMembers: Member[], name: string): StageSpec {
  const o = g.stageOptions[i];
  const inStage = inStageMembers.map(m => m.c);
  const wavesSpec = wavesOf(o, inStage, g.style);
  // a budget that count waves meet (the first wave may grow, never beyond it), or one at random
  const budget = wavesSpec?.k === 'count' && o.budget > 0
    ? { maxClusters: Math.ceil(inStage.length / wavesSpec.n) + o.budget - 1 }
    : o.randomBudget;
  return clean({
    name,
    sel: g.random === 0 ? g.randomSelectors[i] : groupSelector(g.key, chunk, values, g.style + i),
    approval: o.approval,
    waves: wavesSpec,
    soakMs: o.soakMs,
    production: o.production,
    budget,
    checks: o.checks,
    freeze: o.freeze,
  });
}

/** The waves of a stage (by label, count or percentage), from its clusters. */
function wavesOf(o: PipelineGenes['stageOptions'][number], inStage: ClusterSpec[], style: number): WavesSpec | undefined {
  const rings = sortValues('ring', [...new Set(inStage.map(c => c.labels?.ring).filter((r): r is string => r !== undefined))]);
  const allRinged = inStage.every(c => c.labels?.ring !== undefined);
  let wavesSpec: WavesSpec | undefined;
  switch (o.wavesKind) {
    case 'single': wavesSpec = { k: 'single' }; break;
    case 'label': {
      // by ring when every cluster of the stage has one, else by a label every cluster carries or by zone
      const key = allRinged ? 'ring' : [PlatformLabels.PROVIDER, PlatformLabels.REGION, PlatformLabels.ACCELERATOR, 'zone'][style % 4];
      const labelOf = (c: ClusterSpec) => key === 'ring' ? c.labels?.ring : key === 'zone' ? c.labels?.zone
        : key === PlatformLabels.PROVIDER ? c.provider : key === PlatformLabels.REGION ? c.region : c.accelerator ?? 'none';
      const present = [...new Set(inStage.map(labelOf))];
      wavesSpec = present.includes(undefined) ? { k: 'count', n: o.count }
        : { k: 'label', key, values: key === 'ring' ? (o.extraRing ? RINGS : rings) : (present as string[]).sort() };
      break;
    }
    case 'count': wavesSpec = { k: 'count', n: o.count }; break;
    case 'pct': wavesSpec = { k: 'pct', p: o.pct }; break;
  }
  return wavesSpec;
}

/** Freezes of the forms Argo CD reads (steps, names, ranges, `?`) and descriptors, in zones with and without DST. */
export const freezeArb: fc.Arbitrary<FreezeSpec> = fc.record({
  schedule: fc.constantFrom('0 0 20 12 *', '0 22 * * 5', '*/30 9-17 * * mon-fri', '0 0 1 */2 *', '@weekly', '@daily', '15 3 * JAN,jul 0',
    '0 12 13 * 5', '0 0 ? * SUN', '0 6-18/4 * * *', '59 23 31 * *'),
  hours: fc.integer({ min: 1, max: 400 }),
  zone: fc.constantFrom('UTC', 'Europe/Berlin', 'America/New_York', 'Asia/Kolkata', 'Australia/Sydney'),
  manual: fc.boolean(),
});
