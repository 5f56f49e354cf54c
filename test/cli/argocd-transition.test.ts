import { describe, expect, test } from 'vitest';
import { PlatformLabels } from '../../src';
import { argoCdTransition } from '../../src/cli/argocd-transition';
import { ManifestSet } from '../../src/cli/manifest-set';
import { renderPlan } from '../../src/cli/plan-markdown';
import { diffTrees } from '../../src/cli/release-diff';
import { readModels } from '../../src/cli/release-model';
import { API, ARGO, CLUSTERS, prod, tree, withProdWaves } from '../support/cli-fixtures';

describe('argoCdTransition', () => {
  test('one ApplicationSet per wave: a swap blocks both ApplicationSets, and the plan says a person must act', () => {
    const swapped = withProdWaves(prod(1), prod(2, 4), prod(3, 5, 6, 7));
    const [api] = diffTrees(tree({ api: API }), tree({ api: swapped })).apps;
    // as conformance/controllers argocd reports it: each refused its ownership, and the Application it generates not run as generated
    expect(api.argoCd.findings.map((f) => `${f.name}: ${f.code}`).sort()).toEqual([
      'api-prod-w2: applicationset-application-outdated', 'api-prod-w2: applicationset-ownership-conflict',
      'api-prod-w3: applicationset-application-outdated', 'api-prod-w3: applicationset-ownership-conflict',
    ]);
    const markdown = renderPlan(diffTrees(tree({ api: API }), tree({ api: swapped })), [], 'main');
    expect(markdown).toContain('- needs a person (`applicationset-ownership-conflict`): ApplicationSet argocd/api-prod-w2 generates Application '
      + 'argocd/api-prod-4 (controlled by ApplicationSet argocd/api-prod-w3): SetControllerReference refuses it on every reconcile');
    // this shape has no preserveResourcesOnDeletion: RenderTemplateParams gives its Applications the resources finalizer
    expect(markdown).toContain('the clusters stay on their old branch until a person deletes the Applications (and with them, by the resources finalizer, '
      + 'what they deployed)');
    expect(markdown).not.toContain('change ApplicationSet');
  });

  test('one ApplicationSet per app, a generator per wave: a swap changes both Applications in place', () => {
    const swapped = withProdWaves(prod(1), prod(2, 4), prod(3, 5, 6, 7));
    const change = diffTrees(tree({ api: { ...API, family: true } }), tree({ api: { ...swapped, family: true } }));
    const [api] = change.apps;
    expect(api.argoCd).toMatchObject({ ownerChanges: [], removedApplicationSets: [], cleared: [], findings: [] });
    expect(api.argoCd.inPlace.map((m) => `${m.application} ${m.stage.before} → ${m.stage.after}`)).toEqual([
      'argocd/api-prod-3 prod-w2 → prod-w3', 'argocd/api-prod-4 prod-w3 → prod-w2',
    ]);
    expect(renderPlan(change, [], 'main')).toContain('- 2 Applications change wave in place (api-prod-3 `prod-w2` → `prod-w3`, api-prod-4 `prod-w3` → '
      + '`prod-w2`): ApplicationSet `api` keeps them and, on its next reconcile, rewrites their release branch, `gitops-platform.io/stage` label '
      + 'and `kargo.akuity.io/authorized-stage`; no ownership change. A promotion into the new wave that starts before then does not select them yet');
    // the release model reads the waves from the generators
    expect(readModels(tree({ api: { ...swapped, family: true } })).get('api')!.stages[1].waves.map((w) => w.clusters)).toEqual([
      ['prod-1'], ['prod-2', 'prod-4'], ['prod-3', 'prod-5', 'prod-6', 'prod-7'],
    ]);
    // a change to the shared ApplicationSet is a production change only where it changes production Applications
    expect(api.productionObjects.changed).toEqual(['argoproj.io/v1alpha1 ApplicationSet argocd/api']);
    const devOnly = diffTrees(tree({ api: { ...API, family: true } }), tree({ api: { ...API, family: true, stages: [{ ...API.stages[0], waves: [['dev-1', 'dev-2']] }, API.stages[1]] } },
      { ...CLUSTERS, 'dev-2': 'dev' })).apps[0];
    expect(devOnly.objects.changed).toContain('argoproj.io/v1alpha1 ApplicationSet argocd/api');
    expect(devOnly.productionObjects.changed).toEqual([]);
  });

  test('an Application of a cluster with its own Argo CD changes wave in place, when its chart is applied', () => {
    const local = (stage: string) => ManifestSet.fromObjects([{
      file: 'api--edge-1.k8s.yaml',
      obj: { apiVersion: ARGO, kind: 'Application', metadata: { name: 'api-edge-1', namespace: 'argocd', labels: { [PlatformLabels.STAGE]: stage } }, spec: {} },
    }]);
    const transition = argoCdTransition(local('prod-w1').ofGroup('api'), local('prod-w2').ofGroup('api'));
    expect(transition.inPlace).toEqual([{ application: 'edge-1:argocd/api-edge-1', applicationSet: '', stage: { before: 'prod-w1', after: 'prod-w2' } }]);
    expect(renderPlan(diffTrees(local('prod-w1'), local('prod-w2')), [], 'main')).toContain('- 1 Application of clusters with their own Argo CD '
      + 'change wave in place (api-edge-1 on edge-1 `prod-w1` → `prod-w2`): each changes when its cluster\'s chart (`<app>--<cluster>.k8s.yaml`) '
      + 'is applied there; until then the new wave\'s Stage does not select it');
  });

  test('under the `create-only` policy a wave move is never applied: the plan says a person must act', () => {
    const swapped = withProdWaves(prod(1), prod(2, 4), prod(3, 5, 6, 7));
    const change = diffTrees(tree({ api: { ...API, family: true } }), tree({ api: { ...swapped, family: true } }), { applicationSetPolicy: 'create-only' });
    expect(renderPlan(change, [], 'main')).toContain('- needs a person (`applicationset-application-outdated`): ApplicationSet argocd/api generates '
      + 'argocd/api-prod-3, argocd/api-prod-4 with new fields but its policy create-only does not update (AllowUpdate)');
  });
});
