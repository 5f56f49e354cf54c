import { Testing } from 'cdk8s';
import { describe, expect, test } from 'vitest';
import {
  Approval, ArgoCdTopology, ClusterFleet, ClusterOptions, ClusterSelector, ManifestSource, PipelineStageOptions, PlatformApp, PlatformAppProps,
  PromotionPipeline, StandardsRules, Tier,
} from '../../src';
import { simulateControllers } from '../../src/testkit';
import { releaseConsistencyProblems } from '../support/argocd-simulation';
import { appProps, find, ofKind, SMALL_FLEET } from '../support/fixtures';
import { modelInput, unexpectedFindings } from '../support/known-controller-problems';
import { appProject, directStage, NS, world } from '../support/testkit-model-fixtures';

const DEV = ClusterSelector.tier(Tier.DEV);
const HELM = ManifestSource.helm({ repoUrl: 'https://github.com/acme/api.git', path: 'chart', valuesFiles: ['values-{stage}.yaml'], apiVersions: ['monitoring.coreos.com/v1'] });

/** test and uat as namespaces of the dev clusters, prod on its own clusters (Kargo's quickstart shape). */
const QUICKSTART: PipelineStageOptions[] = [
  { name: 'test', clusters: DEV, namespace: '{app}-{stage}', approval: Approval.automatic() },
  { name: 'uat', clusters: DEV, namespace: '{app}-{stage}', approval: Approval.automatic() },
  { name: 'prod', clusters: ClusterSelector.tier(Tier.PROD), approval: Approval.manual() },
];

function synth(stages: PipelineStageOptions[], options: { clusters?: ClusterOptions[]; app?: Partial<PlatformAppProps>; name?: string } = {}) {
  const app = Testing.app();
  const fleet = new ClusterFleet(app, 'fleet', { clusters: options.clusters ?? SMALL_FLEET });
  const pipeline = new PromotionPipeline(app, 'quickstart', { stages });
  const platformApp = new PlatformApp(app, options.name ?? 'api', appProps({ app, fleet, pipeline }, { source: HELM, ...options.app }));
  const charts = app.charts.map(chart => ({ id: chart.node.id, objects: chart.toJson() }));
  return { platformApp, charts, objects: charts.find(c => c.id === platformApp.appName)!.objects as any[] };
}

function pipelineError(stage: PipelineStageOptions): string {
  try {
    new PromotionPipeline(Testing.app(), 'p', { stages: [stage] });
  } catch (e) {
    return (e as Error).message;
  }
  return 'no error';
}

describe('stage namespaces: validation', () => {
  test('an unknown placeholder is refused with the closest known one', () => {
    expect(pipelineError({ name: 'test', clusters: DEV, namespace: '{ap}-{stage}' })).toBe(
      'PromotionPipeline \'p\': stage "test" namespace uses the unknown placeholder {ap}, got "{ap}-{stage}"; did you mean "{app}"?');
    expect(pipelineError({ name: 'test', clusters: DEV, namespace: '{cluster}' })).toContain('use one of "{app}", "{stage}"');
  });

  test('a pattern that can never give a DNS-1123 label is refused eagerly', () => {
    expect(pipelineError({ name: 'test', clusters: DEV, namespace: '{app}_{stage}' })).toBe(
      'PromotionPipeline \'p\': stage "test" namespace must consist of lowercase letters, digits and \'-\', and start and end with a letter or digit '
      + 'once {app} and {stage} are filled in, got "{app}_{stage}"; use a DNS-1123 label pattern such as \'{app}-{stage}\'');
    expect(pipelineError({ name: 'test', clusters: DEV, namespace: '{app}-' })).toContain('stage "test" namespace must consist of');
  });

  test('a control-flow stage has no namespace', () => {
    expect(pipelineError({ name: 'gate', namespace: '{app}-{stage}' })).toContain('stage "gate" namespace is set on a control-flow stage');
  });

  test('the namespace of each app must fit a DNS-1123 label', () => {
    const long = 'a'.repeat(30);
    expect(() => synth([{ name: 'test', clusters: DEV, namespace: `{app}-{stage}-${long}` }], { name: `api-${long}` })).toThrow(
      new RegExp('stage "test" namespace \\(pattern "\\{app\\}-\\{stage\\}-a{30}" of pipeline \'quickstart\'\\) must be at most 63 characters \\(it has 70\\)'));
  });
});

