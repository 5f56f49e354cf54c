import { Chart } from 'cdk8s';
import { Construct } from 'constructs';
import { claimAppNames } from './app-names';
import { warnOnPerChartValidation } from './synth-path-warning';
import { Artifact } from '../artifact/artifact';
import { ClusterFleet, IClusterFleet } from '../fleet/cluster-fleet';
import { WebhookReceiver } from '../fleet/webhook-receiver';
import { IPromotionPipeline } from '../pipeline/promotion-pipeline';
import { AppRelease } from '../plan/app-release';
import { buildAppRelease } from '../plan/build-release';
import { LeadTime } from '../plan/lead-time';
import { AppOwner } from '../plan/owner';
import { ClusterResource, IPlatformApp, isPlannedApp, markPlannedApp, StandardsExemption } from '../plan/planned-app';
import { PlatformAppProps } from '../plan/platform-app-props';
import { ReleasePlan } from '../plan/release-plan';
import { emitApp } from '../synth/emit-app';
import { describe } from '../util/errors';
import { claimChartId } from '../util/name-registry';

/**
 * An application delivered across the fleet, owned by an app team: what it is made of, where it
 * runs and how it is promoted. It synthesizes to its own chart: a Kargo Project with a
 * Warehouse, a render PromotionTask and one Stage per stage and wave, and an Argo CD AppProject
 * with one ApplicationSet for the stages in the app's namespace (one generator per wave) and one
 * per stage with a namespace of its own.
 *
 * @example
 * new PlatformApp(app, 'inference-gateway', {
 *   owner: { team: 'inference', contact: '#inference-oncall' },
 *   fleet, pipeline,
 *   artifacts: [Artifact.image('ghcr.io/acme/inference-gateway', { versioning: Versioning.semver('^2.0.0') })],
 *   source: ManifestSource.helm({ repoUrl: 'https://github.com/acme/deploy.git', path: 'charts/gateway' }),
 *   releaseRepo: 'https://github.com/acme/releases.git',
 * });
 */
export class PlatformApp extends Chart implements IPlatformApp {
  /**
   * Whether `x` is a PlatformApp. (Chart makes `instanceof` true for any chart, so use this.)
   */
  public static isPlatformApp(x: any): x is PlatformApp {
    return isPlannedApp(x);
  }

  /** The application's name. */
  public readonly appName: string;
  /** Where and how the application is released. */
  public readonly plan: ReleasePlan;
  /** The fleet the application is delivered to. */
  public readonly fleet: IClusterFleet;
  /** The team that owns the application. */
  public readonly owner: AppOwner;
  /** What a release is made of. */
  public readonly artifacts: Artifact[];
  /** Cluster-scoped resources the application manages. */
  public readonly clusterResources: ClusterResource[];
  /** Platform standards rules the app is exempt from. */
  public readonly exemptions: StandardsExemption[];
  /**
   * The least time from a new artifact to a verified release on every cluster (always set;
   * optional only because `IPlatformApp` implementations may not know it).
   */
  public readonly leadTime?: LeadTime;
  /** The app's own webhook receivers (in its Kargo ProjectConfig). */
  public readonly webhookReceivers: WebhookReceiver[];

  constructor(scope: Construct, id: string, props: PlatformAppProps) {
    claimChartId(scope, id, `PlatformApp '${props.appName ?? id}'`);
    super(scope, id, { disableResourceNameHashes: true });
    markPlannedApp(this);
    warnOnPerChartValidation(this);
    this.appName = props.appName ?? id;
    const subject = `PlatformApp '${this.appName}'`;
    const release = buildAppRelease(subject, this.appName, props, (problems, plan) => claimAppNames(this, subject, this.appName, plan, problems));
    this.plan = release.plan;
    this.fleet = props.fleet;
    this.owner = release.owner;
    this.artifacts = release.artifacts;
    this.clusterResources = release.clusterResources;
    this.exemptions = release.exemptions;
    this.leadTime = release.leadTime;
    this.webhookReceivers = release.webhookReceivers;
    this.emit(subject, props, release);
  }

  /** Writes the app's objects and places it on its fleet. */
  private emit(subject: string, props: PlatformAppProps, release: AppRelease): void {
    emitApp(this, release);
    // one Application per cluster and stage: a cluster shared by stages carries the app twice
    if (ClusterFleet.isClusterFleet(props.fleet)) props.fleet._placeApp(this.appName, release.waves.flatMap(w => w.clusters.map(c => c.name)));
    this.failOnLateChanges(subject, props.fleet, props.pipeline);
  }

  /**
   * The plan is fixed when the app is defined; clusters or stages added later would be missed,
   * so a late change fails synth instead of being dropped silently. (Fleets and pipelines only
   * grow, so their sizes tell whether they changed.)
   */
  private failOnLateChanges(subject: string, fleet: IClusterFleet, pipeline: IPromotionPipeline): void {
    const plannedClusters = fleet.clusters.length;
    const plannedStages = pipeline.stages.length;
    this.node.addValidation({
      validate: () => [
        ...fleet.clusters.length === plannedClusters ? []
          : [describe(`fleet '${fleet.fleetName}' clusters`, fleet.clusters.length, `changed after ${subject} was planned with ${plannedClusters}`,
            'define every cluster before the apps')],
        ...pipeline.stages.length === plannedStages ? []
          : [describe(`pipeline '${pipeline.pipelineName}' stages`, pipeline.stages.length, `changed after ${subject} was planned with ${plannedStages}`,
            'add every stage before the apps')],
      ],
    });
  }
}

