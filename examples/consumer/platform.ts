import { App } from 'cdk8s';
import {
  Approval, Artifact, ClusterAuth, ClusterFleet, ClusterSelector, CloudProvider, ManifestSource, PlatformApp,
  PromotionPipeline, Tier, Versioning,
} from 'cdk8s-gitops-platform';

export function definePlatform(app: App): void {
  const fleet = new ClusterFleet(app, 'fleet', {
    clusters: [
      { name: 'aws-use1-dev-01', server: 'https://dev-01.eks.example.com', provider: CloudProvider.AWS, region: 'us-east-1', tier: Tier.DEV,
        kubernetesVersion: '1.31',
        auth: ClusterAuth.eks({ clusterName: 'dev-01' }, { caData: 'LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCg==' }) },
      { name: 'aws-use1-prod-01', server: 'https://prod-01.eks.example.com', provider: CloudProvider.AWS, region: 'us-east-1', tier: Tier.PROD,
        kubernetesVersion: '1.31',
        auth: ClusterAuth.eks({ clusterName: 'prod-01' }, { caData: 'LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCg==' }) },
    ],
  });
  const pipeline = new PromotionPipeline(app, 'standard', {
    stages: [
      { name: 'dev', clusters: ClusterSelector.tier(Tier.DEV), approval: Approval.automatic() },
      { name: 'prod', clusters: ClusterSelector.tier(Tier.PROD), approval: Approval.manual() },
    ],
  });
  new PlatformApp(app, 'checkout-api', {
    owner: { team: 'payments', contact: '#payments-oncall' },
    fleet,
    pipeline,
    artifacts: [Artifact.image('ghcr.io/acme/checkout-api', { versioning: Versioning.semver('^1.0.0') })],
    source: ManifestSource.helm({ repoUrl: 'https://github.com/acme/checkout-api.git', path: 'chart', valuesFiles: ['values-{stage}.yaml'] }),
    releaseRepo: 'https://github.com/acme/releases.git',
  });
}
