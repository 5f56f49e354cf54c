import { Testing } from 'cdk8s';
import { describe, expect, test } from 'vitest';
import { Approval, ClusterFleet, ClusterSelector, Join, JoinKind, PlatformApp, PromotionPipeline, Tier } from '../../src';
import { appProps, find, SMALL_FLEET } from '../support/fixtures';

/** dev, then staging and a control-flow gate side by side, then prod after both (upstreams sorted), joined by `join`. */
function sources(join?: Join) {
  const app = Testing.app();
  const fleet = new ClusterFleet(app, 'fleet', { clusters: SMALL_FLEET });
  const pipeline = new PromotionPipeline(app, 'p', {
    stages: [
      { name: 'dev', clusters: ClusterSelector.tier(Tier.DEV), approval: Approval.automatic() },
      { name: 'staging', clusters: ClusterSelector.tier(Tier.STAGING), approval: Approval.automatic() },
      { name: 'gate', after: ['dev'] },
      { name: 'prod', after: ['staging', 'gate'], join, clusters: ClusterSelector.tier(Tier.PROD) },
    ],
  });
  const objects = Testing.synth(new PlatformApp(app, 'api', appProps({ app, fleet, pipeline } as any)));
  return (stage: string) => find(objects, 'Stage', stage).spec.requestedFreight[0].sources;
}

describe('Join', () => {
  test('all (the default) asks Kargo for Freight verified in every upstream Stage; Kargo itself would take any one', () => {
    expect(Join.all().kind).toBe(JoinKind.ALL);
    // Kargo v1.11.2 reads an unset availabilityStrategy as OneOf: All is always written
    expect(sources()('prod')).toEqual({ stages: ['gate', 'staging'], availabilityStrategy: 'All' });
  });

  test('anyOf asks for Freight verified in any one upstream Stage', () => {
    expect(Join.anyOf().kind).toBe(JoinKind.ANY_OF);
    expect(sources(Join.anyOf())('prod')).toEqual({ stages: ['gate', 'staging'], availabilityStrategy: 'OneOf' });
  });

  test('a stage with one upstream Stage has nothing to join', () => {
    expect(sources(Join.anyOf())('staging')).toEqual({ stages: ['dev'] });
  });
});
