/**
 * Hand-made objects for the controller model tests: one small app, correct in every respect the
 * model checks, that a test then breaks in exactly one place.
 */

export const KARGO = 'kargo.akuity.io/v1alpha1';
export const ARGO = 'argoproj.io/v1alpha1';
export const NS = 'shop';
export const RELEASE = 'https://github.com/acme/releases.git';
export const SOURCE = 'https://github.com/acme/shop.git';
export const IMAGE = 'ghcr.io/acme/shop';
export const CA = 'LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCg==';

export function clusterSecret(name: string, config: Record<string, unknown>, server = `https://${name.toUpperCase()}.gr7.us-east-1.eks.amazonaws.com`): any {
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: `cluster-${name}`, namespace: 'argocd', labels: { 'argocd.argoproj.io/secret-type': 'cluster', 'shop/cluster': name } },
    stringData: { name, server, config: JSON.stringify(config) },
  };
}

export function eksSecret(name: string, tls: Record<string, unknown> = { insecure: false, caData: CA }): any {
  return clusterSecret(name, { awsAuthConfig: { clusterName: name }, tlsClientConfig: tls });
}

export function appProject(spec: Record<string, unknown> = {}): any {
  return {
    apiVersion: ARGO,
    kind: 'AppProject',
    metadata: { name: NS, namespace: 'argocd' },
    spec: {
      destinations: [{ name: '*', namespace: NS }],
      sourceRepos: [RELEASE],
      clusterResourceWhitelist: [{ group: '', kind: 'Namespace', name: NS }],
      ...spec,
    },
  };
}

export function applicationSet(stage: string, clusters: string[], extra: { path?: string; branch?: string } = {}): any {
  return {
    apiVersion: ARGO,
    kind: 'ApplicationSet',
    metadata: { name: `${NS}-${stage}`, namespace: 'argocd' },
    spec: {
      goTemplate: true,
      generators: [{ clusters: { selector: { matchExpressions: [{ key: 'shop/cluster', operator: 'In', values: clusters }] } } }],
      template: {
        metadata: {
          name: `${NS}-{{ .name }}`,
          labels: { app: NS, stage },
          annotations: { 'kargo.akuity.io/authorized-stage': `${NS}:${stage}` },
        },
        spec: {
          project: NS,
          destination: { name: '{{ .name }}', namespace: NS },
          source: { repoURL: RELEASE, targetRevision: extra.branch ?? `rendered/${stage}`, path: extra.path ?? '{{ .name }}' },
          syncPolicy: { automated: { prune: true }, syncOptions: ['CreateNamespace=true'] },
        },
      },
    },
  };
}

export function warehouse(subscriptions?: unknown[]): any {
  return {
    apiVersion: KARGO,
    kind: 'Warehouse',
    metadata: { name: NS, namespace: NS },
    spec: { subscriptions: subscriptions ?? [{ image: { repoURL: IMAGE } }, { git: { repoURL: SOURCE, branch: 'main' } }] },
  };
}

export function kustomizeTask(): any {
  return {
    apiVersion: KARGO,
    kind: 'PromotionTask',
    metadata: { name: 'render', namespace: NS },
    spec: {
      vars: [{ name: 'cluster' }, { name: 'overlay', value: 'prod' }],
      steps: [{ uses: 'kustomize-build', as: 'build', config: { path: './src/overlays/${{ vars.overlay }}', outPath: './out/${{ vars.cluster }}/manifests.yaml' } }],
    },
  };
}

export function helmTask(config: Record<string, unknown> = {}): any {
  return {
    apiVersion: KARGO,
    kind: 'PromotionTask',
    metadata: { name: 'render', namespace: NS },
    spec: {
      vars: [{ name: 'cluster' }],
      steps: [{
        uses: 'helm-template',
        as: 'template',
        config: {
          path: './src/chart',
          releaseName: NS,
          outPath: './out/${{ vars.cluster }}/manifests.yaml',
          valuesFiles: ['./src/chart/values.yaml'],
          setValues: [{ key: 'image.tag', value: `\${{ quote(imageFrom('${IMAGE}').Tag) }}` }],
          kubeVersion: '1.31.0',
          apiVersions: ['monitoring.coreos.com/v1'],
          includeCRDs: true,
          ...config,
        },
      }],
    },
  };
}

