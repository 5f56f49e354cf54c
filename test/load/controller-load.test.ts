import { describe, expect, test } from 'vitest';
import { defineExamples } from '../../apps';
import { PlatformReport, PlatformSynthApp } from '../../src';
import { ClusterFleet } from '../../src/fleet/cluster-fleet';
import { controllerLoadOf, measureControllerLoad } from '../../src/load/controller-load';

const secret = (name: string, labels: Record<string, string>, shard?: string) => ({
  apiVersion: 'v1',
  kind: 'Secret',
  metadata: { name, namespace: 'argocd', labels: { 'argocd.argoproj.io/secret-type': 'cluster', ...labels } },
  stringData: { name, server: `https://${name}.example.com`, ...shard === undefined ? {} : { shard } },
});

const template = { metadata: { name: 'a-{{ .name }}' }, spec: { project: 'a', destination: { name: '{{ .name }}', namespace: 'a' } } };

/** Argo CD objects: three clusters (shards 0, 1 and none), three ApplicationSets, one Application on a cluster's own Argo CD. */
const argoCd = [
  secret('c1', { env: 'prod' }, '0'),
  secret('c2', { env: 'prod' }, '1'),
  secret('c3', { env: 'dev' }),
  {
    kind: 'ApplicationSet',
    metadata: { name: 'a', namespace: 'argocd' },
    spec: { generators: [{ clusters: { selector: { matchLabels: { env: 'prod' } } } }, { list: { elements: [{ name: 'c3' }] } }], template },
  },
  { kind: 'ApplicationSet', metadata: { name: 'b', namespace: 'argocd' }, spec: { generators: [{ list: { elements: [{ name: 'c3' }] } }], template } },
  // the model does not expand a matrix, but the cluster event handler requeues it
  {
    kind: 'ApplicationSet',
    metadata: { name: 'c', namespace: 'argocd' },
    spec: { generators: [{ matrix: { generators: [{ git: {} }, { clusters: {} }] } }], template },
  },
  {
    kind: 'Application',
    metadata: { name: 'a-edge-1', namespace: 'argocd', labels: { 'gitops-platform.io/cluster': 'edge-1' } },
    spec: { project: 'a', destination: { server: 'https://kubernetes.default.svc', namespace: 'a' } },
  },
];

const steps = (branch: string, pr: boolean) => [
  { uses: 'git-clone', config: { repoURL: 'https://github.com/acme/src.git', checkout: [{ commit: '${{ commitFrom("x").ID }}', path: './src' }] } },
  { uses: 'git-clone', config: { repoURL: 'https://github.com/acme/releases.git', checkout: [{ branch, create: true, path: './out' }] } },
  { task: { kind: 'PromotionTask', name: 'render' } },
  { uses: 'git-commit', config: { path: './out/' } },
  { uses: 'git-push', config: { path: './out' } },
  ...pr ? [{ uses: 'git-open-pr', config: { repoURL: 'https://github.com/acme/releases.git' } }] : [],
];

const soak = (namespace: string, stage: string, delay: string) => ({
  kind: 'AnalysisTemplate',
  metadata: { name: `${stage}-soak`, namespace, labels: { stage } },
  spec: { metrics: [{ name: 'soak', initialDelay: delay, provider: { job: { metadata: { labels: { stage } } } } }] },
});

const kargo = [
  { kind: 'PromotionTask', metadata: { name: 'render', namespace: 'p' }, spec: { steps: [{ uses: 'helm-template', config: {} }] } },
  { kind: 'Stage', metadata: { name: 'dev', namespace: 'p' }, spec: { promotionTemplate: { spec: { steps: steps('rendered/p/dev', false) } } } },
  { kind: 'Stage', metadata: { name: 'prod', namespace: 'p' }, spec: { promotionTemplate: { spec: { steps: steps('rendered/p/prod', true) } } } },
  { kind: 'Stage', metadata: { name: 'edge', namespace: 'p' }, spec: { shard: 'edge', verification: { analysisTemplates: [{ name: 'x' }, { name: 'y' }] } } },
  { kind: 'Stage', metadata: { name: 'soaked', namespace: 'p' }, spec: { verification: { analysisTemplates: [{ name: 'dev-soak' }, { name: 'prod-soak' }] } } },
  {
    kind: 'Warehouse',
    metadata: { name: 'p', namespace: 'p' },
    spec: {
      interval: '10m0s',
      subscriptions: [
        { image: { repoURL: 'ghcr.io/acme/a', imageSelectionStrategy: 'SemVer', discoveryLimit: 5 } },
        { image: { repoURL: 'nginx', imageSelectionStrategy: 'Digest', constraint: 'latest' } },
        { git: { repoURL: 'https://github.com/acme/src.git' } },
      ],
    },
  },
  {
    kind: 'Warehouse',
    metadata: { name: 'q', namespace: 'q', labels: { 'kargo.akuity.io/shard': 'edge' } },
    spec: {
      subscriptions: [
        { image: { repoURL: 'ghcr.io/acme/b', imageSelectionStrategy: 'NewestBuild' } },
      ],
    },
  },
  soak('p', 'dev', '30m'),
  soak('p', 'prod', '1h'),
  soak('q', 'dev', '30m'),
];

