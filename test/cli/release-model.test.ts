import { describe, expect, test } from 'vitest';
import { PlatformLabels } from '../../src';
import { ManifestSet } from '../../src/cli/manifest-set';
import { readModels } from '../../src/cli/release-model';
import { API, CLUSTERS, MANIFESTS, tree, WEB } from '../support/cli-fixtures';

describe('release model', () => {
  test('stages, waves, gates, soak, checks, branches and artifacts from the objects', () => {
    const api = readModels(tree({ api: API })).get('api')!;
    expect(api.stages.map((s) => [s.name, s.production, s.waves.map((w) => `${w.name}:${w.clusters.join('+')}`)])).toEqual([
      ['dev', false, ['dev:dev-1']],
      ['prod', true, ['prod-w1:prod-1', 'prod-w2:prod-2+prod-3', 'prod-w3:prod-4+prod-5+prod-6+prod-7']],
    ]);
    const w2 = api.stages[1].waves[1];
    expect(w2).toMatchObject({ gates: ['manual + pull request'], soak: ['1h'], checks: ['smoke'], releaseBranches: ['rendered/api/prod-w2'] });
    expect(w2.targets).toEqual([
      { application: 'api-prod-2', namespace: 'api', clusters: ['https://prod-2.example.com', 'prod-2'] },
      { application: 'api-prod-3', namespace: 'api', clusters: ['https://prod-3.example.com', 'prod-3'] },
    ]);
    expect(api.stages[0].waves[0].gates).toEqual(['automatic']);
    expect(api.artifacts).toEqual([{ id: 'image ghcr.io/acme/api', versioning: 'strategy SemVer, constraint ^1.0.0' }]);
  });

  test('a wave\'s checks are those its Stages\' one generated template holds, as when each check had a template of its own', () => {
    const set = ManifestSet.load(MANIFESTS);
    // the same output with each generated template split into one per check, named <stage>-<check> (the shape before)
    const split = ManifestSet.fromObjects(set.objects.flatMap((o) => {
      const held = o.obj.kind === 'AnalysisTemplate' ? o.obj.metadata?.annotations?.['gitops-platform.io/checks'] : undefined;
      if (held === undefined && o.obj.kind === 'Stage' && o.obj.spec?.verification) {
        const refs = o.obj.spec.verification.analysisTemplates.flatMap((r: any) => {
          const template = set.objects.find((t) => t.obj.kind === 'AnalysisTemplate' && t.obj.metadata.name === r.name && t.obj.metadata.namespace === o.obj.metadata.namespace);
          const checks = template?.obj.metadata.annotations?.['gitops-platform.io/checks'];
          return checks === undefined ? [r] : checks.split(',').map((c: string) => ({ ...r, name: `${o.obj.metadata.name}-${c}` }));
        });
        return [{ ...o, obj: { ...o.obj, spec: { ...o.obj.spec, verification: { ...o.obj.spec.verification, analysisTemplates: refs } } } }];
      }
      return held === undefined ? [o] : [];
    }));
    const checks = (models: ReturnType<typeof readModels>) => [...models.values()]
      .flatMap((m) => m.stages.flatMap((st) => st.waves.map((w) => [w.name, w.checks])));
    expect(checks(readModels(set))).toEqual(checks(readModels(split)));
    const prodWaves = readModels(set).get('checkout-api')!.stages.find((st) => st.name === 'prod')!.waves;
    expect(prodWaves.map((w) => w.checks)).toEqual([['smoke', 'soak'], ['smoke', 'soak'], ['smoke', 'soak'], ['smoke']]);
  });

  test('the example: per-cluster Kargo Stages join their wave', () => {
    const models = readModels(ManifestSet.load(MANIFESTS));
    expect([...models.keys()]).toEqual(['checkout-api', 'docs-preview', 'guestbook', 'inference-gateway', 'model-server', 'storefront', 'telemetry-agent']);
    const prodStage = models.get('checkout-api')!.stages.find((s) => s.name === 'prod')!;
    expect(prodStage.production).toBe(true);
    expect(prodStage.waves.map((w) => w.name)).toEqual(['prod-w1', 'prod-w2', 'prod-w3', 'prod-w4']);
    expect(prodStage.waves[0].kargoStages).toEqual(['prod-w1', 'prod-w1-aws-apne1-cpu-prod-01', 'prod-w1-azr-eus-cpu-prod-01', 'prod-w1-oci-lhr-cpu-prod-01']);
    expect(prodStage.waves[0].clusters).toEqual(['aws-apne1-cpu-prod-01', 'azr-eus-cpu-prod-01', 'gcp-asse1-cpu-prod-01', 'oci-lhr-cpu-prod-01']);
    expect(prodStage.waves[0].gates).toEqual(['automatic + pull request']);
  });
});

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
