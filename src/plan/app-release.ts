import { DiscoveryPlan, LeadTime } from './lead-time';
import { AppOwner } from './owner';
import { ClusterResource, StandardsExemption } from './planned-app';
import { ReleasePlan, StagePlan, WavePlan } from './release-plan';
import { RepositoryAccess } from './repository-access';
import { ArgoCdCredentials } from '../artifact/argocd-credentials';
import { Artifact } from '../artifact/artifact';
import { ManifestSource } from '../artifact/manifest-source';
import { RenderContext } from '../artifact/source-type';
import { ClusterVariableSource } from '../contracts/cluster-variables';
import { WebhookReceiver } from '../fleet/webhook-receiver';
import { RenderedVerification } from '../verification/render';

/**
 * One cluster of a wave, with what the emitters need of it: a cluster shared by two stages (in
 * different namespaces) is placed twice, once per Application.
 * @internal
 */
export interface PlacedCluster {
  readonly name: string;
  /** The API server URL the central Argo CD deploys to. */
  readonly server: string;
  /** What the cluster variables (render vars, per-cluster checks) are made of. */
  readonly variables: ClusterVariableSource;
  /** The API versions the cluster serves beyond Kubernetes' own, for helm-template. */
  readonly apiVersions: string[];
  /** The app's Argo CD Application on this cluster in this stage. */
  readonly application: string;
}

/**
 * One wave of the plan with its clusters placed: what the Kargo Stage and the Argo CD objects of
 * the wave are made of.
 * @internal
 */
export interface PlacedWave {
  readonly stage: StagePlan;
  readonly wave: WavePlan;
  /** The wave's clusters, in the order of `wave.clusters` (none for a control-flow Stage). */
  readonly clusters: PlacedCluster[];
}

/**
 * What a cluster with its own Argo CD deploys in one stage: one Application.
 * @internal
 */
export interface PerClusterPart {
  readonly stage: StagePlan;
  readonly wave: WavePlan;
  readonly cluster: PlacedCluster;
}

/**
 * A cluster that runs its own Argo CD, with all the app deploys to it: placed once per app by
 * the plan, so the emitters make exactly one chart (one output file) for it and look nothing up.
 * @internal
 */
export interface PerClusterArgoCd {
  readonly cluster: string;
  /** The id of the cluster's chart, `<app>--<cluster>` (`perClusterChartId`), hence its output file. */
  readonly chartId: string;
  /** One part per stage deploying to the cluster, in plan order. */
  readonly parts: PerClusterPart[];
}

/**
 * Everything one app's output is made from, built once by `buildAppRelease`: the release plan
 * plus the facts the emitters need about its clusters, artifacts, source, checks and repository
 * access. The emitters read this and nothing else.
 * @internal
 */
export interface AppRelease {
  readonly plan: ReleasePlan;
  /** The team that owns the app, with the OIDC groups it promotes with. */
  readonly owner: AppOwner;
  /** Platform standards rules the app is exempt from, justifications trimmed. */
  readonly exemptions: StandardsExemption[];
  /** Every wave of the plan with its placed clusters, in plan order. */
  readonly waves: PlacedWave[];
  /** The clusters with their own Argo CD the waves deploy to, in the order of `waves`. */
  readonly perClusterArgoCd: PerClusterArgoCd[];
  /** The release repository, without trailing slashes. */
  readonly releaseRepo: string;
  readonly source: ManifestSource;
  readonly artifacts: Artifact[];
  /**
   * What the render of every cluster is derived from: the app, its artifacts and namespace, and
   * whether some stage deploys to a namespace of its own or some cluster serves API versions of
   * its own (the render task then takes them as variables).
   */
  readonly render: RenderContext;
  /** The namespace of the central Argo CD. */
  readonly argoCdNamespace: string;
  /** One line naming the app and its owner, for descriptions. */
  readonly description: string;
  /** Annotations for the Kargo Project and the AppProjects (standards exemptions, freeze override). */
  readonly annotations: Record<string, string>;
  /** Cluster-scoped resources the AppProjects allow. */
  readonly clusterResources: ClusterResource[];
  /** The rendered checks of every Kargo Stage, by Kargo Stage. */
  readonly checks: Map<string, RenderedVerification>;
  /** The repositories Kargo authenticates to. */
  readonly accesses: RepositoryAccess[];
  /** How each Argo CD reads the release repository, when the app declares it. */
  readonly releaseRepoArgoCdCredentials?: ArgoCdCredentials;
  /** How the Warehouse discovers artifacts (its interval, the receivers that refresh it). */
  readonly discovery: DiscoveryPlan;
  /** The app's own webhook receivers (its ProjectConfig's). */
  readonly webhookReceivers: WebhookReceiver[];
  /** The least time from a new artifact to a verified release everywhere. */
  readonly leadTime: LeadTime;
}