/** The steps before the release is committed: clone both repos, clear, set the image, render every cluster. */
export function renderSteps(clusters: string[], prepare: unknown[] = [{ uses: 'kustomize-set-image', as: 'set-image', config: { path: './src/base', images: [{ image: IMAGE, tag: `\${{ quote(imageFrom('${IMAGE}').Tag) }}` }] } }]): any[] {
  return [
    { uses: 'git-clone', as: 'clone-source', config: { repoURL: SOURCE, checkout: [{ commit: `\${{ quote(commitFrom('${SOURCE}').ID) }}`, path: './src' }] } },
    { uses: 'git-clone', as: 'clone-release', config: { repoURL: RELEASE, checkout: [{ branch: '${{ vars.branch }}', create: true, path: './out' }] } },
    { uses: 'git-clear', as: 'clear', config: { path: './out' } },
    ...prepare,
    ...clusters.map((c) => ({ task: { name: 'render' }, as: `render-${c}`, vars: [{ name: 'cluster', value: c }] })),
    { uses: 'git-commit', as: 'commit', config: { path: './out', message: 'render ${{ ctx.targetFreight.name }}' } },
  ];
}

export function syncStep(stage: string, revision: string, timeout: string | null = '30m'): any {
  return {
    uses: 'argocd-update',
    as: 'sync',
    ...(timeout ? { retry: { timeout } } : {}),
    config: { apps: [{ selector: { matchLabels: { app: NS, stage } }, sources: [{ repoURL: RELEASE, desiredRevision: revision }] }] },
  };
}

function stageObject(name: string, steps: unknown[]): any {
  return {
    apiVersion: KARGO,
    kind: 'Stage',
    metadata: { name, namespace: NS },
    spec: {
      requestedFreight: [{ origin: { kind: 'Warehouse', name: NS }, sources: { direct: true } }],
      promotionTemplate: { spec: { vars: [{ name: 'branch', value: `rendered/${name}` }], steps } },
    },
  };
}

/** A Stage that pushes straight to its release branch. */
export function directStage(name: string, clusters: string[], prepare?: unknown[]): any {
  return stageObject(name, [
    ...renderSteps(clusters, prepare),
    { uses: 'git-push', as: 'push', config: { path: './out' } },
    syncStep(name, "${{ quote(outputs['push'].commit) }}"),
  ]);
}

/**
 * A Stage that promotes through a pull request, done right for Kargo v1.11.2: the release branch
 * exists after the first git-clone (`create: true` pushes it), the PR waiter runs only when a PR
 * was opened, and the sync falls back to the pushed commit when nothing changed.
 */
export function pullRequestStage(name: string, clusters: string[], opts: { guard?: boolean; syncRevision?: string; target?: string } = {}): any {
  return stageObject(name, [
    ...renderSteps(clusters),
    { uses: 'git-push', as: 'push', config: { path: './out', generateTargetBranch: true } },
    { uses: 'git-open-pr', as: 'open-pr', config: { repoURL: RELEASE, sourceBranch: "${{ outputs['push'].branch }}", targetBranch: opts.target ?? '${{ vars.branch }}' } },
    {
      uses: 'git-wait-for-pr',
      as: 'wait-for-pr',
      ...(opts.guard === false ? {} : { if: "${{ status('open-pr') != 'Skipped' }}" }),
      config: { repoURL: RELEASE, prNumber: "${{ outputs['open-pr'].pr.id }}" },
    },
    syncStep(name, opts.syncRevision ?? "${{ quote(outputs['wait-for-pr']?.commit ?? outputs['push'].commit) }}"),
  ]);
}

/** Everything one app needs: a fleet of two EKS clusters, Argo CD and Kargo objects for `stages`. */
export function world(stages: any[], extra: { task?: any; warehouse?: any; project?: any; secrets?: any[] } = {}): any[] {
  const clusters = ['east', 'west'];
  return [
    ...(extra.secrets ?? clusters.map((c) => eksSecret(c))),
    extra.project ?? appProject(),
    ...stages.map((s) => applicationSet(s.metadata.name, clusters)),
    extra.warehouse ?? warehouse(),
    extra.task ?? kustomizeTask(),
    ...stages,
  ];
}
