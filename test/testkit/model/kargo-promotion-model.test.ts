import { describe, expect, test } from 'vitest';
import { modelApplications } from '../../../src/testkit/model/argocd-applications';
import { checkPromotions, conventionalDependency, SCENARIOS } from '../../../src/testkit/model/kargo-promotion-model';
import { CLUSTERS } from '../../support/controller-model';
import { directStage, world } from '../../support/testkit-model-fixtures';

const run = (objects: any[]) => checkPromotions(objects, modelApplications(objects)).map(f => `${f.code} ${f.name}`);

describe('checkPromotions', () => {
  test('runs every Stage through four promotions on one release repository: first, the same again, newer Freight, rollback', () => {
    expect(SCENARIOS.map(s => s.generation)).toEqual([1, 1, 2, 1]);
    expect(run(world([directStage('dev', CLUSTERS)]))).toEqual([]);
  });

  test('a Stage whose first promotion cannot check out its release branch fails in the first scenario', () => {
    const stage = directStage('dev', CLUSTERS);
    const clone = stage.spec.promotionTemplate.spec.steps.find((s: any) => s.uses === 'git-clone' && s.config.checkout.some((c: any) => c.branch));
    for (const c of clone.config.checkout) delete c.create;
    expect(run(world([stage]))).toContain('git-branch-missing dev');
  });

  test('a chart subscription is a Chart.yaml dependency by Helm\'s convention: an OCI chart by its registry path', () => {
    expect(conventionalDependency({ kind: 'chart', repoURL: 'oci://ghcr.io/acme/charts/base' } as never)).toEqual({ repository: 'oci://ghcr.io/acme/charts', name: 'base' });
    expect(conventionalDependency({ kind: 'chart', repoURL: 'https://charts.example.com', name: 'redis' } as never))
      .toEqual({ repository: 'https://charts.example.com', name: 'redis' });
  });
});
