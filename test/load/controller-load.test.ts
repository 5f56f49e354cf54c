import { describe, expect, test } from 'vitest';
import { defineExamples } from '../../apps';
import { PlatformReport, PlatformSynthApp } from '../../src';
import { ClusterFleet } from '../../src/fleet/cluster-fleet';
import { controllerLoadOf, measureControllerLoad } from '../../src/load/controller-load';

import { argoCd, kargo } from '../support/load-objects';

describe('measureControllerLoad', () => {
  const load = measureControllerLoad([...argoCd, ...kargo]);

  test('counts Applications per Argo CD and shard, and the ApplicationSets a cluster Secret change requeues', () => {
    expect(load.argoCds).toEqual([
      {
        instance: 'hub (argocd)',
        applicationSets: 3,
        applications: 4,
        clusters: 3,
        // a and c have a clusters generator (c nested in a matrix); b only a list
        requeuedPerClusterSecretChange: 2,
        renderedPerClusterSecretChange: 3,
        shards: [{ shard: '0', applications: 1, clusters: 1 }, { shard: '1', applications: 1, clusters: 1 }, { shard: '-', applications: 2, clusters: 1 }],
      },
      {
        instance: 'cluster edge-1',
        applicationSets: 0,
        applications: 1,
        clusters: 1,
        requeuedPerClusterSecretChange: 0,
        renderedPerClusterSecretChange: 0,
        shards: [{ shard: '-', applications: 1, clusters: 1 }],
      },
    ]);
  });

  test('counts Stages, Warehouses and template references per Kargo shard, the label standing in for spec.shard', () => {
    expect(load.kargoShards).toEqual([
      { shard: '', stages: 3, warehouses: 1, templateReferences: 2 },
      { shard: 'edge', stages: 1, warehouses: 1, templateReferences: 2 },
    ]);
  });

  test('counts templates that differ from another of their namespace only in name, labels and delays, and the Stages using templates of the objects', () => {
    expect(load.analysisTemplates).toEqual({ total: 3, sameButDelay: 1, stagesWithTemplates: 1 });
  });
});

describe('controller load of the examples', () => {
  const app = new PlatformSynthApp({ outdir: '/nonexistent' });
  defineExamples(app);
  const load = controllerLoadOf(app);

  test('the hub\'s shards hold the Applications the fleet assigned them from the plans', () => {
    const fleet = app.node.findAll().find(ClusterFleet.isClusterFleet)!;
    const hub = load.argoCds.find(a => a.instance === 'hub (argocd)')!;
    expect(hub.shards.map(s => ({ shard: Number(s.shard), applications: s.applications, clusters: s.clusters })))
      .toEqual(fleet.reportShards()!.shards.map(s => ({ shard: s.shard, applications: s.applications, clusters: s.clusters.length })));
  });

  test('every cluster with its own Argo CD is an instance of its own, with the Applications of its per-cluster charts', () => {
    const fleet = app.node.findAll().find(ClusterFleet.isClusterFleet)!;
    const own = fleet.clusters.filter(c => c.argoCd.kind === 'per-cluster').map(c => `cluster ${c.name}`).sort();
    expect(load.argoCds.filter(a => a.applicationSets === 0).map(a => a.instance)).toEqual(own);
  });

  test('the fleet report ends with the controller load', () => {
    const text = PlatformReport.renderControllerLoad(app);
    expect(text.startsWith('## Controller load\n')).toBe(true);
    expect(text).toContain('| hub (argocd) | 0 |');
  });
});
