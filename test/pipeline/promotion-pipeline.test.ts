import { Duration, Testing } from 'cdk8s';
import { describe, expect, test } from 'vitest';
import { defineExamples } from '../../apps';
import {
  Approval, ApprovalKind, ClusterSelector, FanOut, JoinKind, PromotionPipeline, SelectorOperator, Tier, Verification, Waves,
} from '../../src';
import { simulateControllers } from '../../src/testkit';
import { modelApplications } from '../../src/testkit/model/argocd-applications';
import { SimulatedFreight } from '../../src/testkit/model/freight';
import { GitWorld, WorkDir } from '../../src/testkit/model/git-world';
import { StepEnv } from '../../src/testkit/model/kargo-steps';
import { inflateSteps, runPromotion } from '../../src/testkit/model/promotion-runner';
import { HostLanguage } from '../../src/util/host-language';
import { modelInput, unexpectedFindings } from '../support/known-controller-problems';

describe('PromotionPipeline', () => {
  test('stages keep their order and defaults', () => {
    const pipeline = new PromotionPipeline(Testing.app(), 'p', {
      stages: [{ name: 'dev', clusters: ClusterSelector.tier(Tier.DEV), approval: Approval.automatic() }],
    });
    const prod = pipeline.addStage({ name: 'prod', clusters: ClusterSelector.tier(Tier.PROD) });
    expect(pipeline.stages.map(s => s.name)).toEqual(['dev', 'prod']);
    expect(prod.approval.kind).toBe(ApprovalKind.MANUAL);
    expect(prod.approval.gated).toBe(true);
    expect(pipeline.stages[0].approval.autoPromote).toBe(true);
  });

  test('fails if a stage name is used twice', () => {
    const pipeline = new PromotionPipeline(Testing.app(), 'p');
    pipeline.addStage({ name: 'dev', clusters: ClusterSelector.all() });
    expect(() => pipeline.addStage({ name: 'dev', clusters: ClusterSelector.all() }))
      .toThrow(/PromotionPipeline 'p': stage name is already used in this pipeline, got "dev"; give every stage a unique name/);
  });

  test.each([
    ['is not a DNS label', 'Prod_EU', /stage name must consist of lowercase letters/],
    ['is empty', '', /stage name must not be empty/],
    ['is longer than 63 characters', 'p'.repeat(64), /stage name must be at most 63 characters/],
  ])('fails if a stage name %s', (_, name, message) => {
    expect(() => new PromotionPipeline(Testing.app(), 'p', { stages: [{ name, clusters: ClusterSelector.all() }] })).toThrow(message);
  });

  test('fails if a stage selector is invalid, naming the pipeline and stage', () => {
    expect(() => new PromotionPipeline(Testing.app(), 'p', {
      stages: [{ name: 'prod', clusters: ClusterSelector.expression('ring', SelectorOperator.IN, []) }],
    })).toThrow(/PromotionPipeline 'p': stage "prod" clusters: selector requirement "ring In" needs at least one value/);
  });

  test('fails if a stage is wrong, naming the fields and calls as a Python or Go program writes them', () => {
    const pipeline = (stage: object) => () => new PromotionPipeline(Testing.app(), 'p', { stages: [stage as never] });
    expect(() => HostLanguage.using(HostLanguage.PYTHON, pipeline({ name: 'prod', clusters: 'prod' }))).toThrow(
      'PromotionPipeline \'p\': stage "prod" clusters must be a ClusterSelector, got "prod"; use ClusterSelector.tier(Tier.PROD) or similar');
    expect(() => HostLanguage.using(HostLanguage.GO, pipeline({ name: 'prod', clusters: 'prod' }))).toThrow(
      'PromotionPipeline \'p\': stage "prod" Clusters must be a ClusterSelector, got "prod"; use ClusterSelector_Tier(Tier_PROD()) or similar');
    expect(() => HostLanguage.using(HostLanguage.GO, pipeline({ name: 'prod', clusters: ClusterSelector.all(), soak: '1h' }))).toThrow(
      'stage "prod" Soak must be a Duration, got "1h"; use Duration_Minutes(jsii.Number(30)) or Duration_Hours(jsii.Number(1))');
    const app = Testing.app();
    new PromotionPipeline(app, 'empty');
    expect(() => HostLanguage.using(HostLanguage.PYTHON, () => app.synth())).toThrow(/pipeline stages must not be empty, got \[\]; add one with add_stage\(\)/);
  });

  test('fails if a control-flow stage has waves, or a wave factory gets no values, naming them as Python and Go do', () => {
    const pipeline = () => new PromotionPipeline(Testing.app(), 'p', { stages: [{ name: 'gate', fanOut: FanOut.byLabel('region') }] });
    expect(pipeline).toThrow('stage "gate" fanOut is set on a control-flow stage (a stage without clusters), got "fanOut"');
    expect(() => HostLanguage.using(HostLanguage.PYTHON, pipeline)).toThrow('stage "gate" fan_out is set on a control-flow stage (a stage without clusters), got "fan_out"');
    expect(HostLanguage.using(HostLanguage.GO, () => Waves.byLabel('ring', [])._problems)).toEqual(['Waves_ByLabel(jsii.String("ring")) needs at least one value, got []']);
    expect(HostLanguage.using(HostLanguage.PYTHON, () => Waves.byLabel('ring', [])._problems)).toEqual(['Waves.by_label("ring") needs at least one value, got []']);
  });

  test('fails if a soak time is not a duration', () => {
    expect(() => new PromotionPipeline(Testing.app(), 'p', {
      stages: [{ name: 'prod', clusters: ClusterSelector.all(), soak: '1h' as unknown as Duration }],
    })).toThrow(/stage "prod" soak must be a Duration, got "1h"; use Duration.minutes\(30\)/);
    expect(() => new PromotionPipeline(Testing.app(), 'p', {
      stages: [{ name: 'prod', clusters: ClusterSelector.all(), soak: Duration.millis(1500) }],
    })).toThrow(/soak must be a positive whole number of seconds, got "1.5s"/);
  });

  test('fails if a stage with a soak follows a control-flow stage, where Freight never soaks', () => {
    expect(() => new PromotionPipeline(Testing.app(), 'p', {
      stages: [
        { name: 'dev', clusters: ClusterSelector.tier(Tier.DEV) },
        { name: 'gate' },
        { name: 'prod', clusters: ClusterSelector.tier(Tier.PROD), soak: Duration.hours(1) },
      ],
    })).toThrow(/PromotionPipeline 'p': stage "prod" soak follows control-flow stage "gate", where Freight never soaks \(Kargo v1.11.2 counts no soak time in a Stage without promotion steps\), got "1h"; move the soak to stage "gate": it is then waited in the checks of the stages before it/);
  });

  test('fails if two stages after one upstream ask for different soaks: the upstream waits one soak', () => {
    const stages = (soak?: Duration) => [
      { name: 'staging', clusters: ClusterSelector.tier(Tier.STAGING) },
      { name: 'prod', clusters: ClusterSelector.tier(Tier.PROD), soak: Duration.hours(1) },
      { name: 'perf', after: ['staging'], clusters: ClusterSelector.tier(Tier.DEV), soak },
    ];
    expect(() => new PromotionPipeline(Testing.app(), 'p', { stages: stages() }))
      .toThrow(/stage "perf" soak differs from the soak of stage "prod" \(1h\), which also follows stage "staging"; the soak is waited in the checks of stage "staging", once for every stage after it, got "no soak"; give every stage after "staging" the same soak/);
    expect(() => new PromotionPipeline(Testing.app(), 'p', { stages: stages(Duration.minutes(30)) })).toThrow(/got "30m"/);
    expect(new PromotionPipeline(Testing.app(), 'p', { stages: stages(Duration.minutes(60)) }).stages).toHaveLength(3);
  });

  test('fails if promoters are not group names', () => {
    expect(() => new PromotionPipeline(Testing.app(), 'p', {
      stages: [{ name: 'prod', clusters: ClusterSelector.all(), approval: Approval.manual({ promoters: ['sre team'] }) }],
    })).toThrow(/stage "prod" approval: promoters must be OIDC group names without spaces or commas, got "sre team"/);
  });

  test('fails if the wave budget is invalid', () => {
    expect(() => new PromotionPipeline(Testing.app(), 'p', { waveBudget: { maxPercent: 0 } })).toThrow(/waveBudget.maxPercent must be in \(0, 100\], got 0/);
    expect(() => new PromotionPipeline(Testing.app(), 'p', { waveBudget: { maxClusters: 1.5 } })).toThrow(/waveBudget.maxClusters must be a whole number >= 1, got 1.5/);
  });

  test('fails with every problem of a stage at once: three mistakes, one run, three problems', () => {
    const pipeline = new PromotionPipeline(Testing.app(), 'p', { stages: [{ name: 'dev', clusters: ClusterSelector.tier(Tier.DEV) }] });
    expect(() => pipeline.addStage({
      name: 'prod',
      clusters: ClusterSelector.tier(Tier.PROD),
      after: ['staging'],
      waves: Waves.byPercentage([50, 20]),
      soak: Duration.millis(1500),
    })).toThrow([
      "PromotionPipeline 'p': 3 problems",
      '  - stage "prod" after is not a stage added before it, got "staging"; name earlier stages ("dev"); add upstream stages first',
      '  - stage "prod" waves: Waves.byPercentage() needs increasing percentages in (0, 100], got [50,20]',
      '  - stage "prod" soak must be a positive whole number of seconds, got "1.5s"; use Duration.minutes() or Duration.hours()',
    ].join('\n'));
    // nothing of a refused stage is kept: it can be added again, right
    expect(pipeline.addStage({ name: 'prod', clusters: ClusterSelector.tier(Tier.PROD) }).after).toEqual(['dev']);
  });

  test('fails with the problems of the pipeline and all its stages at once; a stage after a refused one is not refused for it', () => {
    expect(() => new PromotionPipeline(Testing.app(), 'p', {
      waveBudget: { maxPercent: 0 },
      stages: [
        { name: 'dev', clusters: 'dev' as never },
        { name: 'gate' },
        { name: 'prod', after: ['dev'], clusters: ClusterSelector.tier(Tier.PROD), soak: Duration.hours(1) },
      ],
    })).toThrow([
      "PromotionPipeline 'p': 2 problems",
      '  - waveBudget.maxPercent must be in (0, 100], got 0',
      '  - stage "dev" clusters must be a ClusterSelector, got "dev"; use ClusterSelector.tier(Tier.PROD) or similar',
    ].join('\n'));
  });

  test('fails at synth if the pipeline has no stages', () => {
    const app = Testing.app();
    new PromotionPipeline(app, 'empty');
    expect(() => app.synth()).toThrow(/\[empty\] pipeline stages must not be empty, got \[\]; add one with addStage\(\)/);
  });
});

