import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { Testing } from 'cdk8s';
import { describe, expect, test } from 'vitest';
import { defineExamples } from '../apps';
import { TERRAFORM_OUTPUT } from '../apps/platform';
import { Accelerator, ArgoCdTopologyKind, CloudProvider } from '../src';
import { formatIssues, ManifestValidator } from '../src/testkit';

const validator = ManifestValidator.load();
const tfOutput = () => JSON.parse(fs.readFileSync(TERRAFORM_OUTPUT, 'utf-8'));

/** The examples on a modified copy of the Terraform output. */
function examplesWith(change: (clusters: Record<string, any>) => void) {
  const doc = tfOutput();
  change(doc.clusters.value);
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'tf-')), 'clusters.json');
  fs.writeFileSync(file, JSON.stringify(doc));
  return defineExamples(Testing.app(), { terraformOutput: file });
}

function shardOf(examples: ReturnType<typeof defineExamples>): Map<string, number> {
  const result = new Map<string, number>();
  for (const shard of examples.fleet.reportShards()!.shards) for (const c of shard.clusters) result.set(c, shard.shard);
  return result;
}

function moved(before: Map<string, number>, after: Map<string, number>): string[] {
  return [...before.keys()].filter(c => after.has(c) && after.get(c) !== before.get(c));
}

describe('the 100-cluster fleet from Terraform', () => {
  const examples = defineExamples(Testing.app());
  const { fleet } = examples;
  // the fleet's chart also holds Kargo's ClusterConfig (the platform's webhook receivers)
  const secrets = Testing.synth(fleet).filter(o => o.kind === 'Secret' && o.metadata.labels?.['argocd.argoproj.io/secret-type'] === 'cluster');

  test('has 100 clusters over 4 providers, 6 accelerator families plus CPU-only, 3 tiers', () => {
    expect(fleet.clusters).toHaveLength(100);
    const providers = [CloudProvider.AWS, CloudProvider.GCP, CloudProvider.AZURE, CloudProvider.OCI];
    expect(new Set(fleet.clusters.map(c => c.provider))).toEqual(new Set(providers));
    expect(new Set(fleet.clusters.map(c => c.accelerator.name))).toEqual(new Set([
      Accelerator.NONE, Accelerator.NVIDIA_H100, Accelerator.NVIDIA_H200, Accelerator.NVIDIA_GB200, Accelerator.AMD_MI300X,
      Accelerator.GOOGLE_TPU, Accelerator.AWS_TRAINIUM,
    ].map(a => a.name)));
    expect(new Set(fleet.clusters.map(c => c.tier.name))).toEqual(new Set(['dev', 'staging', 'prod']));
  });

  test('one valid, secret-free cluster Secret per central cluster, none for clusters with their own Argo CD', () => {
    const central = fleet.clusters.filter(c => c.argoCd.kind === ArgoCdTopologyKind.CENTRAL);
    expect(secrets.map(s => s.stringData.name).sort()).toEqual(central.map(c => c.name));
    expect(formatIssues(validator.validateObjects(secrets, 'fleet'))).toBe('');
    const configs = secrets.map(s => JSON.parse(s.stringData.config));
    for (const config of configs) {
      const text = JSON.stringify(config);
      for (const key of ['bearerToken', 'password', 'username', 'keyData', 'certData']) expect(text).not.toContain(key);
      expect(Object.keys(config).filter(k => k !== 'tlsClientConfig')).toHaveLength(1);
    }
    expect(new Set(configs.map(c => c.awsAuthConfig ? 'eks' : `${c.execProviderConfig.command} ${c.execProviderConfig.args[0]}`))).toEqual(new Set(['eks', 'argocd-k8s-auth gcp', 'argocd-k8s-auth azure', 'oci ce']));
  });

  test('every central cluster has a controller shard, and the shards are balanced by Applications (imbalance under 10%)', () => {
    const report = fleet.reportShards()!;
    expect(report.shards).toHaveLength(6);
    expect(report.imbalancePercent).toBeLessThan(10);
    const shards = new Map(secrets.map(s => [s.stringData.name, s.stringData.shard]));
    for (const s of report.shards) for (const c of s.clusters) expect(shards.get(c)).toBe(`${s.shard}`);
    // the shard loads are the Applications the apps place on those clusters (one per stage on a cluster shared by stages)
    const applications = (a: typeof examples.apps[number]) => a.plan.stages.flatMap(s => s.waves.flatMap(w => w.clusters));
    const total = examples.apps.reduce((n, a) => n + applications(a).filter(c => shards.has(c)).length, 0);
    expect(report.shards.reduce((n, s) => n + s.applications, 0)).toBe(total);
  });

  test.each([
    ['a CPU dev cluster', { provider: 'aws', region: 'us-east-1', tier: 'dev', accelerator: 'none' }],
    ['an H100 staging cluster', { provider: 'gcp', region: 'us-central1', tier: 'staging', accelerator: 'nvidia-h100', accelerator_count: 8 }],
    ['a GB200 canary cluster', { provider: 'azure', region: 'eastus', tier: 'prod', accelerator: 'nvidia-gb200', accelerator_count: 72, labels: { ring: 'canary' } }],
    ['an MI300X broad cluster', { provider: 'azure', region: 'westeurope', tier: 'prod', accelerator: 'amd-mi300x', accelerator_count: 8, labels: { ring: 'broad' } }],
    ['a CPU early cluster', { provider: 'aws', region: 'eu-west-1', tier: 'prod', labels: { ring: 'early' } }],
    ['an H200 broad cluster', { provider: 'gcp', region: 'europe-west4', tier: 'prod', accelerator: 'nvidia-h200', accelerator_count: 16, labels: { ring: 'broad' } }],
  ])('adding %s moves at most 3 other clusters to another shard', (_, cluster) => {
    const before = shardOf(examples);
    const after = examplesWith(clusters => {
      clusters['new-cluster-01'] = {
        endpoint: 'https://new-cluster-01.example.com',
        kubernetes_version: '1.31',
        ca_data: 'Q0E=',
        ...cluster.provider === 'aws' ? { auth: { type: 'eks', cluster_name: 'eks-new-cluster-01' } } : {},
        ...cluster,
      };
    });
    expect(moved(before, shardOf(after)).length).toBeLessThanOrEqual(3);
    expect(after.fleet.reportShards()!.imbalancePercent).toBeLessThan(10);
  });

  test('removing a cluster moves at most 3 others', () => {
    const before = shardOf(examples);
    for (const name of ['aws-use1-h100-prod-01', 'gcp-usc1-h100-prod-01', 'azr-eus-cpu-dev-01']) {
      const after = examplesWith(clusters => {
        delete clusters[name];
      });
      expect(moved(before, shardOf(after)).length).toBeLessThanOrEqual(3);
    }
  });

  test('at least one app targets a GPU family subset', () => {
    const gateway = examples.apps.find(a => a.appName === 'inference-gateway')!;
    const families = new Set(gateway.plan.clusters.map(c => fleet.findCluster(c)!.accelerator.name));
    expect(families).toEqual(new Set(['nvidia-h100', 'nvidia-h200', 'nvidia-gb200']));
  });
});
