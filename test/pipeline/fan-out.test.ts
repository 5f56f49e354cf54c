import { Duration, Testing } from 'cdk8s';
import { describe, expect, test } from 'vitest';
import { Approval, CloudProvider, ClusterFleet, ClusterSelector, FanOut, PlatformApp, PromotionPipeline, Tier, Waves } from '../../src';
import { appProps, managedAuth } from '../support/fixtures';

describe('FanOut', () => {
  test('records the problems of its input for the stage to report', () => {
    expect(FanOut.byLabel(' ')._problems).toEqual(['FanOut.byLabel() needs a label key, got " "']);
    expect(FanOut.groups({})._problems).toEqual(['FanOut.groups() needs at least one group, got {}']);
    expect(FanOut.groups({ West: ClusterSelector.all(), east: 'east' as never })._problems).toEqual([
      'FanOut.groups() group name must consist of lowercase letters, digits and \'-\', and start and end with a letter or digit, got "West"; '
        + 'it names Kargo Stages: use a short label such as "west"',
      'FanOut.groups() group "east" must be a ClusterSelector, got "east"; use e.g. ClusterSelector.byLabel()',
    ]);
  });

  test('fan-out groups must place every cluster exactly once', () => {
    const app = Testing.app();
    const fleet = new ClusterFleet(app, 'fleet', {
      clusters: ['a', 'b', 'c'].map(n => ({
        name: `prod-${n}`,
        server: `https://${n}.example.com`,
        provider: CloudProvider.AWS,
        region: `r-${n}`,
        tier: Tier.PROD,
        auth: managedAuth(CloudProvider.AWS, `prod-${n}`),
      })),
    });
    const pipeline = new PromotionPipeline(app, 'p', {
      stages: [{
        name: 'prod',
        clusters: ClusterSelector.tier(Tier.PROD),
        approval: Approval.automatic(),
        soak: Duration.hours(1),
        fanOut: FanOut.groups({ west: ClusterSelector.region('r-a'), east: ClusterSelector.region('r-b') }),
      }],
    });
    expect(() => new PlatformApp(app, 'api', appProps({ app, fleet, pipeline } as any)))
      .toThrow(/stage "prod" fan-out cluster "prod-c" must be in exactly one group, got no group; make the FanOut.groups\(\) selectors cover every cluster/);
  });

  test('FanOut.byLabel(): one branch per value, waves inside each branch, the next stage joins every branch', () => {
    const app = Testing.app();
    const fleet = new ClusterFleet(app, 'fleet', {
      clusters: ['a1', 'a2', 'b1', 'b2', 'dr'].map(n => ({
        name: `c-${n}`,
        server: `https://${n}.example.com`,
        provider: CloudProvider.AWS,
        region: n.startsWith('a') ? 'west' : 'east',
        tier: n === 'dr' ? Tier.STAGING : Tier.PROD,
        kubernetesVersion: '1.31',
        auth: managedAuth(CloudProvider.AWS, `c-${n}`),
      })),
    });
    const pipeline = new PromotionPipeline(app, 'p', {
      stages: [
        {
          name: 'prod',
          clusters: ClusterSelector.tier(Tier.PROD),
          approval: Approval.automatic(),
          fanOut: FanOut.byLabel('gitops-platform.io/region'),
          waves: Waves.byCount(2),
        },
        { name: 'dr', clusters: ClusterSelector.tier(Tier.STAGING), approval: Approval.automatic() },
      ],
    });
    const plan = new PlatformApp(app, 'api', appProps({ app, fleet, pipeline } as any)).plan;
    expect(plan.stages.flatMap(s => s.waves.map(w => `${w.kargoStage}<${w.upstreams.join('+')}`))).toEqual([
      'prod-east-w1<', 'prod-east-w2<prod-east-w1', 'prod-west-w1<', 'prod-west-w2<prod-west-w1', 'dr<prod-east-w2+prod-west-w2',
    ]);
    expect(plan.stages[1].waves[0].join).toBeUndefined(); // all: Freight verified in both regions
  });
});
