import { Duration, Testing } from 'cdk8s';
import { describe, expect, test } from 'vitest';
import { Approval, ApprovalKind, ClusterSelector, PromotionPipeline, SelectorOperator, Tier, Waves } from '../src';

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

  test('pull request approval opens the pull request automatically by default', () => {
    expect(Approval.pullRequest().autoPromote).toBe(true);
    expect(Approval.pullRequest({ openAutomatically: false }).autoPromote).toBe(false);
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

  test('fails if waves are invalid', () => {
    expect(() => new PromotionPipeline(Testing.app(), 'p', {
      stages: [{ name: 'prod', clusters: ClusterSelector.all(), waves: Waves.byPercentage([50, 20]) }],
    })).toThrow(/stage "prod" waves: Waves.byPercentage\(\) needs increasing percentages in \(0, 100\], got \[50,20\]/);
    expect(() => new PromotionPipeline(Testing.app(), 'p', {
      stages: [{ name: 'prod', clusters: ClusterSelector.all(), waves: Waves.byPercentage([10, 50]) }],
    })).toThrow(/must end at 100/);
    expect(() => new PromotionPipeline(Testing.app(), 'p', {
      stages: [{ name: 'prod', clusters: ClusterSelector.all(), waves: Waves.byLabel('ring', ['a', 'a']) }],
    })).toThrow(/Waves.byLabel\("ring"\) values must be unique, but name "a" twice, got \["a","a"\]/);
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

  test('fails at synth if the pipeline has no stages', () => {
    const app = Testing.app();
    new PromotionPipeline(app, 'empty');
    expect(() => app.synth()).toThrow(/\[empty\] pipeline has no stages; add one with addStage\(\)/);
  });
});
