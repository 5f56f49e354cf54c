import * as fs from 'fs';
import * as path from 'path';
import { describe, expect, test } from 'vitest';
import { run } from '../../src/cli';
import { ManifestSet } from '../../src/cli/manifest-set';
import { describeFieldChange, fieldChanges, isSecretField } from '../../src/cli/object-fields';
import { renderPlan } from '../../src/cli/plan-markdown';
import { diffTrees } from '../../src/cli/release-diff';
import { redactSecrets } from '../../src/util/redact';
import { CLUSTERS, fleet, recordingIo } from '../support/cli-fixtures';
import { ROOT, tempDir } from '../support/cli-temp-dirs';
import { CREDENTIAL_SHAPES } from '../support/credentials';

const QUERY = 'sum(rate(gateway_requests_total{cluster="dev-01",code=~"5.."}[5m])) / sum(rate(gateway_requests_total{cluster="dev-01"}[5m]))';
const template = (metrics: object[]) => ({ apiVersion: 'argoproj.io/v1alpha1', kind: 'AnalysisTemplate', metadata: { name: 'prod-verification' }, spec: { metrics } });
const errorRate = (threshold: string) => ({ name: 'error-rate', interval: '1m', provider: { prometheus: { query: QUERY } }, successCondition: `len(result) == 0 || isNaN(result[0]) || result[0] < ${threshold}` });
const version = { name: 'version', provider: { web: { url: 'https://x/version' } }, successCondition: 'result == \'1\'' };

describe('fieldChanges', () => {
  test('fleet: the fields of changed cluster Secrets', () => {
    const after = fleet(CLUSTERS);
    after[1].obj.stringData.shard = '4';
    after[1].obj.metadata.labels.ring = 'broad';
    const change = diffTrees(ManifestSet.fromObjects(fleet(CLUSTERS)), ManifestSet.fromObjects(after));
    // a Secret's data is never shown: the field is named, its value is not
    expect(change.fleet?.clusterFieldChanges).toEqual({ 'prod-1': ['/metadata/labels/ring: (none) → "broad"', '/stringData/shard: (redacted)'] });
    expect(renderPlan(change, [], 'main')).toContain('- **fleet: 1 cluster changed**');
    expect(renderPlan(change, [], 'main')).toContain('- cluster `prod-1` changed: /metadata/labels/ring: (none) → "broad", /stringData/shard: (redacted)');
  });

  test('the leaf fields that differ, as RFC 6901 pointers in key order; a list of values of another length is one leaf', () => {
    const before = { metadata: { labels: { 'a/b': 'x', 'c~d': 'y' } }, spec: { list: [1, 2], other: [1], same: { k: 1 } } };
    const after = { metadata: { labels: { 'a/b': 'X', 'c~d': 'y' } }, spec: { list: [1, 3], other: [1, 2], same: { k: 1 }, added: true } };
    expect(fieldChanges(before, after)).toEqual([
      { path: '/metadata/labels/a~1b', before: 'x', after: 'X' },
      { path: '/spec/added', after: true },
      { path: '/spec/list/1', before: 2, after: 3 },
      { path: '/spec/other', before: [1], after: [1, 2] },
    ]);
  });

  test('a core Secret\'s data and stringData are named, never shown; a long value is cut in the one-line form', () => {
    const secret = (token: string) => ({ apiVersion: 'v1', kind: 'Secret', stringData: { token } });
    expect(fieldChanges(secret('a'), secret('b'))).toEqual([{ path: '/stringData/token', redacted: true }]);
    expect(isSecretField({ apiVersion: 'v2', kind: 'Secret' }, '/data/x')).toBe(false);
    expect(describeFieldChange({ path: '/x', before: 'a'.repeat(100) }, 10)).toBe('/x: "aaaaaaaaa… → (none)');
  });

  test('an array whose elements have names: the changed field under the element\'s name', () => {
    const changes = fieldChanges(template([version, errorRate('0.01')]), template([version, errorRate('0.0201')]));
    expect(changes.map((f) => f.path)).toEqual(['/spec/metrics[name=error-rate]/successCondition']);
  });

  test('added and removed elements are listed by name, whole', () => {
    const changes = fieldChanges(template([version, errorRate('0.01')]), template([errorRate('0.01'), { ...version, name: 'ready' }]));
    expect(changes.map((f) => [f.path, f.element])).toEqual([['/spec/metrics[name=ready]', 'added'], ['/spec/metrics[name=version]', 'removed']]);
    expect(changes.map((f) => describeFieldChange(f))).toEqual(['/spec/metrics[name=ready]: added', '/spec/metrics[name=version]: removed']);
    expect(changes[1].before).toEqual(version);
  });

  test('elements without names by index; a list of values of another length as a whole', () => {
    const steps = (...uses: string[]) => ({ kind: 'Stage', spec: { steps: uses.map((u) => ({ uses: u })), clusters: uses } });
    expect(fieldChanges(steps('git-clone', 'helm-template'), steps('git-clone', 'kustomize-build', 'git-push')).map((f) => [f.path, f.element])).toEqual([
      ['/spec/clusters', undefined], ['/spec/steps/1/uses', undefined], ['/spec/steps/2', 'added'],
    ]);
  });
});