// Kargo's "advanced" example (kargo.md §17): dev -> staging -> A/B test -> control-flow prod gate
// -> three regional Stages, reproduced by the example app `storefront` on the `advanced` pipeline.
describe('promotion graph: Kargo\'s advanced topology', () => {
  const app = Testing.app();
  const examples = defineExamples(app);
  const storefront = examples.apps.find(a => a.appName === 'storefront')!;
  const charts = app.charts.map(chart => ({ id: chart.node.id, objects: chart.toJson() }));
  const objects = charts.find(c => c.id === 'storefront')!.objects;
  const stages = new Map<string, any>(objects.filter(o => o.kind === 'Stage').map(o => [o.metadata.name, o]));
  const sources = (name: string) => stages.get(name).spec.requestedFreight[0].sources;
  const regions = ['prod-americas', 'prod-asia', 'prod-europe'];

  test('the plan is the graph: A/B pair after staging, joined any-of by a control-flow gate, three regions after it', () => {
    const plan = storefront.plan;
    const waves = plan.stages.flatMap(s => s.waves.map(w => [w.kargoStage, w.upstreams.join('+'), w.join ?? '', w.controlFlow ? 'cf' : '']));
    expect(waves).toEqual([
      ['dev', '', '', ''],
      ['staging', 'dev', '', ''],
      ['ab-test-a', 'staging', '', ''],
      ['ab-test-b', 'staging', '', ''],
      ['prod-gate', 'ab-test-a+ab-test-b', JoinKind.ANY_OF, 'cf'],
      ['prod-americas', 'prod-gate', '', ''],
      ['prod-asia', 'prod-gate', '', ''],
      ['prod-europe', 'prod-gate', '', ''],
    ]);
    const prod = plan.stages.find(s => s.name === 'prod')!;
    expect(prod.waves.map(w => [w.branch, w.releaseBranch, w.applicationSet])).toEqual(regions.map(r =>
      // one ApplicationSet for the app's namespace: a cluster moving between regions keeps its owner
      [r.slice(5), `rendered/storefront/${r}`, 'storefront']));
    const gate = plan.stages.find(s => s.name === 'prod-gate')!.waves[0];
    expect([gate.clusters, gate.releaseBranch, gate.applicationSet]).toEqual([[], undefined, undefined]);
  });

  test('the synthesized Stages have the shape of Kargo\'s example', () => {
    // the checks a Stage's one generated AnalysisTemplate holds
    const checksOf = (template: string) => objects.find(o => o.kind === 'AnalysisTemplate' && o.metadata.name === template)
      .metadata.annotations['gitops-platform.io/checks'].split(',');
    expect([...stages.keys()].sort()).toEqual(['ab-test-a', 'ab-test-b', 'dev', 'prod-americas', 'prod-asia', 'prod-europe', 'prod-gate', 'staging']);
    // the gate: a control-flow Stage (no promotionTemplate) taking Freight verified in either variant
    expect(stages.get('prod-gate').spec.promotionTemplate).toBeUndefined();
    expect(stages.get('prod-gate').spec.verification).toBeUndefined();
    // no requiredSoakTime: Kargo reconciles a control-flow Stage on no timer, so the gate's soak is
    // waited in each variant's verification, and the gate passes Freight on once one has verified it
    expect(sources('prod-gate')).toEqual({ stages: ['ab-test-a', 'ab-test-b'], availabilityStrategy: 'OneOf' });
    for (const ab of ['ab-test-a', 'ab-test-b']) {
      expect(sources(ab)).toEqual({ stages: ['staging'] });
      expect(stages.get(ab).spec.verification.analysisTemplates.map((t: any) => t.name)).toEqual([`${ab}-verification`]);
      expect(checksOf(`${ab}-verification`)).toEqual([`smoke-${ab.slice(-1)}`, 'soak']);
    }
    // three independent regional Stages, each with its own steps, checks, branch and generator
    const appSet = objects.find(o => o.kind === 'ApplicationSet' && o.metadata.name === 'storefront');
    const generated = appSet.spec.generators.map((g: any) => g.clusters.values);
    for (const r of regions) {
      expect(sources(r)).toEqual({ stages: ['prod-gate'] });
      expect(stages.get(r).spec.promotionTemplate.spec.steps.length).toBeGreaterThan(0);
      expect(stages.get(r).spec.verification.analysisTemplates).toMatchObject([{ name: `${r}-verification` }]);
      expect(checksOf(`${r}-verification`)).toEqual(['smoke-prod']);
      expect(generated.filter((v: any) => v.kargoStage === r)).toEqual([
        { pipelineStage: 'prod', kargoStage: r, releaseBranch: `rendered/storefront/${r}`, authorizedStage: `storefront:${r}` },
      ]);
    }
    expect(generated.map((v: any) => v.kargoStage)).not.toContain('prod-gate');
    expect(objects.filter(o => o.kind === 'ApplicationSet').map(o => o.metadata.name)).toEqual(['storefront']);
    const config = objects.find(o => o.kind === 'ProjectConfig');
    expect(config.spec.promotionPolicies.map((p: any) => p.stageSelector.name)).toEqual(['dev', 'staging', 'ab-test-a', 'ab-test-b']);
  });

  test('the controller model finds no new problem kind on the graph', () => {
    expect(unexpectedFindings(simulateControllers(modelInput(charts)))).toEqual([]);
  });

  test('each regional Stage is promoted and rolled back to older Freight on its own', () => {
    const world = new GitWorld();
    // Applications come from the ApplicationSets and the fleet's cluster Secrets
    const apps = modelApplications(modelInput(charts));
    const tasks = new Map(objects.filter(o => o.kind === 'PromotionTask').map(o => [`PromotionTask/${o.metadata.name}`, o]));
    const warehouse = objects.find(o => o.kind === 'Warehouse');
    let n = 0;
    const promote = (name: string, generation: number) => {
      const stage = stages.get(name);
      const env: StepEnv = {
        world,
        workDir: new WorkDir(),
        project: 'storefront',
        stage: name,
        promotion: `${name}.${++n}`,
        chartDependencies: 'any',
        applications: apps,
        reviewer: 'merge',
        synced: [],
      };
      const result = runPromotion({ stage, steps: inflateSteps(stage, tasks), freight: SimulatedFreight.of(warehouse, generation), env });
      expect(result.steps.filter(x => x.status !== 'Succeeded').map(x => `${x.step.alias}: ${x.error}`)).toEqual([]);
      return env;
    };
    const repo = () => world.remote('https://github.com/acme/releases.git');
    const head = (name: string) => repo().head(`rendered/storefront/${name}`)!.tree;
    for (const r of regions) promote(r, 1);
    const v1 = Object.fromEntries(regions.map(r => [r, head(r)]));
    for (const r of regions) promote(r, 2);
    const v2 = Object.fromEntries(regions.map(r => [r, head(r)]));
    for (const r of regions) expect(v2[r]).not.toEqual(v1[r]);
    // roll Europe back alone: its branch returns to the older release, the other regions keep the newer
    const rollback = promote('prod-europe', 1);
    expect(head('prod-europe')).toEqual(v1['prod-europe']);
    expect(head('prod-americas')).toEqual(v2['prod-americas']);
    expect(head('prod-asia')).toEqual(v2['prod-asia']);
    // and only Europe's Applications are synced
    const synced = rollback.synced.map(s => s.app.name).sort();
    expect(synced).toEqual(['storefront-aws-euc1-cpu-prod-01', 'storefront-gcp-euw4-cpu-prod-01']);
  });
});

