import { describe, expect, test } from 'vitest';
import { expectClean, linesOf, promotionTask } from '../support/testkit-objects';

describe('KargoJsonSchemas', () => {
  test('resolves references between step schemas (argocd-update selector from argocd-common.json)', () => {
    const update = (app: Record<string, unknown>) => promotionTask([{ uses: 'argocd-update', config: { apps: [app] } }]);
    expectClean(update({ selector: { matchLabels: { 'acme.io/app': 'demo' } }, namespace: 'argocd' }));
    expect(linesOf(update({ selector: { matchLabels: {} } }))).toEqual([
      '/spec/steps/0/config/apps/0/selector: matches none of the 2 alternatives (anyOf); closest alternative #0 fails with: /matchLabels: {} must not have fewer than 1 properties',
    ]);
  });
});