describe('stage namespaces: placement', () => {
  test('stages may share clusters in different namespaces', () => {
    const { platformApp } = synth(QUICKSTART);
    const plan = platformApp.plan;
    expect(plan.stages.map(s => `${s.name}:${s.namespace}`)).toEqual(['test:api-test', 'uat:api-uat', 'prod:api']);
    expect(plan.destinationNamespace).toBe('api');
    expect(plan.clusters).toEqual(['aws-dev-cpu', 'aws-prod-cpu-1', 'aws-prod-cpu-2', 'gcp-dev-h100', 'gcp-prod-h100-1', 'gcp-prod-h100-2']);
  });

  test('two stages on one cluster in the same namespace are refused, naming the fix', () => {
    const stages = [QUICKSTART[0], { ...QUICKSTART[1], namespace: undefined }, { ...QUICKSTART[1], name: 'uat2', namespace: undefined }];
    expect(() => synth(stages)).toThrow('cluster "aws-dev-cpu" is selected by both stage "uat" and stage "uat2" of pipeline \'quickstart\' in one namespace, '
      + 'got namespace "api" for both; give one of the stages its own `namespace` (e.g. \'{app}-{stage}\'), or make the stages\' selectors disjoint');
    // a pattern that gives both stages the same namespace is the same mistake
    const same = QUICKSTART.slice(0, 2).map(s => ({ ...s, namespace: '{app}-pre' }));
    expect(() => synth(same)).toThrow('got namespace "api-pre" for both');
  });
});

describe('stage namespaces: output', () => {
  const { platformApp, charts, objects } = synth(QUICKSTART);

  test('Applications of a stage with its own namespace carry the stage; the others keep their names', () => {
    const appSets = ofKind(objects, 'ApplicationSet').map(a => [a.metadata.name, a.spec.template.metadata.name, a.spec.template.spec.destination.namespace]);
    expect(appSets).toEqual([
      ['api-test', 'api-test-{{ .name }}', 'api-test'],
      ['api-uat', 'api-uat-{{ .name }}', 'api-uat'],
      ['api', 'api-{{ .name }}', 'api'],
    ]);
    expect(releaseConsistencyProblems(platformApp.plan, charts)).toEqual([]);
  });

  test('the AppProject allows exactly the (cluster, namespace) pairs used and whitelists exactly the created namespaces', () => {
    const spec = find(objects, 'AppProject', 'api').spec;
    expect(spec.destinations.map((d: any) => `${d.name} ${d.namespace}`)).toEqual([
      'aws-dev-cpu api-test', 'aws-dev-cpu api-uat', 'aws-prod-cpu-1 api', 'aws-prod-cpu-2 api',
      'gcp-dev-h100 api-test', 'gcp-dev-h100 api-uat', 'gcp-prod-h100-1 api', 'gcp-prod-h100-2 api',
    ]);
    expect(spec.clusterResourceWhitelist).toEqual(['api', 'api-test', 'api-uat'].map(name => ({ group: '', kind: 'Namespace', name })));
  });

  test('helm-template renders each stage into its namespace', () => {
    const task = find(objects, 'PromotionTask', 'render-cluster');
    expect(task.spec.vars.map((v: any) => v.name)).toContain('namespace');
    expect(task.spec.steps.find((s: any) => s.uses === 'helm-template').config.namespace).toBe('${{ quote(vars.namespace) }}');
    const namespaces = (stage: string) => find(objects, 'Stage', stage).spec.promotionTemplate.spec.steps
      .filter((s: any) => s.task).map((s: any) => s.vars.find((v: any) => v.name === 'namespace').value);
    expect(namespaces('test')).toEqual(['api-test', 'api-test']);
    expect(namespaces('prod')).toEqual(['api', 'api', 'api', 'api']);
  });

  test('kustomize has no namespace to set: the render task is unchanged', () => {
    const kustomize = synth(QUICKSTART, { app: { source: ManifestSource.kustomize({ repoUrl: 'https://github.com/acme/api.git', basePath: 'base', overlayPath: 'stages/{stage}' }) } });
    const task = find(kustomize.objects, 'PromotionTask', 'render-cluster');
    expect(task.spec.vars.map((v: any) => v.name)).not.toContain('namespace');
  });

  test('without stage namespaces the render task takes no namespace variable', () => {
    const plain = synth(QUICKSTART.map(s => ({ ...s, namespace: undefined, clusters: s.name === 'uat' ? ClusterSelector.tier(Tier.STAGING) : s.clusters })));
    const task = find(plain.objects, 'PromotionTask', 'render-cluster');
    expect(task.spec.vars.map((v: any) => v.name)).not.toContain('namespace');
    expect(task.spec.steps.find((s: any) => s.uses === 'helm-template').config.namespace).toBe('api');
  });

  test('the controller model finds nothing new', () => {
    expect(unexpectedFindings(simulateControllers(modelInput(charts)))).toEqual([]);
  });
});

