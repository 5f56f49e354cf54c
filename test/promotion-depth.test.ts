import { Duration, Testing } from 'cdk8s';
import { describe, expect, test } from 'vitest';
import { appProps, find, ofKind, SMALL_FLEET, world } from './fixtures';
import {
  Approval, Artifact, ClusterSelector, GitCommitSelection, ManifestSource, PlatformApp, PlatformAppProps, PromotionPipeline,
  RepositoryCredentials, Tier,
  Verification, VerificationArg, Versioning, Waves,
} from '../src';
import { formatIssues, ManifestValidator, simulateControllers } from '../src/testkit';

const validator = ManifestValidator.load();

function define(overrides: (w: ReturnType<typeof world>) => any = () => ({})) {
  const w = world();
  const app = new PlatformApp(w.app, 'api', appProps(w, overrides(w)));
  const objects = Testing.synth(app);
  expect(formatIssues(validator.validateObjects(objects))).toBe('');
  return { app, objects, w };
}

const steps = (objects: any[], stage: string) => find(objects, 'Stage', stage).spec.promotionTemplate.spec.steps;

describe('promotion by pull request', () => {
  function prPipeline(w: ReturnType<typeof world>) {
    return new PromotionPipeline(w.app, 'pr', {
      stages: [
        { name: 'dev', clusters: ClusterSelector.tier(Tier.DEV), approval: Approval.automatic() },
        { name: 'prod', clusters: ClusterSelector.tier(Tier.PROD), approval: Approval.pullRequest({ promoters: ['change-board'], labels: ['release'] }) },
      ],
    });
  }

  test('pushes to a generated branch, opens a pull request against the release branch, waits for the merge and syncs to the merge commit', () => {
    const { objects } = define(w => ({ pipeline: prPipeline(w) }));
    const prod = steps(objects, 'prod');
    expect(prod.slice(-5).map((s: any) => [s.uses, s.as])).toEqual([
      ['git-commit', 'commit'], ['git-push', 'push'], ['git-open-pr', 'open-pr'], ['git-wait-for-pr', 'wait-for-pr'], ['argocd-update', 'sync'],
    ]);
    expect(prod[prod.length - 4].config).toEqual({ path: './out', generateTargetBranch: true });
    expect(prod[prod.length - 3].config).toMatchObject({
      repoURL: 'https://github.com/acme/releases.git',
      sourceBranch: '${{ outputs[\'push\'].branch }}',
      targetBranch: 'rendered/api/prod',
      labels: ['release'],
    });
    expect(prod[prod.length - 2].config).toEqual({ repoURL: 'https://github.com/acme/releases.git', prNumber: '${{ outputs[\'open-pr\'].pr.id }}' });
    // no pull request when the render changed nothing: git-open-pr is Skipped, the pushed commit is the branch head
    expect(prod[prod.length - 2].if).toBe('${{ status(\'open-pr\') != \'Skipped\' }}');
    expect(prod[prod.length - 1].config.apps[0].sources[0].desiredRevision).toBe('${{ quote(outputs[\'wait-for-pr\']?.commit ?? outputs[\'push\'].commit) }}');
    expect(prod[prod.length - 1].retry).toEqual({ timeout: '30m' });
    // a direct-push stage is unchanged
    expect(steps(objects, 'dev').find((s: any) => s.uses === 'git-open-pr')).toBeUndefined();
  });

  test('opens the pull request by itself (auto-promotion), the merge is the gate; promoters come from the stage', () => {
    const { objects } = define(w => ({ pipeline: prPipeline(w) }));
    expect(find(objects, 'ProjectConfig', 'api').spec.promotionPolicies.map((p: any) => p.stageSelector.name)).toEqual(['dev', 'prod']);
    expect(find(objects, 'ServiceAccount', 'promoter-prod').metadata.annotations['rbac.kargo.akuity.io/claims']).toBe('{"groups":["change-board"]}');
  });
});

