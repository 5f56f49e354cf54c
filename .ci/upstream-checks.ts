/**
 * Checks of the test kit against upstream material that is not part of the project: Kargo's
 * v1.11.2 quickstart and the pinned CRD directory in shared/ beside the clone. `.ci/run` runs it
 * when shared/ is there; the tests themselves never read outside the project.
 *
 *   npx tsx .ci/upstream-checks.ts <path to shared/>
 */
import * as assert from 'node:assert/strict';
import * as fs from 'fs';
import * as path from 'path';
import * as YAML from 'yaml';
import { formatIssues, ManifestValidator } from '../src/testkit';

const shared = path.resolve(process.argv[2] ?? '../shared');
const quickstart = path.join(shared, 'reference', 'kargo-quickstart-v1.11.2.yaml');
const crds = path.join(shared, 'crds');
const validator = ManifestValidator.load();

// the quickstart, placeholders filled in and without its credentials Secret, is clean
const text = fs.readFileSync(quickstart, 'utf8')
  .replace(/\$\{GITOPS_REPO_URL\}/g, 'https://github.com/acme/kargo-demo.git')
  .replace(/\$\{GITHUB_USERNAME\}/g, 'acme-bot');
const objects = YAML.parseAllDocuments(text).map((d) => d.toJS()).filter((o) => o.kind !== 'Secret');
assert.deepEqual(objects.map((o) => o.kind), ['ApplicationSet', 'Project', 'Warehouse', 'PromotionTask', 'Stage', 'Stage', 'Stage']);
assert.equal(formatIssues(validator.validateObjects(objects, 'quickstart')), '');

// its credentials Secret is flagged as secret material
assert.equal(formatIssues(validator.validateFile(quickstart)),
  `${quickstart} Secret/kargo-demo/kargo-demo-repo /stringData/password: secret material: stringData.password carries a value; `
  + 'reference an identity (iam role, workload identity, exec plugin) or an external secret instead');

// the crdsDir override reads the pinned directory and judges as the shipped bundle does
const fromDir = ManifestValidator.load({ crdsDir: crds });
const bad = {
  apiVersion: 'kargo.akuity.io/v1alpha1', kind: 'Stage', metadata: { name: 'test', namespace: 'demo' },
  spec: { requestedFreight: [{ origin: { kind: 'Warehouse', name: 'demo' }, sources: { direct: true } }], bogus: 1 },
};
const expected = validator.validateObjects([bad]);
assert.ok(expected.length > 0, 'the unknown field must be reported');
assert.deepEqual(fromDir.validateObjects([bad]), expected);

console.log('upstream checks: the quickstart passes, its Secret is flagged, crdsDir agrees with the bundle');