describe('describeFieldChange', () => {
  test('a long value is shown around its first difference, so the change is in sight', () => {
    const [change] = fieldChanges(errorRate('0.01'), errorRate('0.0201'));
    const line = describeFieldChange(change);
    expect(line).toBe('/successCondition: "len(result) == 0 || isNaN(result[0]) || result[0] < 0.01" → "len(result) == 0 || isNaN(result[0]) || result[0] < 0.0201"');
    const [query] = fieldChanges({ q: `${QUERY} > 0.5` }, { q: `${QUERY} > 0.7` });
    const shown = describeFieldChange(query, 40);
    expect(shown).toMatch(/^\/q: "?….*> 0\.5" → ….*> 0\.7"$/);
    expect(shown.length).toBeLessThan(110);
    const [start] = fieldChanges({ q: `a${QUERY}` }, { q: `b${QUERY}` });
    expect(describeFieldChange(start, 40)).toMatch(/^\/q: "a.{38}… → "b.{38}…$/);
  });

  test('a credential cut by the window shows no part of it: values are masked before they are cut', () => {
    for (const shape of CREDENTIAL_SHAPES) {
      const value = (end: string) => `${'x'.repeat(30)} ${shape.text} ${'y'.repeat(60)} ${end}`;
      const [change] = fieldChanges({ v: value('a') }, { v: value('b') });
      // what plan prints: the line, through the CLI's redaction
      const line = redactSecrets(describeFieldChange(change));
      const pieces = Array.from({ length: Math.max(0, shape.secret.length - 7) }, (_, i) => shape.secret.slice(i, i + 8));
      expect(pieces.filter((p) => line.includes(p)), `${shape.name}: ${line}`).toEqual([]);
    }
  });
});

test('plan on the example with a changed metric names the metric and the changed field', async () => {
  const dir = tempDir();
  const head = path.join(dir, 'head');
  fs.cpSync(path.join(ROOT, 'manifests'), head, { recursive: true });
  const file = path.join(head, 'inference-gateway.k8s.yaml');
  const yaml = fs.readFileSync(file, 'utf8');
  const changed = yaml.replace(/(name: error-rate-aws-use1-h100-dev-01\n(?:.*\n)*?\s+successCondition: .*result\[0\] < )0\.01\n/, '$10.0201\n');
  expect(changed).not.toBe(yaml);
  fs.writeFileSync(file, changed);
  const { out, io } = recordingIo(ROOT);
  await run(['plan', '--base-dir', path.join(ROOT, 'manifests'), '--head-dir', head], io);
  expect(out.join('')).toContain('/spec/metrics[name=error-rate-aws-use1-h100-dev-01]/successCondition: '
    + '"len(result) == 0 || isNaN(result[0]) || result[0] < 0.01" → "len(result) == 0 || isNaN(result[0]) || result[0] < 0.0201"');
}, 120_000);
