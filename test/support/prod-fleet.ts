import { Duration, Testing } from 'cdk8s';
import { appProps, managedAuth } from './fixtures';
import {
  Accelerator, Approval, ClusterFleet, ClusterOptions, ClusterSelector, CloudProvider, PlatformApp, PromotionPipeline,
  PromotionPipelineProps, ReleasePlan, Tier, WaveBudget, Waves,
} from '../../src';

/** n prod clusters cycling over providers and accelerators, plus one dev cluster. */
export function prodFleet(n: number): ClusterOptions[] {
  const kinds: Array<[CloudProvider, Accelerator]> = [
    [CloudProvider.AWS, Accelerator.NONE], [CloudProvider.GCP, Accelerator.NVIDIA_H100], [CloudProvider.AZURE, Accelerator.AMD_MI300X],
  ];
  const clusters: ClusterOptions[] = [{ name: 'dev-1', server: 'https://dev-1.example.com', provider: CloudProvider.AWS, region: 'r1', tier: Tier.DEV, kubernetesVersion: '1.31', auth: managedAuth(CloudProvider.AWS, 'dev-1') }];
  for (let i = 0; i < n; i++) {
    const [provider, accelerator] = kinds[i % kinds.length];
    const name = `prod-${String(i + 1).padStart(2, '0')}`;
    clusters.push({
      name,
      server: `https://${name}.example.com`,
      provider,
      region: 'r1',
      tier: Tier.PROD,
      accelerator,
      acceleratorCount: accelerator === Accelerator.NONE ? 0 : 8,
      kubernetesVersion: '1.31',
      auth: managedAuth(provider, name),
    });
  }
  return clusters;
}

/** The plan of app `api` on a dev cluster and n prod clusters, prod split by `waves` after a soak of 2h. */
export function prodPlan(n: number, waves: Waves, budget?: WaveBudget): ReleasePlan {
  const app = Testing.app();
  const fleet = new ClusterFleet(app, 'fleet', { clusters: prodFleet(n) });
  const props: PromotionPipelineProps = {
    waveBudget: budget,
    stages: [
      { name: 'dev', clusters: ClusterSelector.tier(Tier.DEV), approval: Approval.automatic() },
      { name: 'prod', clusters: ClusterSelector.tier(Tier.PROD), waves, soak: Duration.hours(2) },
    ],
  };
  const pipeline = new PromotionPipeline(app, 'p', props);
  const w = { app, fleet, pipeline } as any;
  return new PlatformApp(app, 'api', appProps(w)).plan;
}