describe('promotion graph: validation', () => {
  function pipelineWith(stages: any[]) {
    const app = Testing.app();
    return new PromotionPipeline(app, 'p', { stages });
  }

  test('after must name a stage added before', () => {
    expect(() => pipelineWith([{ name: 'dev', clusters: ClusterSelector.tier(Tier.DEV) }, { name: 'prod', after: ['qa'], clusters: ClusterSelector.tier(Tier.PROD) }]))
      .toThrow(/^PromotionPipeline 'p': stage "prod" after is not a stage added before it, got "qa"; name earlier stages \("dev"\)/);
  });

  test('a control-flow stage cannot be gated, run checks or fan out', () => {
    expect(() => pipelineWith([{ name: 'dev', clusters: ClusterSelector.tier(Tier.DEV) }, { name: 'gate', approval: Approval.manual() }]))
      .toThrow(/stage "gate" approval is gated on a control-flow stage, which Kargo never promotes into, got "manual"; gate the stages after it \(their approval\), or give the control-flow stage a soak \(waited in the checks of the stages before it\)/);
    expect(() => pipelineWith([{ name: 'gate', verification: [Verification.http({ name: 'x', url: 'https://x.example.com' })] }]))
      .toThrow(/stage "gate" verification is set on a control-flow stage \(a stage without clusters\)/);
    expect(() => pipelineWith([{ name: 'gate', fanOut: FanOut.byLabel('region') }])).toThrow(/stage "gate" fanOut is set on a control-flow stage/);
  });

});
