import { describe, expect, test } from 'vitest';
import { PlatformLabels } from '../../src';
import { ManifestSet, readModels } from '../../src/cli';
import { CLUSTERS, tree, WEB } from '../cli-fixtures';

/** WEB, with its prod ApplicationSet's generator given another selector. */
function webSelecting(selector: unknown): ManifestSet {
  return ManifestSet.fromObjects(tree({ web: WEB }).objects.map((o) => (o.obj.kind === 'ApplicationSet' && o.obj.metadata.name === 'web-prod'
    ? { file: o.file, obj: { ...o.obj, spec: { ...o.obj.spec, generators: [{ clusters: { selector } }] } } }
    : o)));
}

const prodClusters = Object.keys(CLUSTERS).filter((c) => CLUSTERS[c] === 'prod').sort();

describe('readModels enumerates Applications as Argo CD generates them (the test kit\'s expansion)', () => {
  test('a cluster generator selecting by tier label deploys to every cluster Secret with that label', () => {
    const prod = readModels(webSelecting({ matchLabels: { [PlatformLabels.TIER]: 'prod' } })).get('web')!.stages.find((s) => s.name === 'prod')!;
    expect(prod.waves[0].clusters).toEqual(prodClusters);
    expect(prod.waves[0].targets.map((t) => t.application).sort()).toEqual(prodClusters.map((c) => `web-${c}`).sort());
  });

  test('a cluster named by the selector but without a cluster Secret gets no Application', () => {
    const selector = { matchExpressions: [{ key: PlatformLabels.CLUSTER, operator: 'In', values: ['prod-1', 'gone-1'] }] };
    const prod = readModels(webSelecting(selector)).get('web')!.stages.find((s) => s.name === 'prod')!;
    expect(prod.waves[0].clusters).toEqual(['prod-1']);
  });
});
