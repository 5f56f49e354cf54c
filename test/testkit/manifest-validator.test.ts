import * as fs from 'fs';
import * as path from 'path';
import { Chart, Testing } from 'cdk8s';
import { describe, expect, test } from 'vitest';
import * as YAML from 'yaml';
import { Project, Stage, Warehouse } from '../../imports/kargo-kargo.akuity.io';
import { expectClean, NS, validator } from '../support/testkit-objects';

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

    test('validates many objects with one compiled validator', () => {
      const objects = YAML.parseAllDocuments(fs.readFileSync(path.join(__dirname, '..', '..', 'manifests', 'checkout-api.k8s.yaml'), 'utf8')).map((d) => d.toJS());
      expect(objects.length).toBeGreaterThan(10);
      const many = Array.from({ length: 1000 }, (_, i) => objects[i % objects.length]);
      expect(validator.validateObjects(many)).toEqual([]);
    });
  });
});
