// The synthesized objects of a small platform, written by hand, that the controller load is counted from.

const secret = (name: string, labels: Record<string, string>, shard?: string) => ({
  apiVersion: 'v1',
  kind: 'Secret',
  metadata: { name, namespace: 'argocd', labels: { 'argocd.argoproj.io/secret-type': 'cluster', ...labels } },
  stringData: { name, server: `https://${name}.example.com`, ...shard === undefined ? {} : { shard } },
});

const template = { metadata: { name: 'a-{{ .name }}' }, spec: { project: 'a', destination: { name: '{{ .name }}', namespace: 'a' } } };

/** Argo CD objects: three clusters (shards 0, 1 and none), three ApplicationSets, one Application on a cluster's own Argo CD. */
export const argoCd = [
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

/** Kargo objects: a render task, four Stages (one on shard edge), two Warehouses, three soak templates. */
export const kargo = [
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
