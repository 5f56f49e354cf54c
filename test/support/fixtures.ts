import { Chart, Duration, Testing } from 'cdk8s';
import { Construct } from 'constructs';
import {
  Accelerator, Approval, Artifact, ClusterAuth, ClusterFleet, ClusterOptions, ClusterSelector, CloudProvider, ManifestSource,
  PlatformApp, PlatformAppProps, PromotionPipeline, PromotionPipelineProps, Tier, Versioning, Waves,
} from '../../src';

/** A public, fake CA certificate (base64 PEM header), as every managed cluster of the central Argo CD needs. */
export const TEST_CA = 'LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCg==';

/** How the central Argo CD reaches a managed cluster: its cloud identity and its CA. */
export function managedAuth(provider: CloudProvider, name: string): ClusterAuth | undefined {
  switch (provider) {
    case CloudProvider.AWS: return ClusterAuth.eks({ clusterName: `eks-${name}` }, { caData: TEST_CA });
    case CloudProvider.GCP: return ClusterAuth.gke({ caData: TEST_CA });
    case CloudProvider.AZURE: return ClusterAuth.aks({}, { caData: TEST_CA });
    default: return undefined;
  }
}

/** A small fleet: every tier on two providers, CPU and H100. */
export const SMALL_FLEET: ClusterOptions[] = ([
  { name: 'aws-dev-cpu', server: 'https://dev-cpu.eks.example.com', provider: CloudProvider.AWS, region: 'us-east-1', tier: Tier.DEV, kubernetesVersion: '1.31' },
  { name: 'gcp-dev-h100', server: 'https://10.0.0.2', provider: CloudProvider.GCP, region: 'us-central1', tier: Tier.DEV, accelerator: Accelerator.NVIDIA_H100, acceleratorCount: 8, kubernetesVersion: '1.30' },
  { name: 'aws-stg-cpu', server: 'https://stg-cpu.eks.example.com', provider: CloudProvider.AWS, region: 'us-west-2', tier: Tier.STAGING, kubernetesVersion: '1.31' },
  { name: 'gcp-stg-h100', server: 'https://10.0.0.4', provider: CloudProvider.GCP, region: 'europe-west4', tier: Tier.STAGING, accelerator: Accelerator.NVIDIA_H100, acceleratorCount: 8, kubernetesVersion: '1.31' },
  { name: 'aws-prod-cpu-1', server: 'https://prod-cpu-1.eks.example.com', provider: CloudProvider.AWS, region: 'us-east-1', tier: Tier.PROD, kubernetesVersion: '1.31', labels: { ring: 'canary' } },
  { name: 'aws-prod-cpu-2', server: 'https://prod-cpu-2.eks.example.com', provider: CloudProvider.AWS, region: 'eu-west-1', tier: Tier.PROD, kubernetesVersion: '1.31', labels: { ring: 'broad' } },
  { name: 'gcp-prod-h100-1', server: 'https://10.0.0.7', provider: CloudProvider.GCP, region: 'us-central1', tier: Tier.PROD, accelerator: Accelerator.NVIDIA_H100, acceleratorCount: 64, kubernetesVersion: '1.31', labels: { ring: 'canary' } },
  { name: 'gcp-prod-h100-2', server: 'https://10.0.0.8', provider: CloudProvider.GCP, region: 'europe-west4', tier: Tier.PROD, accelerator: Accelerator.NVIDIA_H100, acceleratorCount: 64, kubernetesVersion: '1.31', labels: { ring: 'broad' } },
] as ClusterOptions[]).map(c => ({ ...c, auth: managedAuth(c.provider, c.name) }));

/** dev and staging promote automatically; prod is manual, in canary/broad rings with a soak. */
export function standardPipeline(scope: Construct, props: PromotionPipelineProps = {}): PromotionPipeline {
  return new PromotionPipeline(scope, 'standard', {
    stages: [
      { name: 'dev', clusters: ClusterSelector.tier(Tier.DEV), approval: Approval.automatic() },
      { name: 'staging', clusters: ClusterSelector.tier(Tier.STAGING), approval: Approval.automatic() },
      {
        name: 'prod',
        clusters: ClusterSelector.tier(Tier.PROD),
        approval: Approval.manual(),
        waves: Waves.byLabel('ring', ['canary', 'broad']),
        soak: Duration.minutes(30),
      },
    ],
    ...props,
  });
}

export interface World {
  readonly app: ReturnType<typeof Testing.app>;
  readonly fleet: ClusterFleet;
  readonly pipeline: PromotionPipeline;
}

/** A fresh cdk8s app holding the small fleet and the standard pipeline. */
export function world(clusters: ClusterOptions[] = SMALL_FLEET, pipelineProps: PromotionPipelineProps = {}): World {
  const app = Testing.app();
  const fleet = new ClusterFleet(app, 'fleet', { clusters });
  const pipeline = standardPipeline(app, pipelineProps);
  return { app, fleet, pipeline };
}

/** Props of a minimal valid app; override what a test is about. */
export function appProps(w: World, overrides: Partial<PlatformAppProps> = {}): PlatformAppProps {
  return {
    owner: { team: 'payments', contact: '#payments' },
    fleet: w.fleet,
    pipeline: w.pipeline,
    artifacts: [Artifact.image('ghcr.io/acme/api', { versioning: Versioning.semver('^1.0.0') })],
    source: ManifestSource.helm({ repoUrl: 'https://github.com/acme/api.git', path: 'chart', valuesFiles: ['values-{stage}.yaml'] }),
    releaseRepo: 'https://github.com/acme/releases.git',
    ...overrides,
  };
}

/** Defines an app in a fresh world and returns its synthesized objects. */
export function synthApp(overrides: (w: World) => Partial<PlatformAppProps> = () => ({})): { app: PlatformApp; objects: any[]; world: World } {
  const w = world();
  const app = new PlatformApp(w.app, 'api', appProps(w, overrides(w)));
  return { app, objects: Testing.synth(app), world: w };
}

/** The objects of one kind. */
export function ofKind(objects: any[], kind: string): any[] {
  return objects.filter(o => o.kind === kind);
}

/** The one object of a kind and name. */
export function find(objects: any[], kind: string, name: string): any {
  const found = objects.filter(o => o.kind === kind && o.metadata?.name === name);
  if (found.length !== 1) throw new Error(`expected one ${kind} "${name}", found ${found.length}`);
  return found[0];
}

export { Chart };

/** The message of the error `fn` throws; fails the test when it throws none. */
export function errorOf(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error('expected an error');
}