describe('stage namespaces: a cluster with its own Argo CD', () => {
  const clusters = SMALL_FLEET.map(c => c.name === 'gcp-dev-h100' ? { ...c, argoCd: ArgoCdTopology.perCluster() } : c);
  const { platformApp, charts } = synth(QUICKSTART, { clusters });
  const own = charts.find(c => c.id === 'api--gcp-dev-h100')!.objects;

  test('one chart, one AppProject for both namespaces, one Application per stage', () => {
    expect(charts.filter(c => c.id.startsWith('api--')).map(c => c.id)).toEqual(['api--gcp-dev-h100']);
    const project = find(own, 'AppProject', 'api').spec;
    expect(project.destinations).toEqual([
      { server: 'https://kubernetes.default.svc', namespace: 'api-test' },
      { server: 'https://kubernetes.default.svc', namespace: 'api-uat' },
    ]);
    expect(project.clusterResourceWhitelist.map((r: any) => r.name)).toEqual(['api-test', 'api-uat']);
    expect(ofKind(own, 'Application').map(a => `${a.metadata.name} ${a.spec.destination.namespace}`)).toEqual([
      'api-test-gcp-dev-h100 api-test', 'api-uat-gcp-dev-h100 api-uat',
    ]);
    expect(releaseConsistencyProblems(platformApp.plan, charts)).toEqual([]);
  });

  test('the controller model finds nothing new', () => {
    expect(unexpectedFindings(simulateControllers(modelInput(charts)))).toEqual([]);
  });
});

describe('stage namespaces: names', () => {
  test('a pattern that gives the app its own namespace changes nothing', () => {
    const stages = QUICKSTART.map(s => ({ ...s, namespace: '{app}', clusters: s.name === 'uat' ? ClusterSelector.tier(Tier.STAGING) : s.clusters }));
    const { platformApp, objects } = synth(stages);
    expect(platformApp.plan.stages.map(s => s.namespace)).toEqual(['api', 'api', 'api']);
    // one namespace, one family of Application names: one ApplicationSet, a generator per stage
    expect(ofKind(objects, 'ApplicationSet').map(a => [a.spec.template.metadata.name, a.spec.generators.length])).toEqual([['api-{{ .name }}', 3]]);
    expect(() => synth(QUICKSTART.map(s => ({ ...s, namespace: '{app}' })))).toThrow('got namespace "api" for both');
  });

  test('the name-length standard measures the Applications of stages with their own namespace', () => {
    const { platformApp } = synth(QUICKSTART);
    const rule = StandardsRules.nameLengths({ maxApplicationName: 19 });
    expect(rule.check(platformApp)).toEqual([
      'Application name has 20 characters, more than 19, got "api-test-aws-dev-cpu"; shorten the app, stage or cluster name',
      'Application name has 21 characters, more than 19, got "api-test-gcp-dev-h100"; shorten the app, stage or cluster name',
      'Application name has 20 characters, more than 19, got "api-uat-gcp-dev-h100"; shorten the app, stage or cluster name',
    ]);
  });

  test('an Application name that would collide is refused', () => {
    // stage "x" on cluster "dev" and the default-namespace stage on cluster "x-dev" both give api-x-dev
    const fleet: ClusterOptions[] = [
      { ...SMALL_FLEET[0], name: 'dev' },
      { ...SMALL_FLEET[0], name: 'x-dev', server: 'https://x-dev.example.com', tier: Tier.PROD },
    ];
    const stages: PipelineStageOptions[] = [
      { name: 'x', clusters: DEV, namespace: '{app}-{stage}', approval: Approval.automatic() },
      { name: 'prod', clusters: ClusterSelector.tier(Tier.PROD), approval: Approval.manual() },
    ];
    expect(() => synth(stages, { clusters: fleet })).toThrow(
      'Application name for cluster "x-dev" is also the Application name for cluster "dev" in stage "x", got "api-x-dev"; rename the stage or the cluster');
  });
});

