import { Duration } from 'cdk8s';
import { describe, expect, test } from 'vitest';
import { Approval, ClusterSelector, DeployFreeze, FreezeSchedule, PlatformApp, Tier } from '../../src';
import { appProps, errorOf, SMALL_FLEET, world } from '../support/fixtures';

const freeze = new DeployFreeze({ reason: 'year-end freeze', schedule: FreezeSchedule.cron('0 0 20 12 *', Duration.days(14)), stages: ['prod'] });

describe('a freeze on a pull-request stage', () => {
  test('is refused, wherever the freeze is given: Kargo checks it once, before the pull request is opened, and git-wait-for-pr has no timeout', () => {
    const stages = (approval: Approval) => [
      { name: 'dev', clusters: ClusterSelector.tier(Tier.DEV), approval: Approval.automatic() },
      { name: 'staging', clusters: ClusterSelector.tier(Tier.STAGING), approval: Approval.automatic() },
      { name: 'prod', clusters: ClusterSelector.tier(Tier.PROD), approval },
    ];
    const onPipeline = world(SMALL_FLEET, { stages: stages(Approval.pullRequest({ promoters: ['release'] })), freezes: [freeze] });
    expect(errorOf(() => new PlatformApp(onPipeline.app, 'api', appProps(onPipeline)))).toMatch(
      /^PlatformApp 'api': pipeline 'standard' stage "prod" is promoted by pull request and frozen, which Kargo v1.11.2 cannot hold: .*git-wait-for-pr waits for the merge without a timeout.*got \["year-end freeze"\]; give the frozen stage Approval.manual\(\)/);
    const onApp = world(SMALL_FLEET, { stages: stages(Approval.pullRequest({ promoters: ['release'] })) });
    expect(errorOf(() => new PlatformApp(onApp.app, 'api', appProps(onApp, { freezes: [freeze] })))).toMatch(/stage "prod" is promoted by pull request and frozen/);
    // a manual stage holds the freeze: the check runs when a person starts the promotion
    const manual = world(SMALL_FLEET, { stages: stages(Approval.manual({ promoters: ['release'] })), freezes: [freeze] });
    expect(() => new PlatformApp(manual.app, 'api', appProps(manual))).not.toThrow();
  });
});