describe('verification', () => {
  const http = Verification.http({
    name: 'version',
    url: 'https://api.{cluster}.example.com/version',
    jsonPath: '{$.version}',
    successCondition: 'result == \'{{args.version}}\'',
    args: { version: VerificationArg.imageTag('ghcr.io/acme/api') },
  });

  test('each Kargo Stage references an AnalysisTemplate per check, with one metric per cluster of the wave', () => {
    const { objects } = define(() => ({ verification: [http] }));
    const canary = find(objects, 'Stage', 'prod-canary');
    // the canary wave also waits the broad wave's soak
    expect(canary.spec.verification.analysisTemplates).toEqual([{ name: 'prod-canary-version', kind: 'AnalysisTemplate' }, { name: 'prod-canary-soak', kind: 'AnalysisTemplate' }]);
    expect(canary.spec.verification.args).toEqual([{ name: 'version', value: '${{ quote(imageFrom(\'ghcr.io/acme/api\').Tag) }}' }]);
    const template = find(objects, 'AnalysisTemplate', 'prod-canary-version');
    expect(template.metadata.namespace).toBe('api');
    // each web metric is followed by its JSON guard, which makes the same request
    const requested = (m: any) => m.provider.web?.url ?? m.provider.job.spec.template.spec.containers[0].env[0].value;
    expect(template.spec.metrics.map((m: any) => [m.name, requested(m)])).toEqual([
      ['version-aws-prod-cpu-1', 'https://api.aws-prod-cpu-1.example.com/version'],
      ['version-aws-prod-051bfd2-answers-json', 'https://api.aws-prod-cpu-1.example.com/version'],
      ['version-gcp-prod-h100-1', 'https://api.gcp-prod-h100-1.example.com/version'],
      ['version-gcp-prod-6d51d5e-answers-json', 'https://api.gcp-prod-h100-1.example.com/version'],
    ]);
    expect(template.spec.args).toEqual([{ name: 'version' }]);
    // one per check and Stage, and the soaks of staging and prod-canary
    expect(ofKind(objects, 'AnalysisTemplate').map((t: any) => t.metadata.name).sort()).toEqual([
      'dev-version', 'prod-broad-version', 'prod-canary-soak', 'prod-canary-version', 'staging-soak', 'staging-version',
    ]);
  });

  test('pipeline checks, app checks and stage-specific checks are combined per stage', () => {
    const { objects } = define(w => ({
      pipeline: new PromotionPipeline(w.app, 'checked', {
        stages: [
          { name: 'dev', clusters: ClusterSelector.tier(Tier.DEV), approval: Approval.automatic() },
          { name: 'prod', clusters: ClusterSelector.tier(Tier.PROD), verification: [Verification.fromTemplate('platform-smoke', { clusterScoped: true })] },
        ],
      }),
      verification: [http],
      stageVerification: { prod: [Verification.job({ name: 'e2e', image: 'ghcr.io/acme/e2e:1.0.0', containerArgs: ['--target', '{cluster}'] })] },
    }));
    expect(find(objects, 'Stage', 'dev').spec.verification.analysisTemplates.map((t: any) => t.name)).toEqual(['dev-version']);
    expect(find(objects, 'Stage', 'prod').spec.verification.analysisTemplates).toEqual([
      { name: 'platform-smoke', kind: 'ClusterAnalysisTemplate' },
      { name: 'prod-version', kind: 'AnalysisTemplate' },
      { name: 'prod-e2e', kind: 'AnalysisTemplate' },
    ]);
    expect(find(objects, 'AnalysisTemplate', 'prod-e2e').spec.metrics[0].provider.job.spec.template.spec.containers[0].args).toEqual(['--target', 'aws-prod-cpu-1']);
  });

  test('fails if a check references an undeclared argument', () => {
    const w = world();
    expect(() => new PlatformApp(w.app, 'api', appProps(w, {
      verification: [Verification.http({ name: 'v', url: 'https://x.example.com/{{args.release}}' })],
    }))).toThrow(/verification: verification "v": .*args\.release/);
  });

  test('fails if stageVerification names a stage the pipeline does not have', () => {
    const w = world();
    expect(() => new PlatformApp(w.app, 'api', appProps(w, { stageVerification: { production: [http] } })))
      .toThrow(/stageVerification names stage "production", which pipeline 'standard' does not have; use one of "dev", "staging", "prod"/);
  });

  test('fails if the pipeline and the app declare checks with the same name', () => {
    const w = world();
    const pipeline = new PromotionPipeline(w.app, 'p', { stages: [{ name: 'prod', clusters: ClusterSelector.tier(Tier.PROD), verification: [http] }] });
    expect(() => new PlatformApp(w.app, 'api', appProps(w, { pipeline, verification: [http] })))
      .toThrow(/stage "prod" has several checks named "version" \(from the pipeline and the app\)/);
  });
});

