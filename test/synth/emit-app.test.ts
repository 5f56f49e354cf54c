import { Chart, Testing } from 'cdk8s';
import { describe, expect, test } from 'vitest';
import { ArgoCdTopology, ClusterFleet } from '../../src';
import { buildAppRelease } from '../../src/plan/build-release';
import { emitApp } from '../../src/synth/emit-app';
import { appProps, SMALL_FLEET, standardPipeline, synthApp } from '../support/fixtures';

describe('emitApp', () => {
  test('turns a release into the Kargo and Argo CD objects of its chart, what PlatformApp writes', () => {
    const { objects } = synthApp();
    const app = Testing.app();
    const chart = new Chart(app, 'api', { disableResourceNameHashes: true });
    const w = { app, fleet: new ClusterFleet(app, 'fleet', { clusters: SMALL_FLEET }), pipeline: standardPipeline(app) };
    emitApp(chart, buildAppRelease('PlatformApp \'api\'', 'api', appProps(w)));
    expect(Testing.synth(chart)).toEqual(objects);
  });

  test('a cluster with its own Argo CD gets a sibling chart (its own output file), named <app>--<cluster>', () => {
    const app = Testing.app();
    const clusters = SMALL_FLEET.map(c => (c.name === 'gcp-dev-h100' ? { ...c, argoCd: ArgoCdTopology.perCluster() } : c));
    const w = { app, fleet: new ClusterFleet(app, 'fleet', { clusters }), pipeline: standardPipeline(app) };
    const chart = new Chart(app, 'api', { disableResourceNameHashes: true });
    emitApp(chart, buildAppRelease('PlatformApp \'api\'', 'api', appProps(w)));
    const sibling = app.charts.find(c => c.node.id === 'api--gcp-dev-h100')!;
    expect(sibling.node.scope).toBe(app);
    expect(Testing.synth(sibling).map(o => `${o.kind}/${o.metadata.name}`)).toEqual(['AppProject/api', 'Application/api-gcp-dev-h100']);
    // the hub's ApplicationSet does not generate it
    const appSet = Testing.synth(chart).find(o => o.kind === 'ApplicationSet');
    expect(JSON.stringify(appSet.spec.generators)).not.toContain('gcp-dev-h100');
  });
});