describe('measureControllerLoad', () => {
  const load = measureControllerLoad([...argoCd, ...kargo]);

  test('counts Applications per Argo CD and shard, and the ApplicationSets a cluster Secret change requeues', () => {
    expect(load.argoCds).toEqual([
      {
        instance: 'hub (argocd)',
        applicationSets: 3,
        applications: 4,
        clusters: 3,
        // a and c have a clusters generator (c nested in a matrix); b only a list
        requeuedPerClusterSecretChange: 2,
        renderedPerClusterSecretChange: 3,
        shards: [{ shard: '0', applications: 1, clusters: 1 }, { shard: '1', applications: 1, clusters: 1 }, { shard: '-', applications: 2, clusters: 1 }],
      },
      {
        instance: 'cluster edge-1',
        applicationSets: 0,
        applications: 1,
        clusters: 1,
        requeuedPerClusterSecretChange: 0,
        renderedPerClusterSecretChange: 0,
        shards: [{ shard: '-', applications: 1, clusters: 1 }],
      },
    ]);
  });

  test('counts Stages, Warehouses and template references per Kargo shard, the label standing in for spec.shard', () => {
    expect(load.kargoShards).toEqual([
      { shard: '', stages: 3, warehouses: 1, templateReferences: 2 },
      { shard: 'edge', stages: 1, warehouses: 1, templateReferences: 2 },
    ]);
  });

  test('counts the polling requests per host from each Warehouse interval and selection strategy', () => {
    expect(load.hosts).toEqual([
      // one ls-remote per 10-minute poll
      { host: 'github.com', kind: 'git', warehouses: 1, subscriptions: 1, pollsPerHour: 6, listingsPerHour: 6, manifestGetsPerHour: 0, unbounded: false },
      // SemVer every 10m: a listing and up to 5 manifests; NewestBuild every 5m (the default): a listing and up to 20 (or more) manifests
      { host: 'ghcr.io', kind: 'registry', warehouses: 2, subscriptions: 2, pollsPerHour: 18, listingsPerHour: 18, manifestGetsPerHour: 6 * 5 + 12 * 20, unbounded: true },
      // Digest: the one tag's manifest, no listing; an image without a registry is Docker Hub's
      { host: 'index.docker.io', kind: 'registry', warehouses: 1, subscriptions: 1, pollsPerHour: 6, listingsPerHour: 0, manifestGetsPerHour: 6, unbounded: false },
    ]);
  });

  test('counts the branches, commits and pull requests of one release per release repository', () => {
    expect(load.releaseRepos).toEqual([
      { repoURL: 'https://github.com/acme/releases.git', branches: 2, stages: 2, commitsPerRelease: 2, pullRequestsPerRelease: 1 },
    ]);
  });

  test('counts templates that differ from another of their namespace only in name, labels and delays, and the Stages using templates of the objects', () => {
    expect(load.analysisTemplates).toEqual({ total: 3, sameButDelay: 1, stagesWithTemplates: 1 });
  });
});

describe('controller load of the examples', () => {
  const app = new PlatformSynthApp({ outdir: '/nonexistent' });
  defineExamples(app);
  const load = controllerLoadOf(app);

  test('the hub\'s shards hold the Applications the fleet assigned them from the plans', () => {
    const fleet = app.node.findAll().find(ClusterFleet.isClusterFleet)!;
    const hub = load.argoCds.find(a => a.instance === 'hub (argocd)')!;
    expect(hub.shards.map(s => ({ shard: Number(s.shard), applications: s.applications, clusters: s.clusters })))
      .toEqual(fleet.reportShards()!.shards.map(s => ({ shard: s.shard, applications: s.applications, clusters: s.clusters.length })));
  });

  test('every cluster with its own Argo CD is an instance of its own, with the Applications of its per-cluster charts', () => {
    const fleet = app.node.findAll().find(ClusterFleet.isClusterFleet)!;
    const own = fleet.clusters.filter(c => c.argoCd.kind === 'per-cluster').map(c => `cluster ${c.name}`).sort();
    expect(load.argoCds.filter(a => a.applicationSets === 0).map(a => a.instance)).toEqual(own);
  });

  test('the fleet report ends with the controller load', () => {
    const text = PlatformReport.renderControllerLoad(app);
    expect(text.startsWith('## Controller load\n')).toBe(true);
    expect(text).toContain('| hub (argocd) | 0 |');
  });
});
