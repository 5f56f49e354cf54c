import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { Chart, Testing } from 'cdk8s';
import { describe, expect, test } from 'vitest';
import * as YAML from 'yaml';
import { Project, Stage, Warehouse } from '../../imports/kargo-kargo.akuity.io';
import { formatIssues, ManifestValidator } from '../../src/testkit';
import { expectClean, NS, project, validator } from '../support/testkit-objects';

describe('ManifestValidator', () => {
  test('validates objects synthesized by cdk8s', () => {
    const chart = new Chart(Testing.app(), 'demo');
    new Project(chart, 'project', { metadata: { name: NS } });
    new Warehouse(chart, 'warehouse', {
      metadata: { name: 'demo', namespace: NS },
      spec: { interval: '5m0s', subscriptions: [{ image: { repoURL: 'ghcr.io/acme/api', constraint: '^1.0.0' } }] as any },
    });
    new Stage(chart, 'stage', {
      metadata: { name: 'test', namespace: NS },
      spec: { requestedFreight: [{ origin: { kind: 'Warehouse' as any, name: 'demo' }, sources: { direct: true } }] },
    });
    expectClean(...Testing.synth(chart));
  });

  describe('loading', () => {
    test('fails with a helpful message if the crds directory is missing', () => {
      expect(() => ManifestValidator.load({ crdsDir: '/nonexistent/crds' })).toThrow(/crds directory "\/nonexistent\/crds" \(from the crdsDir option\) does not exist/);
    });

    test('needs no argument, environment or working directory: the schemas ship in the package', () => {
      const savedCwd = process.cwd();
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'testkit-cwd-'));
      process.chdir(dir);
      try {
        expect(formatIssues(ManifestValidator.load().validateObjects([project({ spec: {} })]))).toBe('inline Project/demo /spec: unknown field "spec"');
      } finally {
        process.chdir(savedCwd);
        fs.rmSync(dir, { recursive: true, force: true });
      }
    });

    test('validates many objects with one compiled validator', () => {
      const objects = YAML.parseAllDocuments(fs.readFileSync(path.join(__dirname, '..', '..', 'manifests', 'checkout-api.k8s.yaml'), 'utf8')).map((d) => d.toJS());
      expect(objects.length).toBeGreaterThan(10);
      const many = Array.from({ length: 1000 }, (_, i) => objects[i % objects.length]);
      expect(validator.validateObjects(many)).toEqual([]);
    });
  });
});
