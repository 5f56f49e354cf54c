import * as fs from 'fs';
import * as path from 'path';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { describe, expect, test } from 'vitest';
import { run } from '../../src/cli';
import { API, CLUSTERS, prod, range, recordingIo, tree, WEB, withProdWaves, writeTree } from '../support/cli-fixtures';
import { ROOT, tempDir } from '../support/cli-temp-dirs';

function ajv() {
  const a = new Ajv({ allErrors: true, strict: true });
  addFormats(a);
  return a;
}

describe('--json', () => {
  test('plan: real output validates against src/cli/plan-output.schema.json', async () => {
    const dirs = tempDir();
    const freeze = [{ kind: 'deny', schedule: '0 18 * * fri', duration: '63h', clusters: ['prod-*'], description: 'weekend' }];
    const before = tree({ api: { ...API, syncWindows: freeze }, web: WEB });
    const after = tree({ api: { ...withProdWaves(prod(1), prod(2, 3), prod(...range(4, 13))), syncWindows: freeze } }, { ...CLUSTERS, 'prod-99': 'prod' });
    const { out, io } = recordingIo(ROOT);
    expect(await run(['plan', '--json', '--now', '2026-12-05T12:00:00Z', '--base-dir', writeTree(path.join(dirs, 'b'), before), '--head-dir', writeTree(path.join(dirs, 'h'), after)], io)).toBe(1);
    const output = JSON.parse(out.join(''));
    const validateSchema = ajv().compile(JSON.parse(fs.readFileSync(path.join(ROOT, 'src/cli/plan-output.schema.json'), 'utf8')));
    expect(validateSchema.errors ?? [], JSON.stringify(validateSchema.errors)).toEqual([]);
    expect(validateSchema(output), JSON.stringify(validateSchema.errors)).toBe(true);
    expect(output.schemaVersion).toBe(1);
    expect(output.apps.map((a: any) => [a.name, a.status])).toEqual([['api', 'changed'], ['web', 'removed']]);
    expect(output.rules.map((r: any) => [r.id, r.passed])).toEqual([['max-production-wave-growth', false], ['no-production-change-during-freeze', false]]);
    const appSet = output.apps[0].objects.changed.find((c: any) => c.key.endsWith('ApplicationSet argocd/api-prod-w3'));
    expect(appSet.fields[0]).toMatchObject({ path: '/spec/generators/0/clusters/selector/matchExpressions/0/values', before: prod(4, 5, 6, 7) });
    expect(output.fleet.clustersAdded).toEqual(['prod-99']);
    expect(output.risks.map((r: any) => r.code)).toContain('delete');
    // every risk but a wide change (whose subject is the count) lists the objects it is about
    for (const risk of output.risks.filter((r: any) => r.code !== 'wide-change')) expect(risk.objects.length, risk.message).toBeGreaterThan(0);
    expect(output.freezes).toEqual([{ app: 'api', stages: ['prod'], window: '"0 18 * * fri" for 63h – weekend', start: '2026-12-04T18:00:00.000Z', end: '2026-12-07T09:00:00.000Z', manualSync: false }]);
  });

  test('validate: real output validates against src/cli/validate-output.schema.json', async () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, 'a.k8s.yaml'), 'apiVersion: kargo.akuity.io/v1alpha1\nkind: Warehouse\nmetadata:\n  name: api\n  namespace: api\nspec:\n  subscriptions: []\n  colour: blue\n');
    const { out, io } = recordingIo(ROOT);
    expect(await run(['validate', '--json', dir], io)).toBe(1);
    const output = JSON.parse(out.join(''));
    const validateSchema = ajv().compile(JSON.parse(fs.readFileSync(path.join(ROOT, 'src/cli/validate-output.schema.json'), 'utf8')));
    expect(validateSchema(output), JSON.stringify(validateSchema.errors)).toBe(true);
    expect(output.errors).toBeGreaterThan(0);
    expect(output.issues[0]).toMatchObject({ kind: 'Warehouse', severity: 'error' });
  }, 60_000);
});