describe('artifacts and versioning rules', () => {
  test('every image selection strategy, tag filters and platform become Warehouse subscription fields (no removed fields)', () => {
    const { objects } = define(() => ({
      artifacts: [
        Artifact.image('ghcr.io/acme/api', { versioning: Versioning.semver('>=1.2.0, <2.0.0', false), allowTags: ['^1\\.'], discoveryLimit: 10 }),
        Artifact.image('ghcr.io/acme/worker', { versioning: Versioning.digest('stable'), helmValuesKey: 'worker.image' }),
        Artifact.image('ghcr.io/acme/batch', { versioning: Versioning.lexical(), allowTags: ['^\\d{8}$'], helmValuesKey: 'batch.image' }),
        Artifact.image('ghcr.io/acme/ml', { versioning: Versioning.newestBuild(), ignoreTags: ['-rc'], platform: 'linux/arm64', helmValuesKey: 'ml.image' }),
      ],
    }));
    const subs = find(objects, 'Warehouse', 'api').spec.subscriptions;
    expect(subs.slice(0, 4)).toEqual([
      { image: { repoURL: 'ghcr.io/acme/api', imageSelectionStrategy: 'SemVer', constraint: '>=1.2.0, <2.0.0', strictSemvers: false, allowTagsRegexes: ['^1\\.'], discoveryLimit: 10 } },
      { image: { repoURL: 'ghcr.io/acme/worker', imageSelectionStrategy: 'Digest', constraint: 'stable' } },
      { image: { repoURL: 'ghcr.io/acme/batch', imageSelectionStrategy: 'Lexical', allowTagsRegexes: ['^\\d{8}$'] } },
      { image: { repoURL: 'ghcr.io/acme/ml', imageSelectionStrategy: 'NewestBuild', ignoreTagsRegexes: ['-rc'], platform: 'linux/arm64' } },
    ]);
    const text = JSON.stringify(subs);
    for (const removed of ['"allowTags"', '"ignoreTags"', '"semverConstraint"']) expect(text).not.toContain(removed);
    // all four images are injected into the render, digests by digest
    const setValues = find(objects, 'PromotionTask', 'render-cluster').spec.steps[0].config.setValues.map((v: any) => v.key);
    expect(setValues.slice(0, 8)).toEqual([
      'image.repository', 'image.tag', 'worker.image.repository', 'worker.image.digest', 'batch.image.repository', 'batch.image.tag',
      'ml.image.repository', 'ml.image.tag',
    ]);
  });

  test('helm charts (https with name, oci without) and git repositories are subscribed and promoted together', () => {
    const { objects } = define(() => ({
      artifacts: [
        Artifact.image('ghcr.io/acme/api'),
        Artifact.helmChart('https://charts.example.com/stable', { name: 'redis', semver: '^19.0.0' }),
        Artifact.helmChart('oci://ghcr.io/acme/charts/api-base', { dependencyName: 'base' }),
        Artifact.git('https://github.com/acme/config.git', { selection: GitCommitSelection.SEMVER, semver: '^3.0.0', allowTags: ['^v'], includePaths: ['glob:envs/*.yaml'], excludePaths: ['docs/'], checkoutPath: 'chart/config' }),
      ],
    }));
    expect(find(objects, 'Warehouse', 'api').spec.subscriptions).toEqual([
      { image: { repoURL: 'ghcr.io/acme/api', imageSelectionStrategy: 'SemVer' } },
      { chart: { repoURL: 'https://charts.example.com/stable', name: 'redis', semverConstraint: '^19.0.0' } },
      { chart: { repoURL: 'oci://ghcr.io/acme/charts/api-base' } },
      { git: { repoURL: 'https://github.com/acme/config.git', commitSelectionStrategy: 'SemVer', semverConstraint: '^3.0.0', allowTagsRegexes: ['^v'], includePaths: ['glob:envs/*.yaml'], excludePaths: ['docs/'] } },
      { git: { repoURL: 'https://github.com/acme/api.git', commitSelectionStrategy: 'NewestFromBranch', branch: 'main', includePaths: ['chart'] } },
    ]);
    const update = steps(objects, 'dev').find((s: any) => s.uses === 'helm-update-chart');
    expect(update.config.charts).toEqual([
      { repository: 'https://charts.example.com/stable', name: 'redis', version: '${{ quote(chartFrom(\'https://charts.example.com/stable\', \'redis\').Version) }}' },
      // an OCI dependency names the registry path without the chart (kargo helm-update-chart.md)
      { repository: 'oci://ghcr.io/acme/charts', name: 'base', version: '${{ quote(chartFrom(\'oci://ghcr.io/acme/charts/api-base\').Version) }}' },
    ]);
    expect(find(objects, 'PromotionTask', 'render-cluster').spec.steps[0].config.buildDependencies).toBe(true);
    // the config repository is checked out at the Freight's commit inside the chart, before anything is rendered
    const all = steps(objects, 'dev');
    const checkout = all.find((s: any) => s.as === 'clone-artifact-3');
    expect(checkout).toEqual({
      uses: 'git-clone',
      as: 'clone-artifact-3',
      config: {
        repoURL: 'https://github.com/acme/config.git',
        checkout: [{ commit: '${{ quote(commitFrom(\'https://github.com/acme/config.git\').ID) }}', path: './src/chart/config' }],
      },
    });
    expect(all.indexOf(checkout)).toBeLessThan(all.findIndex((s: any) => s.task?.name === 'render-cluster'));
  });

  test('a Helm app needs the Kubernetes version of every cluster it renders for; a Kustomize app does not', () => {
    const versionless = SMALL_FLEET.map(c => (c.tier === Tier.PROD ? { ...c, kubernetesVersion: undefined } : c));
    const w = world(versionless);
    expect(() => new PlatformApp(w.app, 'api', appProps(w))).toThrow(
      'PlatformApp \'api\': cluster(s) "aws-prod-cpu-1", "aws-prod-cpu-2", "gcp-prod-h100-1", "gcp-prod-h100-2" of its placement have no kubernetesVersion, '
      + 'which helm-template needs to render the chart as helm install would for them (.Capabilities.KubeVersion and the chart\'s kubeVersion constraint '
      + 'would see Helm\'s built-in default); set kubernetesVersion on these clusters (Terraform output: kubernetes_version), or narrow the app\'s targets');
    const k = world(versionless);
    expect(() => new PlatformApp(k.app, 'api', appProps(k, {
      source: ManifestSource.kustomize({ repoUrl: 'https://github.com/acme/api.git', basePath: 'base', overlayPath: 'overlays/{stage}' }),
    }))).not.toThrow();
    // the render task passes the cluster's version straight through
    const { objects } = define();
    expect(find(objects, 'PromotionTask', 'render-cluster').spec.steps.find((s: any) => s.uses === 'helm-template').config.kubeVersion).toBe('${{ quote(vars.kubeVersion) }}');
  });

  test('Helm renders each cluster with the app\'s API versions and the cluster\'s own', () => {
    const fleet = SMALL_FLEET.map(c => (c.name === 'gcp-dev-h100' ? { ...c, apiVersions: ['nvidia.com/v1', 'nvidia.com/v1'] } : c));
    const w = world(fleet);
    const app = new PlatformApp(w.app, 'api', appProps(w, {
      source: ManifestSource.helm({ repoUrl: 'https://github.com/acme/api.git', path: 'chart', apiVersions: ['monitoring.coreos.com/v1'] }),
    }));
    const objects = Testing.synth(app);
    const render = find(objects, 'PromotionTask', 'render-cluster').spec.steps.find((s: any) => s.uses === 'helm-template');
    expect(render.config.apiVersions).toBe('${{ split(vars.apiVersions, \',\') }}');
    const vars = (cluster: string) => steps(objects, 'dev').find((s: any) => s.as === `render-${cluster}`).vars.find((v: any) => v.name === 'apiVersions').value;
    expect(vars('gcp-dev-h100')).toBe('monitoring.coreos.com/v1,nvidia.com/v1');
    expect(vars('aws-dev-cpu')).toBe('monitoring.coreos.com/v1');
    expect(simulateControllers([...Testing.synth(w.fleet), ...objects]).map(f => `${f.code} ${f.message}`)).toEqual([]);
    // no cluster with API versions of its own: the app's list, as before
    expect(find(define().objects, 'PromotionTask', 'render-cluster').spec.steps.find((s: any) => s.uses === 'helm-template').config.apiVersions).toBeUndefined();
    expect(() => world(SMALL_FLEET.map(c => ({ ...c, apiVersions: ['nvidia.com'] })))).toThrow(
      /apiVersions must be an API version such as "monitoring.coreos.com\/v1", got "nvidia.com"; use "<group>\/<version>" or "<group>\/<version>\/<Kind>"/);
  });

  test.each<[string, Partial<PlatformAppProps>, RegExp]>([
    ['a git artifact is never read', { artifacts: [Artifact.image('ghcr.io/acme/api'), Artifact.git('https://github.com/acme/config.git')] },
      /artifacts\[1\] \(git https:\/\/github.com\/acme\/config.git\) checkoutPath is required: no render reads this repository.*got nothing; set checkoutPath to the directory of the source repository the render reads it from \(e.g. "chart\/config"\), or drop the artifact/],
    ['a checkout lies outside the chart', { artifacts: [Artifact.image('ghcr.io/acme/api'), Artifact.git('https://github.com/acme/config.git', { checkoutPath: 'config' })] },
      /checkoutPath lies outside the chart directory "chart", the only directory helm-template reads, got "config"; use a directory inside it, e.g. "chart\/config"/],
    ['a checkout replaces the chart', { artifacts: [Artifact.image('ghcr.io/acme/api'), Artifact.git('https://github.com/acme/config.git', { checkoutPath: './chart/' })] },
      /checkoutPath would replace the source's own directory "chart", got "chart"/],
    ['two checkouts overlap', {
      artifacts: [Artifact.image('ghcr.io/acme/api'), Artifact.git('https://github.com/acme/a.git', { checkoutPath: 'chart/cfg' }),
        Artifact.git('https://github.com/acme/b.git', { checkoutPath: 'chart/cfg/b' })],
    },
    /artifacts\[2\] \(git https:\/\/github.com\/acme\/b.git\) checkoutPath overlaps artifacts\[1\] .* "chart\/cfg", got "chart\/cfg\/b"; give each git artifact its own directory/],
    ['the source repository gets a checkout path', { artifacts: [Artifact.image('ghcr.io/acme/api'), Artifact.git('https://github.com/acme/api.git', { checkoutPath: 'chart/x' })] },
      /checkoutPath is set on the source repository, which every render checks out whole, got "chart\/x"; remove checkoutPath/],
    ['a checkout path climbs out', { artifacts: [Artifact.image('ghcr.io/acme/api'), Artifact.git('https://github.com/acme/config.git', { checkoutPath: '../x' })] },
      /git checkoutPath must be a relative path inside the repository without "\.\.", got "\.\.\/x"/],
    ['a chart is given to a kustomize source', {
      artifacts: [Artifact.image('ghcr.io/acme/api'), Artifact.helmChart('oci://ghcr.io/acme/charts/base')],
      source: ManifestSource.kustomize({ repoUrl: 'https://github.com/acme/api.git', basePath: 'base', overlayPath: 'overlays/{stage}' }),
    }, /artifacts\[1\] \(helm chart oci:\/\/ghcr.io\/acme\/charts\/base\) is never read: a chart version reaches a release only as a dependency of a Helm source \(helm-update-chart\), and this source is rendered by kustomize, got "kustomize"; drop the chart artifact/],
    ['a verification arg reads an image the app does not subscribe to', {
      verification: [Verification.job({ name: 'smoke', image: 'ghcr.io/acme/smoke:{{args.version}}', args: { version: VerificationArg.imageTag('ghcr.io/acme/other') } })],
    }, /check "smoke" \(stage "dev"\) args.version reads the image of the Freight being verified, but the app does not subscribe to it, so Kargo's imageFrom\(\) fails and every verification errors, got "ghcr.io\/acme\/other"; add it to the app's artifacts, or pass another arg/],
    ['a verification arg reads a git repository the app does not subscribe to', {
      verification: [Verification.job({ name: 'smoke', image: 'ghcr.io/acme/smoke:1', args: { sha: VerificationArg.commit('https://github.com/acme/other.git') } })],
    }, /args.sha reads the git repository of the Freight being verified, but the app does not subscribe to it, so Kargo's commitFrom\(\) fails/],
    ['two charts update one Chart.yaml dependency', {
      artifacts: [Artifact.image('ghcr.io/acme/api'), Artifact.helmChart('https://charts.bitnami.com/bitnami', { name: 'redis', dependencyName: 'cache' }),
        Artifact.helmChart('https://charts.bitnami.com/bitnami', { name: 'postgresql', dependencyName: 'cache' })],
    }, /artifacts\[2\] \(helm chart https:\/\/charts.bitnami.com\/bitnami postgresql\) dependencyName names the same Chart.yaml dependency as artifacts\[1\] \(helm chart https:\/\/charts.bitnami.com\/bitnami redis\) \(one name and repository take one version\), got "cache"; give each chart artifact the dependencyName of its own dependency in Chart.yaml/],
    ['a checkout path uses a token', { artifacts: [Artifact.image('ghcr.io/acme/api'), Artifact.git('https://github.com/acme/config.git', { checkoutPath: 'chart/{stage}' })] },
      /git checkoutPath must not use tokens \(one checkout serves every cluster\), got "chart\/\{stage\}"/],
  ])('a git artifact must reach the render: %s', (_, props, message) => {
    expect(() => define(() => props)).toThrow(message);
  });

  test.each<[string, () => Artifact, RegExp]>([
    ['a chart URL has the wrong scheme', () => Artifact.helmChart('ftp://charts.example.com', { name: 'x' }), /must start with https:\/\/ \(chart repository\) or oci:\/\//],
    ['an oci chart has a name', () => Artifact.helmChart('oci://ghcr.io/acme/charts/x', { name: 'x' }), /name must be omitted for oci:\/\/ repositories/],
    ['an https chart has no name', () => Artifact.helmChart('https://charts.example.com'), /name is required for https:\/\/ repositories/],
    ['a tag regex does not compile', () => Artifact.image('ghcr.io/acme/api', { allowTags: ['^v(1'] }), /allowTags regular expression does not compile .*got "\^v\(1"/],
    ['a tag regex uses lookahead', () => Artifact.image('ghcr.io/acme/api', { ignoreTags: ['^(?!v)'] }), /uses lookaround, which Go regular expressions do not support/],
    ['a git path regex does not compile', () => Artifact.git('https://github.com/acme/x.git', { includePaths: ['regex:[a-'] }), /git path filter does not compile/],
    ['a git branch is given with a tag selection', () => Artifact.git('https://github.com/acme/x.git', { selection: GitCommitSelection.NEWEST_TAG, branch: 'main' }), /branch only applies to NEWEST_FROM_BRANCH/],
    ['a git repository uses ssh', () => Artifact.git('git@github.com:acme/x.git'), /must use https \(SSH URLs are deprecated in Kargo and removed in v1.13\)/],
    ['the platform is not os/arch', () => Artifact.image('ghcr.io/acme/api', { platform: 'amd64' }), /platform must be "os\/arch", got "amd64"/],
    ['the discovery limit is out of range', () => Artifact.image('ghcr.io/acme/api', { discoveryLimit: 500 }), /discoveryLimit must be a whole number from 1 to 100, got 500/],
    ['digest versioning has no tag', () => Artifact.image('ghcr.io/acme/api', { versioning: Versioning.digest('') }), /digest versioning needs the mutable tag to track/],
  ])('fails if %s', (_, make, message) => {
    const w = world();
    expect(() => new PlatformApp(w.app, 'api', appProps(w, { artifacts: [make()] }))).toThrow(message);
  });
});

describe('manifest sources', () => {
  test('kustomize: images are set in the base from Freight (tag or digest), each cluster\'s overlay is built into its directory', () => {
    const { objects } = define(() => ({
      artifacts: [Artifact.image('ghcr.io/acme/api'), Artifact.image('ghcr.io/acme/sidecar', { versioning: Versioning.digest('edge') })],
      source: ManifestSource.kustomize({ repoUrl: 'https://github.com/acme/api.git', basePath: 'deploy/base', overlayPath: 'deploy/{stage}/{region}' }),
    }));
    const setImage = steps(objects, 'dev').find((s: any) => s.uses === 'kustomize-set-image');
    expect(setImage.config).toEqual({
      path: './src/deploy/base',
      images: [
        { image: 'ghcr.io/acme/api', tag: '${{ quote(imageFrom(\'ghcr.io/acme/api\').Tag) }}' },
        { image: 'ghcr.io/acme/sidecar', digest: '${{ imageFrom(\'ghcr.io/acme/sidecar\').Digest }}' },
      ],
    });
    expect(find(objects, 'PromotionTask', 'render-cluster').spec.steps).toEqual([{
      uses: 'kustomize-build',
      as: 'render',
      config: { path: './src/deploy/${{ vars.stage }}/${{ vars.region }}', outPath: './out/${{ vars.cluster }}/manifests.yaml' },
    }]);
    expect(find(objects, 'Warehouse', 'api').spec.subscriptions[2].git.includePaths).toEqual(['deploy/base', 'deploy']);
  });

  test('helm: per-stage values files are required, per-cluster ones optional', () => {
    const { objects } = define(() => ({
      source: ManifestSource.helm({ repoUrl: 'https://github.com/acme/api.git', path: 'chart', valuesFiles: ['stages/{stage}.yaml'], optionalValuesFiles: ['clusters/{cluster}.yaml'] }),
    }));
    const [merge, render] = find(objects, 'PromotionTask', 'render-cluster').spec.steps;
    // only the optional files may be missing: merged first, a required one still fails the render
    expect(merge).toEqual({
      uses: 'yaml-merge',
      as: 'optional-values',
      config: { inFiles: ['./src/chart/clusters/${{ vars.cluster }}.yaml'], outFile: './work/${{ vars.cluster }}/optional-values.yaml', ignoreMissingFiles: true },
    });
    expect(render.config.valuesFiles).toEqual(['./src/chart/stages/${{ vars.stage }}.yaml', './work/${{ vars.cluster }}/optional-values.yaml']);
    expect(render.config.ignoreMissingValueFiles).toBeUndefined();
    expect(render.config).toMatchObject({ kubeVersion: '${{ quote(vars.kubeVersion) }}', includeCRDs: true });
  });
});

describe('repository credentials', () => {
  test('managed Secrets are labelled shells with the repository URL and no secret values; workload identity writes nothing', () => {
    const { objects } = define(() => ({
      artifacts: [
        Artifact.image('registry.acme.example/team/api', { credentials: RepositoryCredentials.managedSecret({ source: 'vault:kv/registry' }) }),
        Artifact.image('123456789012.dkr.ecr.us-east-1.amazonaws.com/team/worker', { credentials: RepositoryCredentials.workloadIdentity(), helmValuesKey: 'worker.image' }),
      ],
      releaseRepoCredentials: RepositoryCredentials.managedSecret({ source: 'ExternalSecret github-app (merge)' }),
    }));
    const secrets = ofKind(objects, 'Secret');
    expect(secrets).toEqual([
      {
        apiVersion: 'v1',
        kind: 'Secret',
        type: 'Opaque',
        metadata: {
          name: 'creds-git-github-com-acme-releases',
          namespace: 'api',
          labels: { 'kargo.akuity.io/cred-type': 'git', 'gitops-platform.io/app': 'api' },
          annotations: { 'gitops-platform.io/credentials-source': 'ExternalSecret github-app (merge)' },
        },
        stringData: { repoURL: 'https://github.com/acme/releases.git' },
      },
      {
        apiVersion: 'v1',
        kind: 'Secret',
        type: 'Opaque',
        metadata: {
          name: 'creds-image-registry-acme-example-team-api',
          namespace: 'api',
          labels: { 'kargo.akuity.io/cred-type': 'image', 'gitops-platform.io/app': 'api' },
          annotations: { 'gitops-platform.io/credentials-source': 'vault:kv/registry' },
        },
        stringData: { repoURL: 'registry.acme.example/team/api' },
      },
    ]);
  });

  test('fails if one repository gets two kinds of credentials', () => {
    const w = world();
    expect(() => new PlatformApp(w.app, 'api', appProps(w, {
      releaseRepo: 'https://github.com/acme/api.git',
      releaseRepoCredentials: RepositoryCredentials.workloadIdentity(),
      source: ManifestSource.helm({ repoUrl: 'https://github.com/acme/api.git', path: 'chart', credentials: RepositoryCredentials.managedSecret({ source: 'vault:x' }) }),
    }))).toThrow(/repository https:\/\/github.com\/acme\/api.git is given different credentials in two places/);
  });

  test('one repository spelled two ways gets one managed Secret (Kargo matches credentials by normalized URL)', () => {
    const github = RepositoryCredentials.managedSecret({ source: 'vault:kv/kargo/github' });
    const { objects } = define(() => ({
      source: ManifestSource.helm({ repoUrl: 'https://github.com/acme/api.git', path: 'chart', credentials: github }),
      releaseRepo: 'https://github.com/acme/api',
      releaseRepoCredentials: github,
    }));
    expect(ofKind(objects, 'Secret').map(o => o.metadata.name)).toEqual(['creds-git-github-com-acme-api']);
  });

  test('fails if two repositories would share a managed Secret\'s name', () => {
    const w = world();
    const github = RepositoryCredentials.managedSecret({ source: 'vault:kv/kargo/github' });
    expect(() => new PlatformApp(w.app, 'api', appProps(w, {
      source: ManifestSource.helm({ repoUrl: 'https://github.com/acme/api-x.git', path: 'chart', credentials: github }),
      releaseRepo: 'https://github.com/acme/api.x',
      releaseRepoCredentials: github,
    }))).toThrow(/repositories https:\/\/github.com\/acme\/api-x.git and https:\/\/github.com\/acme\/api.x would share the credentials Secret "creds-git-github-com-acme-api-x"/);
  });

  test('fails if a managed Secret does not say where its values come from', () => {
    const w = world();
    expect(() => new PlatformApp(w.app, 'api', appProps(w, { releaseRepoCredentials: RepositoryCredentials.managedSecret({ source: '' }) })))
      .toThrow(/releaseRepoCredentials: managedSecret source must say where the values come from/);
  });
});

describe('recovery', () => {
  test('every version a promotion renders comes from the Freight, so promoting older Freight renders the older release', () => {
    const { objects } = define(() => ({ artifacts: [Artifact.image('ghcr.io/acme/api', { versioning: Versioning.semver('^1.0.0') })] }));
    const render = JSON.stringify(find(objects, 'PromotionTask', 'render-cluster'));
    expect(render).toContain('imageFrom(\'ghcr.io/acme/api\').Tag');
    for (const stage of ofKind(objects, 'Stage')) {
      const s = stage.spec.promotionTemplate.spec.steps;
      // the source is checked out at the Freight's commit, never at a branch head
      expect(s[0].config.checkout[0]).toEqual({ commit: '${{ quote(commitFrom(\'https://github.com/acme/api.git\').ID) }}', path: './src' });
      // the release branch is cleared before rendering: each commit is the complete state, so a rollback removes what the newer release added
      const clear = s.findIndex((x: any) => x.uses === 'git-clear');
      const firstRender = s.findIndex((x: any) => x.task);
      expect(clear).toBeGreaterThan(-1);
      expect(clear).toBeLessThan(firstRender);
    }
  });

  test('soak times apply between waves and stages, but a person may promote older Freight at once', () => {
    const { objects } = define(w => ({
      pipeline: new PromotionPipeline(w.app, 'soaked', {
        stages: [
          { name: 'dev', clusters: ClusterSelector.tier(Tier.DEV), approval: Approval.automatic() },
          { name: 'prod', clusters: ClusterSelector.tier(Tier.PROD), waves: Waves.byLabel('ring', ['canary', 'broad']), soak: Duration.hours(2) },
        ],
      }),
    }));
    // waited in the verification of the Stage before each wave (Kargo's requiredSoakTime is never written)
    for (const [stage, upstream] of [['prod-canary', 'dev'], ['prod-broad', 'prod-canary']]) {
      expect(find(objects, 'Stage', stage).spec.requestedFreight[0].sources.requiredSoakTime).toBeUndefined();
      expect(find(objects, 'Stage', stage).metadata.annotations['gitops-platform.io/soak']).toBe('2h');
      expect(find(objects, 'AnalysisTemplate', `${upstream}-soak`).spec.metrics[0].initialDelay).toBe('2h');
    }
    // the canary's checks are the soak only: it has none of its own
    expect(find(objects, 'Stage', 'prod-canary').spec.verification.analysisTemplates).toEqual([{ kind: 'AnalysisTemplate', name: 'prod-canary-soak' }]);
    // manual stages are not in the ProjectConfig: Kargo never promotes them by itself
    expect(find(objects, 'ProjectConfig', 'api').spec.promotionPolicies.map((p: any) => p.stageSelector.name)).toEqual(['dev']);
  });
});

describe('soak checks', () => {
  test('fails if a check is named like the soak metric of a Stage that waits a soak', () => {
    expect(() => define(w => ({
      pipeline: new PromotionPipeline(w.app, 'soaked', {
        stages: [
          { name: 'dev', clusters: ClusterSelector.tier(Tier.DEV), approval: Approval.automatic() },
          { name: 'prod', clusters: ClusterSelector.tier(Tier.PROD), soak: Duration.hours(2) },
        ],
      }),
      stageVerification: { dev: [Verification.http({ name: 'soak', url: 'https://{cluster}.example.com/healthz' })] },
    }))).toThrow(/stage "dev" verification: verification name is the name of the metric and template \("dev-soak"\) that wait the soak of 2h in Stage "dev", got "soak"; rename the check/);
  });
});

describe('regular expressions are checked as Go reads them', () => {
  test.each([['(?i)^v\\d+$'], ['^(?i:release)-\\d+$'], ['^\\d{8}-[0-9a-f]{7}$']])('accepts %s', (pattern) => {
    expect(Artifact.image('ghcr.io/acme/api', { allowTags: [pattern] })._problems).toEqual([]);
  });

  test.each([['^v(1', /does not compile/], ['(?=v)', /lookaround/], ['(a)\\1', /backreference/], ['^v\\Z', /uses \\Z/]])('refuses %s', (pattern, message) => {
    expect(Artifact.image('ghcr.io/acme/api', { allowTags: [pattern] })._problems.join('\n')).toMatch(message);
  });
});
