import { describe, expect, test } from 'vitest';
import { ManifestSet } from '../../src/cli/manifest-set';
import { diffTrees } from '../../src/cli/release-diff';
import { riskFlags, touchedClusters } from '../../src/cli/risk-flags';
import { API, AppSpec, ARGO, CLUSTERS, prod, range, tree, WEB, withProdWaves } from '../support/cli-fixtures';

describe('risk flags', () => {
  const appSetKey = (app: string, wave: string) => `${ARGO} ApplicationSet argocd/${app}-${wave}`;

  test('a removed app: its ApplicationSets, AppProject and Kargo objects are deletes that say what Argo CD does', () => {
    const change = diffTrees(tree({ api: API, web: WEB }), tree({ web: WEB }));
    const risks = riskFlags(change);
    const appSet = risks.find((r) => r.objects[0] === appSetKey('api', 'prod-w1'))!;
    expect(appSet).toMatchObject({ code: 'delete', app: 'api' });
    expect(appSet.message).toBe(`${appSetKey('api', 'prod-w1')} is deleted: Kubernetes deletes its Applications (owner reference) and, without preserveResourcesOnDeletion, Argo CD deletes every resource they deployed`);
    expect(risks.find((r) => r.objects[0] === `${ARGO} AppProject argocd/api`)!.message)
      .toContain('Argo CD deletes it at once; Applications still in project "api" report "Application referencing project … which does not exist" and stop syncing');
  });

  test('preserveResourcesOnDeletion, cluster Secrets, delete-and-recreate, template renames, production and wide changes', () => {
    const preserve = (set: ManifestSet) => ManifestSet.fromObjects(set.objects.map((o) => (o.obj.kind === 'ApplicationSet'
      ? { file: o.file, obj: { ...o.obj, spec: { ...o.obj.spec, syncPolicy: { preserveResourcesOnDeletion: true } } } } : o)));
    const removed = riskFlags(diffTrees(preserve(tree({ api: API })), tree({})));
    expect(removed.find((r) => r.objects[0] === appSetKey('api', 'dev'))!.message).toContain('preserveResourcesOnDeletion is set, so they have no resources finalizer and the deployed resources stay, unmanaged');

    const { 'prod-20': _gone, ...fewer } = CLUSTERS;
    const fleetRisks = riskFlags(diffTrees(tree({}), tree({}, fewer)));
    expect(fleetRisks).toEqual([{ code: 'delete', app: 'fleet', objects: ['v1 Secret argocd/cluster-prod-20'], message: expect.stringContaining('Argo CD forgets the cluster') }]);

    // the same Namespace/name under another key: deleted, then created again
    const moved = ManifestSet.fromObjects(tree({ api: API }).objects.map((o) => (o.obj.kind === 'Warehouse' ? { file: o.file, obj: { ...o.obj, metadata: { ...o.obj.metadata, namespace: 'api-new' } } } : o)));
    expect(riskFlags(diffTrees(tree({ api: API }), moved)).filter((r) => r.code === 'delete-and-recreate').map((r) => r.objects))
      .toEqual([['kargo.akuity.io/v1alpha1 Warehouse api/api', 'kargo.akuity.io/v1alpha1 Warehouse api-new/api']]);

    const renamed = ManifestSet.fromObjects(tree({ api: API }).objects.map((o) => (o.obj.kind === 'ApplicationSet' && o.obj.metadata.name === 'api-dev'
      ? { file: o.file, obj: { ...o.obj, spec: { ...o.obj.spec, template: { ...o.obj.spec.template, metadata: { name: 'api-v2-{{ .name }}' } } } } } : o)));
    expect(riskFlags(diffTrees(tree({ api: API }), renamed)).map((r) => [r.code, r.objects])).toEqual([['recreates-applications', [appSetKey('api', 'dev')]]]);

    const grown = diffTrees(tree({ api: API }), tree({ api: withProdWaves(prod(1), prod(2, 3), prod(...range(4, 15))) }));
    expect(touchedClusters(grown)).toEqual(prod(...range(4, 15)).sort());
    expect(riskFlags(grown).map((r) => [r.code, r.message])).toEqual([
      ['production', 'changes production: 0 added, 1 changed, 0 removed object(s), stage prod'],
      ['wide-change', 'touches 12 clusters, more than 10'],
    ]);
    expect(riskFlags(grown, { maxClusters: 12 }).map((r) => r.code)).toEqual(['production']);

    // prod-2 moves from w2 to w1, prod-4…7 from the removed w3 to w2
    const regrouped = riskFlags(diffTrees(tree({ api: API }), tree({ api: withProdWaves(prod(1, 2), prod(3, 4, 5, 6, 7)) })));
    expect(regrouped.filter((r) => r.code === 'recreates-applications').map((r) => r.message)).toEqual([
      '5 Application(s) change ApplicationSet (argocd/api-prod-2, argocd/api-prod-4, argocd/api-prod-5, argocd/api-prod-6, argocd/api-prod-7): '
      + 'the old ApplicationSet deletes them and the new one creates them again',
    ]);
    // one ApplicationSet per app (the library's shape): the same moves change the Applications in place
    const regroupedFamily: AppSpec = { ...withProdWaves(prod(1, 2), prod(3, 4, 5, 6, 7)), family: true };
    const inPlace = riskFlags(diffTrees(tree({ api: { ...API, family: true } }), tree({ api: regroupedFamily })));
    expect(inPlace.filter((r) => r.code === 'recreates-applications')).toEqual([]);
  });
});
