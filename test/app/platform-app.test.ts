import * as fs from 'fs';
import { ApiObject, Chart, JsonPatch, Testing } from 'cdk8s';
import { describe, expect, test } from 'vitest';
import {
  Accelerator, Artifact, ClusterSelector, CloudProvider, ManifestSource, PlatformApp, PlatformLabels, PromotionPipeline, Requirement,
  SelectorOperator, Versioning,
} from '../../src';
import { applicationsUpdatedBy, expandApplicationSet } from '../support/argocd-simulation';
import { appProps, find, managedAuth, ofKind, synthApp, world } from '../support/fixtures';

describe('PlatformApp', () => {
  test('snapshot', () => {
    expect(synthApp().objects).toMatchSnapshot();
  });

  test('one Kargo Project, ProjectConfig, Warehouse and PromotionTask; one Stage per wave; one AppProject and one ApplicationSet', () => {
    const { objects } = synthApp();
    const kinds = objects.map(o => `${o.kind}/${o.metadata.name}`);
    expect(kinds).toEqual([
      'Project/api', 'ProjectConfig/api', 'Warehouse/api', 'PromotionTask/render-cluster',
      // staging and prod-canary wait prod's soak in their verification
      'Stage/dev', 'AnalysisTemplate/staging-verification', 'Stage/staging', 'AnalysisTemplate/prod-canary-verification', 'Stage/prod-canary', 'Stage/prod-broad',
      'ServiceAccount/promoter-prod', 'Role/promoter-prod', 'RoleBinding/promoter-prod',
      'AppProject/api',
      'ApplicationSet/api',
    ]);
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

  test('the ProjectConfig enables auto-promotion exactly for the automatic stages', () => {
    const { objects } = synthApp();
    expect(find(objects, 'ProjectConfig', 'api').spec.promotionPolicies).toEqual([
      { stageSelector: { name: 'dev' }, autoPromotionEnabled: true },
      { stageSelector: { name: 'staging' }, autoPromotionEnabled: true },
    ]);
  });

  test('the Warehouse subscribes to the image and to the source repository path', () => {
    const { objects } = synthApp();
    expect(find(objects, 'Warehouse', 'api').spec.subscriptions).toEqual([
      { image: { repoURL: 'ghcr.io/acme/api', imageSelectionStrategy: 'SemVer', constraint: '^1.0.0' } },
      { git: { repoURL: 'https://github.com/acme/api.git', commitSelectionStrategy: 'NewestFromBranch', branch: 'main', includePaths: ['chart'] } },
    ]);
  });

  test('stages chain dev -> staging -> prod waves; the soak before each prod wave is waited in the verification before it', () => {
    const { objects } = synthApp();
    const stage = (name: string) => find(objects, 'Stage', name);
    const sources = (name: string) => stage(name).spec.requestedFreight[0].sources;
    expect(sources('dev')).toEqual({ direct: true });
    expect(sources('staging')).toEqual({ stages: ['dev'] });
    expect(sources('prod-canary')).toEqual({ stages: ['staging'] });
    expect(sources('prod-broad')).toEqual({ stages: ['prod-canary'] });
    expect(['dev', 'staging', 'prod-canary', 'prod-broad'].map(s => stage(s).metadata.annotations['gitops-platform.io/soak'])).toEqual([undefined, undefined, '30m', '30m']);
    expect(['dev', 'staging', 'prod-canary', 'prod-broad'].map(s => stage(s).spec.verification?.analysisTemplates))
      .toEqual([undefined, [{ kind: 'AnalysisTemplate', name: 'staging-verification' }], [{ kind: 'AnalysisTemplate', name: 'prod-canary-verification' }], undefined]);
    const soak = find(objects, 'AnalysisTemplate', 'staging-verification').spec;
    expect(soak.dryRun).toEqual([{ metricName: '^soak$' }]);
    expect(soak.metrics.map((m: any) => [m.name, m.initialDelay, m.count, m.provider.job.spec.template.spec.containers[0].command]))
      .toEqual([['soak', '30m', 1, ['node', '-e', '']]]);
  });

  test('stage steps: clone, clear, render every cluster of the wave, commit, push, argocd-update', () => {
    const { objects } = synthApp();
    const steps = find(objects, 'Stage', 'prod-canary').spec.promotionTemplate.spec.steps;
    expect(steps.map((s: any) => s.uses ?? `task:${s.task.name}`)).toEqual([
      'git-clone', 'git-clone', 'git-clear', 'task:render-cluster', 'task:render-cluster', 'git-commit', 'git-push', 'argocd-update',
    ]);
    expect(steps.map((s: any) => s.as)).toEqual([
      'clone-source', 'clone-release', 'clear', 'render-aws-prod-cpu-1', 'render-gcp-prod-h100-1', 'commit', 'push', 'sync',
    ]);
    expect(steps[1].config.checkout).toEqual([{ branch: 'rendered/api/prod-canary', create: true, path: './out' }]);
    expect(steps[3].vars).toEqual([
      { name: 'stage', value: 'prod' }, { name: 'cluster', value: 'aws-prod-cpu-1' }, { name: 'region', value: 'us-east-1' },
      { name: 'provider', value: 'aws' }, { name: 'accelerator', value: 'none' }, { name: 'tier', value: 'prod' },
      { name: 'kubeVersion', value: '1.31' },
    ]);
    expect(steps[7].config).toEqual({
      apps: [{
        namespace: 'argocd',
        selector: { matchLabels: { [PlatformLabels.APP]: 'api', [PlatformLabels.PIPELINE_STAGE]: 'prod', [PlatformLabels.STAGE]: 'prod-canary' } },
        sources: [{ repoURL: 'https://github.com/acme/releases.git', desiredRevision: '${{ quote(outputs[\'push\'].commit) }}' }],
      }],
    });
  });

  test('the source and the release repository are cloned once when they are the same repository', () => {
    const { objects } = synthApp(() => ({ releaseRepo: 'https://github.com/acme/api.git' }));
    const steps = find(objects, 'Stage', 'dev').spec.promotionTemplate.spec.steps;
    expect(steps[0]).toMatchObject({ uses: 'git-clone', as: 'clone', config: { repoURL: 'https://github.com/acme/api.git' } });
    expect(steps[0].config.checkout).toHaveLength(2);
    expect(steps[1].uses).toBe('git-clear');
  });

  test('the render task renders one cluster with helm, injecting the image tag from Freight', () => {
    const { objects } = synthApp();
    const task = find(objects, 'PromotionTask', 'render-cluster');
    expect(task.spec.vars.map((v: any) => v.name)).toEqual(['stage', 'cluster', 'region', 'provider', 'accelerator', 'tier', 'kubeVersion']);
    expect(task.spec.steps).toHaveLength(1);
    expect(task.spec.steps[0].uses).toBe('helm-template');
    expect(task.spec.steps[0].config).toMatchObject({
      path: './src/chart',
      outPath: './out/${{ vars.cluster }}/manifests.yaml',
      releaseName: 'api',
      namespace: 'api',
      valuesFiles: ['./src/chart/values-${{ vars.stage }}.yaml'],
    });
    expect(task.spec.steps[0].config.setValues.slice(0, 2)).toEqual([
      { key: 'image.repository', value: 'ghcr.io/acme/api', literal: true },
      { key: 'image.tag', value: '${{ quote(imageFrom(\'ghcr.io/acme/api\').Tag) }}', literal: true },
    ]);
  });

  test('one generator per wave lists exactly the wave\'s clusters and carries its Stage, branch and authorized stage; the template renders them', () => {
    const { objects } = synthApp();
    const appSet = find(objects, 'ApplicationSet', 'api');
    const selector = (clusters: string[]) => ({ matchExpressions: [{ key: PlatformLabels.CLUSTER, operator: 'In', values: clusters }] });
    const values = (stage: string, kargoStage: string) => ({
      pipelineStage: stage, kargoStage, releaseBranch: `rendered/api/${kargoStage}`, authorizedStage: `api:${kargoStage}`,
    });
    expect(appSet.spec.generators).toEqual([
      { clusters: { selector: selector(['aws-dev-cpu', 'gcp-dev-h100']), values: values('dev', 'dev') } },
      { clusters: { selector: selector(['aws-stg-cpu', 'gcp-stg-h100']), values: values('staging', 'staging') } },
      { clusters: { selector: selector(['aws-prod-cpu-1', 'gcp-prod-h100-1']), values: values('prod', 'prod-canary') } },
      { clusters: { selector: selector(['aws-prod-cpu-2', 'gcp-prod-h100-2']), values: values('prod', 'prod-broad') } },
    ]);
    expect(appSet.spec.template.metadata.annotations['kargo.akuity.io/authorized-stage']).toBe('{{ .values.authorizedStage }}');
    expect(appSet.spec.template.metadata.labels).toEqual({
      [PlatformLabels.APP]: 'api',
      [PlatformLabels.PIPELINE_STAGE]: '{{ .values.pipelineStage }}',
      [PlatformLabels.STAGE]: '{{ .values.kargoStage }}',
      [PlatformLabels.CLUSTER]: '{{ .name }}',
    });
    expect(appSet.spec.template.spec.source).toEqual({ repoURL: 'https://github.com/acme/releases.git', targetRevision: '{{ .values.releaseBranch }}', path: '{{ .name }}' });
    expect(appSet.spec.syncPolicy).toEqual({ preserveResourcesOnDeletion: true });
  });

  test('every Stage updates exactly the Applications of its wave, and each authorizes it', () => {
    const { objects, world: w, app } = synthApp();
    const secrets = Testing.synth(w.fleet);
    const applications = ofKind(objects, 'ApplicationSet').flatMap(a => expandApplicationSet(a, secrets));
    for (const stage of app.plan.stages) {
      for (const wave of stage.waves) {
        const updated = applicationsUpdatedBy(find(objects, 'Stage', wave.kargoStage), applications);
        expect(updated.map(u => u.app.destination.name).sort()).toEqual(wave.clusters);
        expect(updated.every(u => u.authorized)).toBe(true);
        expect(updated.every(u => u.app.appSet === wave.applicationSet)).toBe(true);
      }
    }
    expect(applications.map(a => a.name).sort()).toEqual(app.plan.clusters.map(c => `api-${c}`));
  });

  test('gated stages get Kargo RBAC: the owner groups may promote into exactly that stage\'s Kargo Stages', () => {
    const { objects } = synthApp(() => ({ owner: { team: 'payments', contact: '#payments', groups: ['payments-leads', 'sre'] } }));
    expect(find(objects, 'ServiceAccount', 'promoter-prod').metadata.annotations).toEqual({
      'rbac.kargo.akuity.io/claims': '{"groups":["payments-leads","sre"]}',
    });
    const promote = find(objects, 'Role', 'promoter-prod').rules.filter((r: any) => r.verbs.includes('promote'));
    expect(promote).toEqual([
      { apiGroups: ['kargo.akuity.io'], resources: ['stages'], resourceNames: ['prod-canary'], verbs: ['promote'] },
      { apiGroups: ['kargo.akuity.io'], resources: ['stages'], resourceNames: ['prod-broad'], verbs: ['promote'] },
    ]);
    // promoters see the verification they wait on (the AnalysisRuns Kargo starts)
    expect(find(objects, 'Role', 'promoter-prod').rules).toContainEqual({ apiGroups: ['argoproj.io'], resources: ['analysisruns'], verbs: ['get', 'list', 'watch'] });
    expect(find(objects, 'RoleBinding', 'promoter-prod')).toMatchObject({
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'promoter-prod' },
      subjects: [{ kind: 'ServiceAccount', name: 'promoter-prod', namespace: 'api' }],
    });
    // automatic stages need no promoters
    expect(objects.filter(o => o.kind === 'Role').map(o => o.metadata.name)).toEqual(['promoter-prod']);
  });

  test('the AppProject allows only the release repository and the app\'s clusters and namespace', () => {
    const { objects } = synthApp(() => ({ targets: ClusterSelector.accelerator(Accelerator.NVIDIA_H100), namespace: 'payments' }));
    const project = find(objects, 'AppProject', 'api');
    expect(project.spec.sourceRepos).toEqual(['https://github.com/acme/releases.git']);
    expect(project.spec.destinations).toEqual([
      { name: 'gcp-dev-h100', server: 'https://10.0.0.2', namespace: 'payments' },
      { name: 'gcp-prod-h100-1', server: 'https://10.0.0.7', namespace: 'payments' },
      { name: 'gcp-prod-h100-2', server: 'https://10.0.0.8', namespace: 'payments' },
      { name: 'gcp-stg-h100', server: 'https://10.0.0.4', namespace: 'payments' },
    ]);
    // CreateNamespace=true: the project permits exactly the Namespace its Applications create
    expect(project.spec.clusterResourceWhitelist).toEqual([{ group: '', kind: 'Namespace', name: 'payments' }]);
    expect(JSON.stringify(project)).not.toContain('"*"');
  });

  test('targets narrow every stage to matching clusters', () => {
    const { app } = synthApp(() => ({ targets: ClusterSelector.accelerator(Accelerator.NVIDIA_H100) }));
    expect(app.plan.stages.map(s => [s.name, s.waves.map(w => w.clusters)])).toEqual([
      ['dev', [['gcp-dev-h100']]],
      ['staging', [['gcp-stg-h100']]],
      ['prod', [['gcp-prod-h100-1'], ['gcp-prod-h100-2']]],
    ]);
  });

  test('requirements place the app only where they hold', () => {
    const { app } = synthApp(() => ({ requires: [Requirement.minKubernetesVersion('1.31')] }));
    expect(app.plan.clusters).not.toContain('gcp-dev-h100');
    expect(app.plan.clusters).toContain('aws-dev-cpu');
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

    test('fails if two apps have the same name', () => {
      const w = world();
      new PlatformApp(w.app, 'api', appProps(w));
      expect(() => new PlatformApp(w.app, 'api-2', appProps(w, { appName: 'api' })))
        .toThrow(/^PlatformApp 'api': appName is already used by PlatformApp 'api' \(construct api\), got "api"; give every app a unique name$/);
    });

    test('fails if the derived names of two apps collide', () => {
      const w = world();
      const other = new PromotionPipeline(w.app, 'other', { stages: [{ name: 'canary', clusters: ClusterSelector.all(), namespace: '{app}-{stage}' }] });
      new PlatformApp(w.app, 'api', appProps(w, { pipeline: other }));
      expect(() => new PlatformApp(w.app, 'api-canary', appProps(w)))
        .toThrow(/argocd ApplicationSet name is already used by PlatformApp 'api' \(construct api\), got "api-canary"; give the apps distinct names/);
    });

    test('fails if a pipeline stage selects no cluster of the fleet', () => {
      const w = world();
      w.pipeline.addStage({ name: 'dr', clusters: ClusterSelector.matchLabels({ role: 'disaster-recovery' }) });
      expect(() => new PlatformApp(w.app, 'api', appProps(w)))
        .toThrow(/pipeline 'standard': stage "dr" selector selects no cluster of fleet 'fleet', got role=disaster-recovery; fix the stage's selector/);
    });

    test('fails if two stages select the same cluster', () => {
      const w = world();
      w.pipeline.addStage({ name: 'gpu', clusters: ClusterSelector.accelerator(Accelerator.NVIDIA_H100) });
      expect(() => new PlatformApp(w.app, 'api', appProps(w))).toThrow(/cluster "gcp-dev-h100" is selected by both stage "dev" and stage "gpu"/);
    });

    test('fails if a wave name makes an invalid Kargo Stage name', () => {
      const w = world();
      w.pipeline.addStage({ name: 'x'.repeat(60), clusters: ClusterSelector.matchLabels({ nothing: 'here' }) });
      expect(() => new PlatformApp(w.app, 'api', appProps(w))).toThrow(/selects no cluster/);
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
