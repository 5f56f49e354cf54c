import { Duration, Testing } from 'cdk8s';
import { describe, expect, test } from 'vitest';
import { Approval, ClusterFleet, ClusterSelector, DeployFreeze, FreezeSchedule, PlatformApp, Tier } from '../../src';
import { appProps, errorOf, find, ofKind, SMALL_FLEET, standardPipeline, world } from '../support/fixtures';
import { PROD_APPS, yearEnd } from '../support/freezes';

describe('applyFreezes', () => {
  test('stage and app freezes; a shared freeze counts once; per-cluster AppProjects get only their own Application', () => {
    const training = new DeployFreeze({ reason: 'training', schedule: FreezeSchedule.cron('0 22 * * 5', Duration.hours(56)), allowManualSync: true });
    const fleet = SMALL_FLEET.map(c => c.name === 'aws-prod-cpu-2' ? { ...c, argoCd: { kind: 'per-cluster' } as any } : c);
    const app = Testing.app();
    const f = new ClusterFleet(app, 'fleet', { clusters: fleet });
    const shared = yearEnd({ stages: undefined });
    const pipeline = standardPipeline(app, { freezes: [shared] });
    const a = new PlatformApp(app, 'api', { ...appProps({ app, fleet: f, pipeline }), freezes: [shared, training] });
    expect(a.plan.stages.map(s => s.freezes.map(x => `${x.origin}:${x.reason}`))).toEqual([
      ['pipeline:year-end freeze', 'app:training'], ['pipeline:year-end freeze', 'app:training'], ['pipeline:year-end freeze', 'app:training'],
    ]);
    const all = Testing.synth(a).concat(...app.charts.filter(c => c !== a).map(c => c.toJson()));
    const projects = ofKind(all, 'AppProject');
    const perCluster = projects.filter(p => p.spec.destinations[0].server === 'https://kubernetes.default.svc');
    expect(perCluster.map(p => p.spec.syncWindows.map((x: any) => x.applications))).toEqual([[['api-aws-prod-cpu-2'], ['api-aws-prod-cpu-2']]]);
    const central = projects.find(p => p.spec.destinations[0].server !== 'https://kubernetes.default.svc')!;
    expect(central.spec.syncWindows.map((x: any) => [x.description, x.manualSync, x.applications.length])).toEqual([
      ['year-end freeze', false, 7], ['training', true, 7],
    ]);
  });

  test('freezes sharing schedule and duration become one window (Argo CD keeps one per kind, schedule, duration)', () => {
    const w = world(SMALL_FLEET, { freezes: [yearEnd()] });
    const twin = yearEnd({ reason: 'audit', allowManualSync: true });
    const objects = Testing.synth(new PlatformApp(w.app, 'api', appProps(w, { freezes: [twin] })));
    expect(find(objects, 'AppProject', 'api').spec.syncWindows).toEqual([expect.objectContaining({
      description: 'year-end freeze; audit', manualSync: false, applications: PROD_APPS,
    })]);
    const w2 = world(SMALL_FLEET, { freezes: [yearEnd()] });
    expect(() => new PlatformApp(w2.app, 'api', appProps(w2, { freezes: [yearEnd({ reason: 'audit', timeZone: 'Asia/Tokyo' })] })))
      .toThrow(/freezes share the schedule "0 0 20 12 \* for 336h" in different time zones.*, got \[{"reason":"year-end freeze","timeZone":"UTC"},{"reason":"audit","timeZone":"Asia\/Tokyo"}\]/);
  });
});

describe('a freeze on a pull-request stage', () => {
  test('is refused, wherever the freeze is given: Kargo checks it once, before the pull request is opened, and git-wait-for-pr has no timeout', () => {
    const stages = (approval: Approval) => [
      { name: 'dev', clusters: ClusterSelector.tier(Tier.DEV), approval: Approval.automatic() },
      { name: 'staging', clusters: ClusterSelector.tier(Tier.STAGING), approval: Approval.automatic() },
      { name: 'prod', clusters: ClusterSelector.tier(Tier.PROD), approval },
    ];
    const onPipeline = world(SMALL_FLEET, { stages: stages(Approval.pullRequest({ promoters: ['release'] })), freezes: [yearEnd()] });
    expect(errorOf(() => new PlatformApp(onPipeline.app, 'api', appProps(onPipeline)))).toMatch(
      /^PlatformApp 'api': pipeline 'standard' stage "prod" is promoted by pull request and frozen, which Kargo v1.11.2 cannot hold: .*git-wait-for-pr waits for the merge without a timeout.*got \["year-end freeze"\]; give the frozen stage Approval.manual\(\)/);
    const onApp = world(SMALL_FLEET, { stages: stages(Approval.pullRequest({ promoters: ['release'] })) });
    expect(errorOf(() => new PlatformApp(onApp.app, 'api', appProps(onApp, { freezes: [yearEnd()] })))).toMatch(/stage "prod" is promoted by pull request and frozen/);
    // a manual stage holds the freeze: the check runs when a person starts the promotion
    const manual = world(SMALL_FLEET, { stages: stages(Approval.manual({ promoters: ['release'] })), freezes: [yearEnd()] });
    expect(() => new PlatformApp(manual.app, 'api', appProps(manual))).not.toThrow();
  });
});
