import { Duration } from 'cdk8s';
import { Construct } from 'constructs';
import {
  Accelerator, Approval, ArgoCdTopology, Artifact, ClusterAuth, ClusterFleet, Comparison, ClusterOptions, ClusterSelector, CloudProvider,
  ManifestSource,
  PlatformApp, PromotionPipeline, Tier, Verification, Versioning, Waves,
} from '../src';

const PROVIDERS = [CloudProvider.AWS, CloudProvider.GCP, CloudProvider.AZURE];
const FAMILIES = [Accelerator.NONE, Accelerator.NVIDIA_H100, Accelerator.NVIDIA_H200, Accelerator.NVIDIA_GB200, Accelerator.AMD_MI300X];
const RINGS = ['canary', 'early', 'broad', 'broad', 'broad'];

/** A public, fake CA (base64 PEM header): every managed cluster of the central Argo CD needs one. */
const FAKE_CA = 'LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCg==';

function authFor(provider: CloudProvider, name: string): ClusterAuth {
  switch (provider) {
    case CloudProvider.AWS: return ClusterAuth.eks({ clusterName: `eks-${name}` }, { caData: FAKE_CA });
    case CloudProvider.GCP: return ClusterAuth.gke({ caData: FAKE_CA });
    default: return ClusterAuth.aks({}, { caData: FAKE_CA });
  }
}

/**
 * A synthetic platform for benchmarks: `clusterCount` clusters (15% dev, 20% staging, the rest
 * prod in rings, 5% with their own Argo CD) and `appCount` apps, each targeting one or two
 * accelerator families, with two checks per stage. `changedApp` (an index) subscribes that one app
 * to `^2.0.0` instead of `^1.0.0`: the one-app change the plan benchmark diffs. Returns the number
 * of apps.
 */
export function defineGeneratedPlatform(scope: Construct, clusterCount: number, appCount: number, changedApp?: number): number {
  const clusters: ClusterOptions[] = [];
  for (let i = 0; i < clusterCount; i++) {
    const tier = i % 20 < 3 ? Tier.DEV : i % 20 < 7 ? Tier.STAGING : Tier.PROD;
    const family = FAMILIES[i % FAMILIES.length];
    clusters.push({
      name: `c${String(i).padStart(4, '0')}-${tier.name}`,
      server: `https://c${i}.k8s.example.com`,
      provider: PROVIDERS[i % PROVIDERS.length],
      region: `region-${i % 7}`,
      tier,
      accelerator: family,
      acceleratorCount: family.isAccelerated ? 8 : 0,
      kubernetesVersion: '1.31',
      labels: tier === Tier.PROD ? { ring: RINGS[Math.floor(i / 3) % RINGS.length] } : undefined,
      argoCd: i % 20 === 19 ? ArgoCdTopology.perCluster() : undefined,
      auth: authFor(PROVIDERS[i % PROVIDERS.length], `c${String(i).padStart(4, '0')}-${tier.name}`),
    });
  }
  const fleet = new ClusterFleet(scope, 'fleet', { clusters, applicationControllerShards: Math.max(1, Math.ceil(clusterCount / 16)) });
  const pipeline = new PromotionPipeline(scope, 'standard', {
    stages: [
      { name: 'dev', clusters: ClusterSelector.tier(Tier.DEV), approval: Approval.automatic() },
      { name: 'staging', clusters: ClusterSelector.tier(Tier.STAGING), approval: Approval.automatic() },
      { name: 'prod', clusters: ClusterSelector.tier(Tier.PROD), waves: Waves.byLabel('ring', ['canary', 'early', 'broad']), soak: Duration.hours(1) },
    ],
  });
  for (let a = 0; a < appCount; a++) {
    const families = [FAMILIES[a % FAMILIES.length], FAMILIES[(a + 2) % FAMILIES.length]];
    new PlatformApp(scope, `app-${String(a).padStart(3, '0')}`, {
      owner: { team: `team-${a % 9}`, contact: `#team-${a % 9}` },
      fleet,
      pipeline,
      artifacts: [Artifact.image(`ghcr.io/acme/app-${a}`, { versioning: Versioning.semver(a === changedApp ? '^2.0.0' : '^1.0.0') })],
      source: ManifestSource.helm({ repoUrl: `https://github.com/acme/app-${a}.git`, path: 'chart', valuesFiles: ['values-{stage}.yaml'] }),
      targets: ClusterSelector.accelerator(...families),
      verification: [
        Verification.http({ name: 'health', url: `https://app-${a}.{cluster}.example.com/healthz` }),
        Verification.prometheus({ name: 'errors', address: 'http://prometheus:9090', query: `errors{app="app-${a}",cluster="{cluster}"}`, threshold: 1, comparison: Comparison.LESS_THAN }),
      ],
      releaseRepo: 'https://github.com/acme/releases.git',
    });
  }
  return appCount;
}
