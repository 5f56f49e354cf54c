import { Duration } from 'cdk8s';
import { Construct } from 'constructs';
import {
  Accelerator, Approval, ClusterFleet, ClusterOptions, ClusterSelector, CloudProvider, PromotionPipeline, Tier, Waves,
} from '../src';

/**
 * The platform team's part of the example: the fleet and the standard promotion pipeline.
 */
export interface Platform {
  readonly fleet: ClusterFleet;
  readonly pipeline: PromotionPipeline;
}

const CLUSTERS: ClusterOptions[] = [
  // dev: one cluster per provider, CPU and GPU
  { name: 'aws-use1-cpu-dev-01', server: 'https://A1B2C3.gr7.us-east-1.eks.amazonaws.com', provider: CloudProvider.AWS, region: 'us-east-1', tier: Tier.DEV, kubernetesVersion: '1.31' },
  { name: 'gcp-usc1-h100-dev-01', server: 'https://34.118.10.11', provider: CloudProvider.GCP, region: 'us-central1', tier: Tier.DEV, accelerator: Accelerator.NVIDIA_H100, acceleratorCount: 16, kubernetesVersion: '1.31' },
  { name: 'azr-eus-mi300x-dev-01', server: 'https://mi300x-dev-01.hcp.eastus.azmk8s.io', provider: CloudProvider.AZURE, region: 'eastus', tier: Tier.DEV, accelerator: Accelerator.AMD_MI300X, acceleratorCount: 8, kubernetesVersion: '1.30' },
  // staging
  { name: 'aws-usw2-cpu-stg-01', server: 'https://D4E5F6.gr7.us-west-2.eks.amazonaws.com', provider: CloudProvider.AWS, region: 'us-west-2', tier: Tier.STAGING, kubernetesVersion: '1.31' },
  { name: 'gcp-euw4-h100-stg-01', server: 'https://34.90.20.21', provider: CloudProvider.GCP, region: 'europe-west4', tier: Tier.STAGING, accelerator: Accelerator.NVIDIA_H100, acceleratorCount: 32, kubernetesVersion: '1.31' },
  { name: 'azr-weu-mi300x-stg-01', server: 'https://mi300x-stg-01.hcp.westeurope.azmk8s.io', provider: CloudProvider.AZURE, region: 'westeurope', tier: Tier.STAGING, accelerator: Accelerator.AMD_MI300X, acceleratorCount: 16, kubernetesVersion: '1.30' },
  // prod, in rings
  { name: 'aws-use1-cpu-prod-01', server: 'https://G7H8I9.gr7.us-east-1.eks.amazonaws.com', provider: CloudProvider.AWS, region: 'us-east-1', tier: Tier.PROD, kubernetesVersion: '1.31', labels: { ring: 'canary' } },
  { name: 'aws-euc1-cpu-prod-01', server: 'https://J1K2L3.gr7.eu-central-1.eks.amazonaws.com', provider: CloudProvider.AWS, region: 'eu-central-1', tier: Tier.PROD, kubernetesVersion: '1.31', labels: { ring: 'broad' } },
  { name: 'aws-use1-h100-prod-01', server: 'https://M4N5O6.gr7.us-east-1.eks.amazonaws.com', provider: CloudProvider.AWS, region: 'us-east-1', tier: Tier.PROD, accelerator: Accelerator.NVIDIA_H100, acceleratorCount: 64, kubernetesVersion: '1.31', labels: { ring: 'early' } },
  { name: 'gcp-usc1-h100-prod-01', server: 'https://34.118.30.31', provider: CloudProvider.GCP, region: 'us-central1', tier: Tier.PROD, accelerator: Accelerator.NVIDIA_H100, acceleratorCount: 64, kubernetesVersion: '1.31', labels: { ring: 'canary' } },
  { name: 'gcp-euw4-h100-prod-01', server: 'https://34.90.40.41', provider: CloudProvider.GCP, region: 'europe-west4', tier: Tier.PROD, accelerator: Accelerator.NVIDIA_H100, acceleratorCount: 128, kubernetesVersion: '1.31', labels: { ring: 'broad' } },
  { name: 'azr-eus-mi300x-prod-01', server: 'https://mi300x-prod-01.hcp.eastus.azmk8s.io', provider: CloudProvider.AZURE, region: 'eastus', tier: Tier.PROD, accelerator: Accelerator.AMD_MI300X, acceleratorCount: 64, kubernetesVersion: '1.30', labels: { ring: 'early' } },
  { name: 'azr-weu-cpu-prod-01', server: 'https://cpu-prod-01.hcp.westeurope.azmk8s.io', provider: CloudProvider.AZURE, region: 'westeurope', tier: Tier.PROD, kubernetesVersion: '1.30', labels: { ring: 'broad' } },
];

/**
 * Defines the example fleet and pipeline.
 */
export function definePlatform(scope: Construct): Platform {
  const fleet = new ClusterFleet(scope, 'fleet', { clusters: CLUSTERS });
  const pipeline = new PromotionPipeline(scope, 'standard', {
    stages: [
      { name: 'dev', clusters: ClusterSelector.tier(Tier.DEV), approval: Approval.automatic() },
      { name: 'staging', clusters: ClusterSelector.tier(Tier.STAGING), approval: Approval.automatic() },
      {
        name: 'prod',
        clusters: ClusterSelector.tier(Tier.PROD),
        approval: Approval.manual(),
        waves: Waves.byLabel('ring', ['canary', 'early', 'broad']),
        soak: Duration.hours(1),
      },
    ],
  });
  return { fleet, pipeline };
}
