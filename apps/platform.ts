import * as path from 'path';
import { Duration } from 'cdk8s';
import { Construct } from 'constructs';
import {
  Approval, CloudProvider, ClusterFleet, ClusterSelector, DeployFreeze, FanOut, FreezeSchedule, Join, PlatformStandards, PromotionPipeline, Tier,
  PushedRepositoryType, Verification, Waves, WebhookReceiver,
} from '../src';

/**
 * The platform team's part of the example: the fleet Terraform provisioned, the promotion
 * pipelines and the standards every app must meet.
 */
export interface Platform {
  readonly fleet: ClusterFleet;
  /** dev and staging automatically, prod by hand in canary/early/broad rings. */
  readonly standard: PromotionPipeline;
  /** dev and staging automatically, prod by pull request in percentage waves. */
  readonly regulated: PromotionPipeline;
  /** dev only, automatically: previews that never reach production. */
  readonly preview: PromotionPipeline;
  /** Kargo's "advanced" topology: an A/B test joined any-of, one gate, three regions in parallel. */
  readonly advanced: PromotionPipeline;
  /** Kargo's quickstart: test and uat as two namespaces of the same dev clusters, then prod. */
  readonly quickstart: PromotionPipeline;
  readonly standards: PlatformStandards;
}

/** The `terraform output -json` of the fleet's Terraform configuration. */
export const TERRAFORM_OUTPUT = path.join(__dirname, 'infra', 'clusters.tfoutput.json');

/**
 * Options for the example platform.
 */
export interface PlatformOptions {
  /** Where `terraform output -json` was saved (tests pass a modified copy). */
  readonly terraformOutput?: string;
}

/**
 * Defines the example platform.
 */
export function definePlatform(scope: Construct, options: PlatformOptions = {}): Platform {
  const fleet = ClusterFleet.fromTerraformOutput(scope, 'fleet', {
    file: options.terraformOutput ?? TERRAFORM_OUTPUT,
    // six application controller replicas, balanced by the Applications each cluster carries
    applicationControllerShards: 6,
    // checks reach endpoints behind the internal CA; trust-manager copies the bundle into every
    // Kargo project namespace, and the hub pulls Docker Hub images through Harbor
    verificationJobs: {
      caBundle: { configMapName: 'acme-internal-ca', key: 'ca.crt' },
      imageRegistry: 'harbor.acme.internal/dockerhub',
    },
    // pushes refresh the Warehouses at once (Kargo's ClusterConfig). The library writes the three
    // Secrets in kargo-system-resources, empty, and External Secrets merges each shared secret in;
    // the platform team registered the URLs Kargo reports (fleet.fleet.md) and declared them ready
    webhookReceivers: [
      WebhookReceiver.github({
        name: 'github-acme',
        secretName: 'kargo-webhook-github-acme',
        repoUrls: ['https://github.com/acme/', 'ghcr.io/acme/'],
        secretSource: 'ExternalSecret kargo-webhook-github-acme (merge)',
        ready: true,
      }),
      WebhookReceiver.harbor({
        name: 'harbor-acme',
        secretName: 'kargo-webhook-harbor-acme',
        repoUrls: ['registry.acme.example/'],
        secretSource: 'ExternalSecret kargo-webhook-harbor-acme (merge)',
        ready: true,
      }),
      // ECR has no receiver of its own: an EventBridge rule sends its push events to a generic one
      WebhookReceiver.generic({
        name: 'ecr-ml',
        secretName: 'kargo-webhook-ecr-ml',
        repoUrls: ['123456789012.dkr.ecr.us-east-1.amazonaws.com/ml/'],
        repoType: PushedRepositoryType.IMAGE,
        repoUrlExpression: "'123456789012.dkr.ecr.us-east-1.amazonaws.com/' + request.body.detail['repository-name']",
        whenExpression: "request.body.detail['action-type'] == 'PUSH' && request.body.detail.result == 'SUCCESS'",
        secretSource: 'ExternalSecret kargo-webhook-ecr-ml (merge)',
        ready: true,
      }),
    ],
  });

  // every app promoted to production on the standard pipeline passes the platform's smoke test
  const platformSmoke = Verification.fromTemplate('platform-smoke', { clusterScoped: true });

  // nothing ships to production from Dec 20 to Jan 3 (Berlin time); Kargo promotions into prod wait it out
  const yearEndFreeze = new DeployFreeze({
    reason: 'year-end change freeze (Dec 20 - Jan 3)',
    schedule: FreezeSchedule.cron('0 0 20 12 *', Duration.days(14)),
    timeZone: 'Europe/Berlin',
    stages: ['prod'],
  });

  const standard = new PromotionPipeline(scope, 'standard', {
    freezes: [yearEndFreeze],
    stages: [
      { name: 'dev', clusters: ClusterSelector.tier(Tier.DEV), approval: Approval.automatic() },
      { name: 'staging', clusters: ClusterSelector.tier(Tier.STAGING), approval: Approval.automatic() },
      {
        name: 'prod',
        clusters: ClusterSelector.tier(Tier.PROD),
        approval: Approval.manual({ promoters: ['sre-oncall'] }),
        waves: Waves.byLabel('ring', ['canary', 'early', 'broad']),
        soak: Duration.hours(1),
        verification: [platformSmoke],
      },
    ],
  });

  const regulated = new PromotionPipeline(scope, 'regulated', {
    stages: [
      { name: 'dev', clusters: ClusterSelector.tier(Tier.DEV), approval: Approval.automatic() },
      { name: 'staging', clusters: ClusterSelector.tier(Tier.STAGING), approval: Approval.automatic(), soak: Duration.minutes(30) },
      {
        name: 'prod',
        clusters: ClusterSelector.tier(Tier.PROD),
        approval: Approval.pullRequest({ promoters: ['change-board'] }),
        waves: Waves.byPercentage([10, 40, 70, 100]),
        waveBudget: { maxPercent: 40 },
        soak: Duration.hours(2),
      },
    ],
  });

  const preview = new PromotionPipeline(scope, 'preview', {
    stages: [{ name: 'preview', clusters: ClusterSelector.tier(Tier.DEV), approval: Approval.automatic() }],
  });

  const advanced = defineAdvanced(scope);

  // Kargo's quickstart shape: each pre-production stage is a namespace of the same dev clusters
  // (<app>-test, <app>-uat); prod has clusters of its own and the app's namespace
  const quickstart = new PromotionPipeline(scope, 'quickstart', {
    stages: [
      { name: 'test', clusters: ClusterSelector.tier(Tier.DEV), namespace: '{app}-{stage}', approval: Approval.automatic() },
      { name: 'uat', clusters: ClusterSelector.tier(Tier.DEV), namespace: '{app}-{stage}' },
      {
        name: 'prod',
        clusters: ClusterSelector.tier(Tier.PROD),
        approval: Approval.manual({ promoters: ['sre-oncall'] }),
        waves: Waves.byCount(2),
        soak: Duration.hours(1),
        verification: [Verification.http({ name: 'smoke', url: 'https://{cluster}.acme.internal/healthz' })],
      },
    ],
  });

  const standards = new PlatformStandards(scope, 'standards', {
    allowedRegistries: ['ghcr.io', 'registry.acme.example', '123456789012.dkr.ecr.us-east-1.amazonaws.com'],
    // the broad ring holds up to two thirds of a GPU family's production clusters
    maxWavePercent: 70,
  });

  return { fleet, standard, regulated, preview, advanced, quickstart, standards };
}

