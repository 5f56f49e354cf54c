import * as fs from 'fs';
import * as path from 'path';
import { describe, expect, test } from 'vitest';
import { PlatformLabels } from '../../src';
import { loadPair } from '../../src/cli/manifest-pair';
import { ManifestSet } from '../../src/cli/manifest-set';
import { renderPlan } from '../../src/cli/plan-markdown';
import { diffTrees } from '../../src/cli/release-diff';
import { API, ARGO, prod, tree, WEB, withProdWaves, writeTree } from '../support/cli-fixtures';
import { tempDir } from '../support/cli-temp-dirs';

const APPS = { api: API, web: WEB, shop: WEB, mail: WEB };
const CHANGED = { ...APPS, api: withProdWaves(prod(1, 2), prod(3, 4, 5, 6, 7)) };

/** A per-cluster file of `app` (as an app with its own Argo CD on a cluster gets one). */
function perClusterFile(dir: string, app: string, cluster: string, labelledApp = app): void {
  fs.writeFileSync(path.join(dir, `${app}--${cluster}.k8s.yaml`), [
    `apiVersion: ${ARGO}`, 'kind: AppProject', 'metadata:', `  name: ${app}`, '  namespace: argocd', '  labels:',
    `    ${PlatformLabels.APP}: ${labelledApp}`, 'spec: {}', '',
  ].join('\n'));
}

describe('loadPair', () => {
  const dirs = tempDir();
  const base = writeTree(path.join(dirs, 'base'), tree(APPS));
  const head = writeTree(path.join(dirs, 'head'), tree(CHANGED));
  perClusterFile(base, 'api', 'prod-1');
  perClusterFile(head, 'api', 'prod-1');
  perClusterFile(base, 'web', 'prod-2');
  perClusterFile(head, 'web', 'prod-2');

  test('a one-app change parses only the changed app\'s files and the fleet; the plan is the one of fully loaded trees', () => {
    const pair = loadPair(base, head);
    // fleet.k8s.yaml, api.k8s.yaml (differs: both sides) and api--prod-1.k8s.yaml (identical, but api is affected)
    expect([pair.parsed, pair.files]).toEqual([4, 7]);
    expect(pair.base.groups()).toEqual(['api', 'fleet', 'mail', 'shop', 'web']);
    expect(pair.head.ofGroup('web')).toEqual([]);
    expect(pair.head.ofGroup('api').map((o) => o.file)).toEqual(ManifestSet.load(head).ofGroup('api').map((o) => o.file));
    expect(pair.head.ofGroup('api').map((o) => o.file)).toContain('api--prod-1.k8s.yaml');
    const full = diffTrees(ManifestSet.load(base), ManifestSet.load(head));
    const fast = diffTrees(pair.base, pair.head);
    expect(fast.unaffected).toEqual(['mail', 'shop', 'web']);
    expect(renderPlan(fast, [], 'base')).toBe(renderPlan(full, [], 'base'));
  });

  test('identical sides: every app unaffected, only the fleet parsed', () => {
    const pair = loadPair(base, base);
    expect(pair.parsed).toBe(1);
    expect(diffTrees(pair.base, pair.head).unaffected).toEqual(['api', 'mail', 'shop', 'web']);
  });

  test('an identical file labelled for another app is parsed, and its object counted in that app', () => {
    const b = writeTree(path.join(dirs, 'other-base'), tree(APPS));
    const h = writeTree(path.join(dirs, 'other-head'), tree(CHANGED));
    perClusterFile(b, 'extras', 'prod-1', 'api');
    perClusterFile(h, 'extras', 'prod-1', 'api');
    const pair = loadPair(b, h);
    expect(pair.head.ofGroup('api').map((o) => o.file)).toContain('extras--prod-1.k8s.yaml');
    expect(pair.head.groups()).not.toContain('extras');
    expect(renderPlan(diffTrees(pair.base, pair.head), [], 'base')).toBe(renderPlan(diffTrees(ManifestSet.load(b), ManifestSet.load(h)), [], 'base'));
  });

  test('no base: everything in the head is parsed', () => {
    const pair = loadPair(undefined, head);
    expect(pair.base.objects).toEqual([]);
    expect(pair.parsed).toBe(7);
    expect(pair.head.objects).toEqual(ManifestSet.load(head).objects);
  });

  test('fails if a changed file does not parse: names the file', () => {
    const h = writeTree(path.join(dirs, 'broken-head'), tree(APPS));
    fs.writeFileSync(path.join(h, 'web.k8s.yaml'), 'kind: [\n');
    expect(() => loadPair(base, h)).toThrow(/^web\.k8s\.yaml does not parse as YAML, got "Flow sequence .*"; fix the YAML there$/);
  });
});