describe('controller model: two stages as namespaces of the same clusters', () => {
  /** test and uat on both clusters, each in its own namespace with its own Application names; `broken` changes one object. */
  function sharedWorld(broken: { project?: any; sameNames?: boolean } = {}): any[] {
    const stages = [directStage('test', ['east', 'west']), directStage('uat', ['east', 'west'])];
    const objects = world(stages, {
      project: broken.project ?? appProject({
        destinations: [{ name: '*', namespace: `${NS}-test` }, { name: '*', namespace: `${NS}-uat` }],
        clusterResourceWhitelist: [{ group: '', kind: 'Namespace', name: `${NS}-test` }, { group: '', kind: 'Namespace', name: `${NS}-uat` }],
      }),
    });
    for (const appSet of objects.filter(o => o.kind === 'ApplicationSet')) {
      const stage = appSet.metadata.name.slice(NS.length + 1);
      appSet.spec.template.spec.destination.namespace = `${NS}-${stage}`;
      if (!broken.sameNames) appSet.spec.template.metadata.name = `${NS}-${stage}-{{ .name }}`;
    }
    return objects;
  }
  const lines = (objects: any[]) => simulateControllers(objects).map(f => `${f.code} ${f.kind}/${f.name}: ${f.message}`);

  test('done right: no findings', () => {
    expect(lines(sharedWorld())).toEqual([]);
  });

  test('a project missing the second namespace: the uat Applications may not deploy there', () => {
    const project = appProject({
      destinations: [{ name: '*', namespace: `${NS}-test` }],
      clusterResourceWhitelist: [{ group: '', kind: 'Namespace', name: `${NS}-test` }],
    });
    expect(lines(sharedWorld({ project }))).toEqual([
      'destination-not-permitted ApplicationSet/shop-uat: destination server "https://EAST.gr7.us-east-1.eks.amazonaws.com" (name "east") namespace "shop-uat" '
      + 'is not permitted in project shop: the sync fails (Application shop-uat-east)',
      'destination-not-permitted ApplicationSet/shop-uat: destination server "https://WEST.gr7.us-east-1.eks.amazonaws.com" (name "west") namespace "shop-uat" '
      + 'is not permitted in project shop: the sync fails (Application shop-uat-west)',
      'namespace-not-permitted ApplicationSet/shop-uat: CreateNamespace=true makes Argo CD create Namespace "shop-uat", but AppProject shop has no '
      + 'clusterResourceWhitelist entry matching group "" kind Namespace name "shop-uat": every first sync fails with "resource :Namespace is not permitted '
      + 'in project shop" (Applications shop-uat-east, shop-uat-west)',
    ]);
  });

  test('both stages generating the same Application names: one stage never deploys', () => {
    const message = 'ApplicationSets shop-test and shop-uat all generate Applications shop-east, shop-west in namespace argocd: only the first to '
      + 'reconcile controls each, the others fail ("already owned by another"), so one stage never deploys to those clusters';
    expect(lines(sharedWorld({ sameNames: true })).filter(l => l.startsWith('application-name-conflict'))).toEqual([
      `application-name-conflict ApplicationSet/shop-test: ${message}`,
      `application-name-conflict ApplicationSet/shop-uat: ${message}`,
    ]);
  });
});
