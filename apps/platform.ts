import * as path from 'path';
import { Duration } from 'cdk8s';
import { Construct } from 'constructs';
import {
  Approval, ClusterFleet, ClusterSelector, DeployFreeze, FreezeSchedule, PlatformStandards, PromotionPipeline, Tier, Verification, Waves,
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

  const standards = new PlatformStandards(scope, 'standards', {
    allowedRegistries: ['ghcr.io', 'registry.acme.example', '123456789012.dkr.ecr.us-east-1.amazonaws.com'],
    // the broad ring holds up to two thirds of a GPU family's production clusters
    maxWavePercent: 70,
  });

  return { fleet, standard, regulated, preview, standards };
}
