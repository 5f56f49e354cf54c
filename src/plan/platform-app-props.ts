import { AppOwner } from './owner';
import { ClusterResource, StandardsExemption } from './planned-app';
import { ArgoCdCredentials } from '../artifact/argocd-credentials';
import { Artifact } from '../artifact/artifact';
import { ManifestSource } from '../artifact/manifest-source';
import { RepositoryCredentials } from '../artifact/repository-credentials';
import { IClusterFleet } from '../fleet/cluster-fleet';
import { ClusterSelector } from '../fleet/cluster-selector';
import { Requirement } from '../fleet/requirement';
import { WebhookReceiver } from '../fleet/webhook-receiver';
import { DeployFreeze, FreezeOverride } from '../pipeline/deploy-freeze';
import { IPromotionPipeline } from '../pipeline/promotion-pipeline';
import { Verification } from '../verification/verification';

/**
 * Properties for `PlatformApp`.
 */
export interface PlatformAppProps {
  /**
   * The application's name: a DNS-1123 label, unique in the platform. It names the Kargo
   * Project, the Argo CD AppProject, ApplicationSets, Applications and release branches.
   * @default - the construct id
   */
  readonly appName?: string;
  /** The team that owns the application. */
  readonly owner: AppOwner;
  /** The clusters the application can be delivered to. */
  readonly fleet: IClusterFleet;
  /** The stages the application is promoted through. */
  readonly pipeline: IPromotionPipeline;
  /** What a release is made of; promoted together as one Kargo Freight. */
  readonly artifacts: Artifact[];
  /** Where the manifests come from and how they are rendered. */
  readonly source: ManifestSource;
  /**
   * The Git repository (`https://`) that records what runs where: one branch per stage or wave
   * (`rendered/<app>/<stage>`), one directory per cluster. Argo CD deploys from it.
   */
  readonly releaseRepo: string;
  /**
   * How Kargo authenticates to the release repository (it pushes rendered manifests and opens
   * pull requests there).
   * @default - whatever credentials the Kargo operators share
   */
  readonly releaseRepoCredentials?: RepositoryCredentials;
  /**
   * How Argo CD reads the release repository: a repository Secret without secret material in the
   * central Argo CD's namespace and in each cluster's own Argo CD, scoped to the app's
   * AppProject. The release repository is the only repository the app's Applications read.
   * @default - none declared: the repository is public, or the platform declares Argo CD's
   * access itself (e.g. a `repo-creds` template for the organization)
   */
  readonly releaseRepoArgoCdCredentials?: ArgoCdCredentials;
  /**
   * Accept an `http://` release repository. Plain HTTP sends what runs where, and the
   * credentials Kargo pushes with, in clear text: only for a repository on a trusted network.
   * @default false
   */
  readonly releaseRepoAllowInsecureHttp?: boolean;
  /**
   * Which clusters of each stage the application runs on.
   * @default ClusterSelector.all()
   */
  readonly targets?: ClusterSelector;
  /**
   * Capabilities a cluster must offer (accelerators, Kubernetes version, labels).
   * @default - none
   */
  readonly requires?: Requirement[];
  /**
   * The namespace the application is deployed to on every cluster.
   * @default - the application's name
   */
  readonly namespace?: string;
  /**
   * Checks Freight must pass in every stage (after the pipeline's own checks for the stage)
   * before it counts as verified and may move on.
   * @default - none
   */
  readonly verification?: Verification[];
  /**
   * Extra checks for particular stages, by pipeline stage name.
   * @default - none
   */
  readonly stageVerification?: Record<string, Verification[]>;
  /**
   * Cluster-scoped resources the application manages (e.g. its CRDs); the AppProject allows
   * only these. Platform standards flag them unless the app is exempt.
   * @default - none: the AppProject allows no cluster-scoped resource
   */
  readonly clusterResources?: ClusterResource[];
  /**
   * Platform standards rules this app is exempt from, each with its justification; recorded
   * in the app's Kargo Project and Argo CD AppProject annotations.
   * @default - none
   */
  readonly exemptions?: StandardsExemption[];
  /**
   * Deploy freezes of this app only (in the stages each names; all when it names none), on top
   * of its pipeline's.
   * @default - none
   */
  readonly freezes?: DeployFreeze[];
  /**
   * An emergency exception from every freeze of the app, recorded on its Kargo Project and
   * AppProjects; its windows then let a person's promotion through (`manualSync`).
   * @default - none: the freezes hold
   */
  readonly freezeOverride?: FreezeOverride;
  /**
   * Webhook receivers of the app's own (in its Kargo ProjectConfig), for repositories the
   * platform's receivers do not cover; their Secrets live in the app's Kargo Project namespace.
   * @default - none: the platform's receivers, or polling
   */
  readonly webhookReceivers?: WebhookReceiver[];
}
