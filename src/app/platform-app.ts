import { Chart } from 'cdk8s';
import { Construct } from 'constructs';
import { claimAppNames } from './app-names';
import { Artifact } from '../artifact/artifact';
import { PlatformLabels } from '../contracts/labels';
import { ClusterFleet, IClusterFleet } from '../fleet/cluster-fleet';
import { ClusterSelector } from '../fleet/cluster-selector';
import { FreezeOverride } from '../pipeline/deploy-freeze';
import { checkFreezes } from '../pipeline/freeze-checks';
import { IPromotionPipeline } from '../pipeline/promotion-pipeline';
import { releaseRepoOf, validateApp } from '../plan/app-checks';
import { AppRelease, resolveAppRelease } from '../plan/app-release';
import { AppOwner } from '../plan/owner';
import { ClusterResource, IPlatformApp, isPlannedApp, markPlannedApp, StandardsExemption } from '../plan/planned-app';
import { PlatformAppProps } from '../plan/platform-app-props';
import { ReleasePlan } from '../plan/release-plan';
import { RepositoryAccess } from '../plan/repository-access';
import { emitApp } from '../synth/emit-app';
import { fail } from '../util/errors';
import { claimChartId } from '../util/name-registry';
import { Verification } from '../verification/verification';

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

  constructor(scope: Construct, id: string, props: PlatformAppProps) {
    claimChartId(scope, id, `PlatformApp '${props.appName ?? id}'`);
    super(scope, id, { disableResourceNameHashes: true });
    markPlannedApp(this);
    this.appName = props.appName ?? id;
    const subject = `PlatformApp '${this.appName}'`;
    const { checks, accesses } = validateApp(subject, this.appName, props);
    checkFreezes(subject, 'freezes', props.freezes ?? []);
    if (props.freezeOverride !== undefined && !(props.freezeOverride instanceof FreezeOverride)) {
      fail(subject, 'freezeOverride', props.freezeOverride, 'must be a FreezeOverride', "use FreezeOverride.of({ by: 'alice@acme.example', reason: 'CVE-2026-1234' })");
    }
    this.clusterResources = (props.clusterResources ?? []).map(r => ({ group: r.group, kind: r.kind }));
    this.exemptions = (props.exemptions ?? []).map(e => ({ ruleId: e.ruleId, justification: e.justification.trim() }));
    this.fleet = props.fleet;
    this.owner = { ...props.owner, groups: [...props.owner.groups ?? [props.owner.team]] };
    this.artifacts = [...props.artifacts];

    const release = this.resolve(subject, props, checks, accesses);
    this.plan = release.plan;
    claimAppNames(this, subject, this.plan);
    emitApp(this, release);
    // one Application per cluster and stage: a cluster shared by stages carries the app twice
    const applications = this.plan.stages.flatMap(s => s.waves.flatMap(w => w.clusters));
    if (ClusterFleet.isClusterFleet(props.fleet)) props.fleet._placeApp(this.appName, applications);
    this.failOnLateChanges(subject, props.fleet, props.pipeline);
  }

  private resolve(subject: string, props: PlatformAppProps, checks: Map<string, Verification[]>, accesses: RepositoryAccess[]): AppRelease {
    return resolveAppRelease({
      subject,
      app: this.appName,
      destinationNamespace: props.namespace ?? this.appName,
      fleet: props.fleet,
      pipeline: props.pipeline,
      targets: props.targets ?? ClusterSelector.all(),
      requirements: props.requires ?? [],
      defaultPromoters: this.owner.groups!,
      verification: checks,
      releaseRepo: releaseRepoOf(props),
      source: props.source,
      artifacts: this.artifacts,
      description: `${this.appName}, owned by team ${props.owner.team} (${props.owner.contact})`,
      annotations: {
        ...this.exemptions.length > 0
          ? { [EXEMPTIONS_ANNOTATION]: JSON.stringify(this.exemptions.map(e => ({ rule: e.ruleId, justification: e.justification }))) }
          : {},
        ...props.freezeOverride ? { [PlatformLabels.FREEZE_OVERRIDE]: props.freezeOverride.record } : {},
      },
      freezes: props.freezes,
      freezeOverride: props.freezeOverride,
      clusterResources: this.clusterResources,
      accesses,
      releaseRepoArgoCdCredentials: props.releaseRepoArgoCdCredentials,
    });
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
          : [`fleet '${fleet.fleetName}' changed after ${subject} was planned; define every cluster before the apps`],
        ...pipeline.stages.length === plannedStages ? []
          : [`pipeline '${pipeline.pipelineName}' changed after ${subject} was planned; add every stage before the apps`],
      ],
    });
  }
}


/** Where an app's standards exemptions are recorded in its output. */
const EXEMPTIONS_ANNOTATION = 'gitops-platform.io/standards-exemptions';