/**
 * Kargo's advanced example as a pipeline: dev, staging, an A/B test whose variants are verified
 * on their own clusters, a control-flow gate that takes whichever variant passed, and production
 * fanned out to three regions, each promoted (and rolled back) on its own.
 */
function defineAdvanced(scope: Construct): PromotionPipeline {
  const staging = (...providers: CloudProvider[]) => ClusterSelector.tier(Tier.STAGING).and(ClusterSelector.provider(...providers));
  const smoke = (name: string) => Verification.http({ name, url: 'https://{cluster}.acme.internal/healthz' });
  return new PromotionPipeline(scope, 'advanced', {
    stages: [
      { name: 'dev', clusters: ClusterSelector.tier(Tier.DEV), approval: Approval.automatic() },
      { name: 'staging', clusters: staging(CloudProvider.AWS, CloudProvider.GCP), approval: Approval.automatic() },
      { name: 'ab-test-a', clusters: staging(CloudProvider.AZURE), approval: Approval.automatic(), verification: [smoke('smoke-a')] },
      { name: 'ab-test-b', after: ['staging'], clusters: staging(CloudProvider.OCI), approval: Approval.automatic(), verification: [smoke('smoke-b')] },
      // no clusters: a control-flow Stage that passes on Freight verified in either variant
      { name: 'prod-gate', after: ['ab-test-a', 'ab-test-b'], join: Join.anyOf(), soak: Duration.hours(1) },
      {
        name: 'prod',
        clusters: ClusterSelector.tier(Tier.PROD),
        fanOut: FanOut.groups({
          americas: ClusterSelector.region('us-west-2', 'us-east-1', 'us-east-2', 'us-central1', 'us-east4', 'eastus', 'eastus2'),
          europe: ClusterSelector.region('eu-central-1', 'eu-west-1', 'europe-west4', 'swedencentral', 'uk-london-1'),
          asia: ClusterSelector.region('ap-northeast-1', 'asia-southeast1', 'ap-tokyo-1'),
        }),
        approval: Approval.manual({ promoters: ['sre-oncall'] }),
        verification: [smoke('smoke-prod')],
      },
    ],
  });
}
