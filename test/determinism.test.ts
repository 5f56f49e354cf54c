import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { App } from 'cdk8s';
import { describe, expect, test } from 'vitest';
import { defineExamples, ExampleOptions } from '../apps';
import { TERRAFORM_OUTPUT } from '../apps/platform';
import { Artifact, PlatformReport, Versioning } from '../src';

/** Synthesizes the examples the way `npm run synth` does and returns every output file's bytes. */
function synthFiles(options: ExampleOptions = {}): Map<string, string> {
  const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'synth-'));
  const app = new App({ outdir });
  defineExamples(app, options);
  app.synth();
  PlatformReport.write(app);
  return new Map(fs.readdirSync(outdir).sort().map(f => [f, fs.readFileSync(path.join(outdir, f), 'utf-8')]));
}

function changedFiles(before: Map<string, string>, after: Map<string, string>): string[] {
  const names = [...new Set([...before.keys(), ...after.keys()])].sort();
  return names.filter(n => before.get(n) !== after.get(n));
}

function terraformWith(change: (clusters: Record<string, any>) => void): string {
  const doc = JSON.parse(fs.readFileSync(TERRAFORM_OUTPUT, 'utf-8'));
  change(doc.clusters.value);
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'tf-')), 'clusters.json');
  fs.writeFileSync(file, JSON.stringify(doc));
  return file;
}

describe('determinism and blast radius', () => {
  const baseline = synthFiles();

  test('synthesizing twice gives byte-identical output', () => {
    const again = synthFiles();
    expect([...again.keys()]).toEqual([...baseline.keys()]);
    expect(changedFiles(baseline, again)).toEqual([]);
  });

  test('the committed manifests/ are exactly what synth produces', () => {
    const dir = path.join(__dirname, '..', 'manifests');
    const committed = new Map(fs.readdirSync(dir).sort().map(f => [f, fs.readFileSync(path.join(dir, f), 'utf-8')]));
    expect(changedFiles(committed, baseline)).toEqual([]);
  });

  test('changing one field of one app changes only that app\'s files', () => {
    const after = synthFiles({
      overrides: { 'checkout-api': { artifacts: [Artifact.image('registry.acme.example/commerce/checkout-api', { versioning: Versioning.semver('^3.0.0') })] } },
    });
    expect(changedFiles(baseline, after)).toEqual(['checkout-api.k8s.yaml']);
  });

  test('changing an app\'s owner changes only that app\'s files', () => {
    const after = synthFiles({ overrides: { 'model-server': { owner: { team: 'ml-serving', contact: '#ml-serving' } } } });
    expect(changedFiles(baseline, after)).toEqual(['model-server.k8s.yaml', 'model-server.plan.md']);
  });

  test('adding a cluster changes only the fleet\'s files and those of the apps whose targets include it', () => {
    const after = synthFiles({
      terraformOutput: terraformWith(clusters => {
        clusters['gcp-usc1-h200-prod-09'] = {
          endpoint: 'https://34.118.99.99',
          provider: 'gcp',
          ca_data: 'Q0E=',
          region: 'us-central1',
          tier: 'prod',
          accelerator: 'nvidia-h200',
          accelerator_count: 16,
          kubernetes_version: '1.31',
          labels: { ring: 'broad' },
        };
      }),
    });
    // an H200 cluster: the inference gateway (NVIDIA families) and the telemetry agent (every cluster) land on it
    const changed = changedFiles(baseline, after);
    expect(changed.filter(f => !f.startsWith('fleet.'))).toEqual([
      'inference-gateway.k8s.yaml', 'inference-gateway.plan.md', 'telemetry-agent.k8s.yaml', 'telemetry-agent.plan.md',
    ]);
    expect(changed).toContain('fleet.k8s.yaml');
  });

  test('adding a cluster with its own Argo CD adds its per-cluster charts and changes nothing on the hub for other clusters', () => {
    const after = synthFiles({
      terraformOutput: terraformWith(clusters => {
        clusters['azr-weu-cpu-prod-09'] = {
          endpoint: 'https://edge-09.hcp.westeurope.azmk8s.io',
          provider: 'azure',
          region: 'westeurope',
          tier: 'prod',
          kubernetes_version: '1.31',
          labels: { ring: 'broad' },
          argocd: { mode: 'per-cluster' },
        };
      }),
    });
    const changed = changedFiles(baseline, after);
    expect(changed).toContain('checkout-api--azr-weu-cpu-prod-09.k8s.yaml');
    expect(changed).toContain('telemetry-agent--azr-weu-cpu-prod-09.k8s.yaml');
    // no cluster Secret on the hub for it
    expect(after.get('fleet.k8s.yaml')).toBe(baseline.get('fleet.k8s.yaml'));
    expect(changed.filter(f => f.startsWith('inference-gateway') || f.startsWith('model-server'))).toEqual([]);
  });
});
