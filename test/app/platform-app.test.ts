import * as fs from 'fs';
import { ApiObject, Chart, JsonPatch, Testing } from 'cdk8s';
import { describe, expect, test } from 'vitest';
import {
  Accelerator, Artifact, ClusterSelector, CloudProvider, ManifestSource, PlatformApp, PlatformLabels, Requirement, SelectorOperator, Versioning,
} from '../../src';
import { appProps, find, managedAuth, synthApp, world } from '../support/fixtures';

describe('PlatformApp', () => {
  test('snapshot', () => {
    expect(synthApp().objects).toMatchSnapshot();
  });

  test('one Kargo Project, ProjectConfig, Warehouse and PromotionTask; one Stage per wave; one AppProject and one ApplicationSet', () => {
    const { objects } = synthApp();
    const kinds = objects.map(o => `${o.kind}/${o.metadata.name}`);
    expect(kinds).toEqual([
      'Namespace/api', 'Project/api', 'ProjectConfig/api', 'Warehouse/api', 'PromotionTask/render-cluster',
      // staging and prod-canary wait prod's soak in their verification
      'Stage/dev', 'AnalysisTemplate/staging-verification', 'Stage/staging', 'AnalysisTemplate/prod-canary-verification', 'Stage/prod-canary', 'Stage/prod-broad',
      'ServiceAccount/promoter-prod', 'Role/promoter-prod', 'RoleBinding/promoter-prod',
      'AppProject/api',
      'ApplicationSet/api',
    ]);
  });

  test('the project namespace is declared labelled for Kargo, one sync wave before the Project, so the platform applies in one pass', () => {
    const { objects } = synthApp();
    const ns = find(objects, 'Namespace', 'api');
    expect(ns.metadata.labels).toMatchObject({ 'kargo.akuity.io/project': 'true', [PlatformLabels.APP]: 'api' });
    expect(ns.metadata.annotations['argocd.argoproj.io/sync-wave']).toBe('-2');
    expect(find(objects, 'Project', 'api').metadata.annotations['argocd.argoproj.io/sync-wave']).toBe('-1');
    // the AppProject before the ApplicationSet that names it: the ApplicationSet controller refuses Applications of a missing project
    expect(find(objects, 'AppProject', 'api').metadata.annotations['argocd.argoproj.io/sync-wave']).toBe('-1');
    // the render PromotionTask before the Stages whose Promotions call it: Kargo's Promotion
    // webhook refuses a Promotion whose task is missing
    expect(find(objects, 'PromotionTask', 'render-cluster').metadata.annotations['argocd.argoproj.io/sync-wave']).toBe('-1');
    // the Stages last: a Stage auto-promotes at once, and its argocd-update step fails the
    // Promotion when the ApplicationSets (wave 0) have not written its Applications yet
    for (const o of objects.filter(x => x.kind === 'Stage')) expect(o.metadata.annotations['argocd.argoproj.io/sync-wave']).toBe('1');
    // everything else of the app is in the default wave, between them
    for (const o of objects.filter(x => !['Namespace', 'Project', 'AppProject', 'PromotionTask', 'Stage'].includes(x.kind))) {
      expect(o.metadata.annotations?.['argocd.argoproj.io/sync-wave']).toBeUndefined();
    }
  });

  test('Kargo objects live in the project namespace, Argo CD objects in the Argo CD namespace', () => {
    const { objects } = synthApp();
    expect(find(objects, 'Project', 'api').metadata.namespace).toBeUndefined();
    for (const o of objects.filter(x => x.apiVersion === 'kargo.akuity.io/v1alpha1' && x.kind !== 'Project')) {
      expect(o.metadata.namespace).toBe('api');
    }
    // AnalysisTemplates run where Kargo creates the AnalysisRuns: the project namespace
    for (const o of objects.filter(x => x.apiVersion === 'argoproj.io/v1alpha1')) {
      expect(o.metadata.namespace).toBe(o.kind === 'AnalysisTemplate' ? 'api' : 'argocd');
    }
  });

  test('two charts of one classic Helm repository are two subscriptions; the same chart twice is refused', () => {
    const charts = (...names: string[]) => [Artifact.image('ghcr.io/acme/api'), ...names.map(name => Artifact.helmChart('https://charts.example.com', { name }))];
    const { objects } = synthApp(() => ({ artifacts: charts('redis', 'postgresql') }));
    expect(find(objects, 'Warehouse', 'api').spec.subscriptions.filter((s: any) => s.chart).map((s: any) => s.chart.name)).toEqual(['redis', 'postgresql']);
    const w = world();
    expect(() => new PlatformApp(w.app, 'api', appProps(w, { artifacts: charts('redis', 'redis') })))
      .toThrow(/artifacts must not subscribe to the same repository twice, got \["chart:https:\/\/charts.example.com"\]/);
  });

  test('a long app name can keep a short Helm release name', () => {
    const { objects } = synthApp(() => ({
      appName: 'a'.repeat(60),
      source: ManifestSource.helm({ repoUrl: 'https://github.com/acme/api.git', path: 'chart', releaseName: 'api' }),
    }));
    expect(find(objects, 'PromotionTask', 'render-cluster').spec.steps[0].config.releaseName).toBe('api');
  });

  test('escape hatch: a JSON patch on an object reaches the output', () => {
    const w = world();
    const app = new PlatformApp(w.app, 'api', appProps(w));
    const warehouse = app.node.findChild('Warehouse') as ApiObject;
    warehouse.addJsonPatch(JsonPatch.replace('/spec/interval', '10m0s'));
    expect(find(Testing.synth(app), 'Warehouse', 'api').spec.interval).toBe('10m0s');
  });

  describe('bad input', () => {
    test.each<[string, (w: ReturnType<typeof world>) => any, RegExp]>([
      ['the app name is not a DNS label', () => ({ appName: 'Payments_API' }), /PlatformApp 'Payments_API': appName must consist of lowercase letters/],
      ['the app name is a system namespace', () => ({ appName: 'argocd' }), /appName is the name of a system namespace, which the app's Kargo Project would take over, got "argocd"; choose another name/],
      ['the namespace is invalid', () => ({ namespace: 'a.b' }), /namespace must consist of lowercase letters, digits and '-'/],
      ['the owner has no contact', () => ({ owner: { team: 'payments', contact: ' ' } }), /owner.contact must not be empty/],
      ['there are no artifacts', () => ({ artifacts: [] }), /artifacts must list at least one artifact, got \[\]; add e.g. Artifact.image/],
      ['an image has a tag', () => ({ artifacts: [Artifact.image('ghcr.io/acme/api:1.2.3')] }),
        /artifacts\[0\] \(image ghcr.io\/acme\/api:1.2.3\): image reference must not have a tag, got "ghcr.io\/acme\/api:1.2.3"; name the repository only/],
      ['an image has a scheme', () => ({ artifacts: [Artifact.image('https://ghcr.io/acme/api')] }), /image reference must not have a scheme/],
      ['an image reference is malformed', () => ({ artifacts: [Artifact.image('ghcr.io//api')] }), /image reference is not a valid image repository, got "ghcr.io\/\/api"/],
      ['an image reference is uppercase', () => ({ artifacts: [Artifact.image('ghcr.io/Acme/api')] }), /image reference must be lowercase, got "ghcr.io\/Acme\/api"; use "ghcr.io\/acme\/api"/],
      ['a semver range is invalid', () => ({ artifacts: [Artifact.image('ghcr.io/acme/api', { versioning: Versioning.semver('^1.x.y.z') })] }),
        /semver constraint is refused by Masterminds\/semver v3.4.0, Kargo's SemVer library \(improper constraint: \^1.x.y.z\), got "\^1.x.y.z"; use a range such as/],
      ['the same image is subscribed twice', () => ({ artifacts: [Artifact.image('ghcr.io/acme/api'), Artifact.image('ghcr.io/acme/api')] }),
        /artifacts must not subscribe to the same repository twice, got \["image:ghcr.io\/acme\/api"\]/],
      ['the same git repository is subscribed twice, spelled differently (Kargo compares URLs without .git)',
        () => ({ artifacts: [Artifact.image('ghcr.io/acme/api'), Artifact.git('https://github.com/acme/config.git'), Artifact.git('https://github.com/acme/config')] }),
        /artifacts must not subscribe to the same repository twice, got \["git:https:\/\/github.com\/acme\/config.git","git:https:\/\/github.com\/acme\/config"\]/],
      ['a git artifact names the source repository spelled differently, so the Warehouse would subscribe to it twice',
        () => ({ artifacts: [Artifact.image('ghcr.io/acme/api'), Artifact.git('https://github.com/Acme/api')] }),
        /artifacts must not subscribe to the same repository twice, got \["git:https:\/\/github.com\/Acme\/api","git:https:\/\/github.com\/acme\/api.git"\]/],
      ['the app name, the default Helm release name, is longer than Helm allows', () => ({ appName: 'a'.repeat(54) }),
        /PlatformApp 'a{54}': appName is the Helm release name, which must be at most 53 characters \(it has 54\), got "a{54}"; shorten the app name or set ManifestSource.helm\(\{ releaseName \}\)/],
      ['the Helm release name is longer than Helm allows',
        () => ({ source: ManifestSource.helm({ repoUrl: 'https://github.com/acme/api.git', path: 'chart', releaseName: 'r'.repeat(54) }) }),
        /source: helm releaseName must be at most 53 characters \(it has 54\), got "r{54}"; shorten it: helm template refuses longer release names/],
      ['the release repository is not https', () => ({ releaseRepo: 'git@github.com:acme/releases.git' }), /releaseRepo must use https/],
      ['the source path escapes the repository', () => ({ source: ManifestSource.helm({ repoUrl: 'https://github.com/acme/api.git', path: '../chart' }) }),
        /source: helm path must be a relative path inside the repository without "..", got "..\/chart"/],
      ['a values file uses an unknown token', () => ({ source: ManifestSource.helm({ repoUrl: 'https://github.com/acme/api.git', path: 'chart', valuesFiles: ['values-{env}.yaml'] }) }),
        /helm values file uses unknown token \{env\}, got "values-\{env\}.yaml"; use one of \{stage\}/],
      ['the targets leave a stage without clusters', () => ({ targets: ClusterSelector.accelerator(Accelerator.AMD_MI300X) }),
        /targets gitops-platform.io\/accelerator in \(amd-mi300x\) leave stage "dev" without clusters, got clusters aws-dev-cpu, gcp-dev-h100 in the stage; widen the targets/],
      ['a requirement is met by no targeted cluster of a stage', () => ({ requires: [Requirement.minAccelerators(16)] }),
        /requirement "at least 16 accelerators" is met by none of the targeted clusters of stage "dev"/],
      ['the targets selector is invalid', () => ({ targets: ClusterSelector.expression('ring', SelectorOperator.EXISTS, ['x']) }),
        /targets: selector requirement "ring Exists" must not have values/],
    ])('fails if %s', (_, overrides, message) => {
      const w = world();
      expect(() => new PlatformApp(w.app, 'api', appProps(w, overrides(w)))).toThrow(message);
    });

    test('fails if a gated stage has no one allowed to promote', () => {
      const w = world();
      expect(() => new PlatformApp(w.app, 'api', appProps(w, { owner: { team: 'payments', contact: '#payments', groups: [] } })))
        .toThrow(/stage "prod" promoters must not be empty: the stage is gated \(manual\), got \[\]; name promoters on the stage's approval or give the owner OIDC groups/);
    });

    test('reports every problem at once', () => {
      const w = world();
      expect(() => new PlatformApp(w.app, 'api', appProps(w, {
        appName: 'API', releaseRepo: 'ftp://x', artifacts: [Artifact.image('ghcr.io/acme/api:latest')],
      }))).toThrow(/PlatformApp 'API': 3 problems\n {2}- appName[^\n]*\n {2}- releaseRepo[^\n]*\n {2}- artifacts\[0\]/);
    });

    test('fails at synth if clusters were added to the fleet after the app was planned', () => {
      const w = world();
      new PlatformApp(w.app, 'api', appProps(w));
      w.fleet.addCluster({
        name: 'late',
        server: 'https://late.example.com',
        provider: 'aws' as any,
        region: 'us-east-1',
        tier: (w.fleet.clusters[0].tier),
        auth: managedAuth(CloudProvider.AWS, 'late'),
      });
      expect(() => w.app.synth()).toThrow(/fleet 'fleet' clusters changed after PlatformApp 'api' was planned with \d+, got \d+; define every cluster before the apps/);
    });

    test('fails at synth if a stage was added to the pipeline after the app was planned', () => {
      const w = world();
      const app = new PlatformApp(w.app, 'api', appProps(w));
      w.pipeline.addStage({ name: 'late', clusters: ClusterSelector.matchLabels({ nothing: 'here' }) });
      // the plan does not have the stage: synth must not succeed without it
      expect(app.plan.stages.map(s => s.name)).not.toContain('late');
      expect(() => w.app.synth()).toThrow(/pipeline '\w+' stages changed after PlatformApp 'api' was planned with \d+, got \d+; add every stage before the apps/);
    });

    test('a failed definition writes no output', () => {
      const w = world();
      const outdir = (w.app as any).outdir as string;
      expect(() => new PlatformApp(w.app, 'api', appProps(w, { releaseRepo: 'nope' }))).toThrow();
      expect(fs.readdirSync(outdir)).toEqual([]);
    });
  });

  test('is a chart of its own, so each app synthesizes to its own file', () => {
    const { app } = synthApp();
    expect(Chart.isChart(app)).toBe(true);
  });
});
