import { ArgoCdTopologyKind } from '../fleet/argocd-topology';
import { ApprovalKind } from '../pipeline/approval';

/**
 * The part of a wave one Argo CD instance deploys: one Kargo Stage over exactly these clusters.
 * A wave whose clusters are all served by the central Argo CD has one; each cluster with its own
 * Argo CD (reached through its own Kargo shard) adds one, promoted in parallel.
 */
export interface WavePlan {
  /** The wave's name within its stage (the stage's name when it has one wave). */
  readonly name: string;
  /** The Kargo Stage that promotes these clusters. */
  readonly kargoStage: string;
  /** The Kargo Stages of the previous wave, which must all have verified the Freight; empty: straight from the Warehouse. */
  readonly upstreams: string[];
  /** How long Freight must have been verified upstream first (Kargo duration), if at all. */
  readonly soak?: string;
  /** The clusters, sorted by name. */
  readonly clusters: string[];
  /** The Git branch holding the rendered manifests, one directory per cluster. */
  readonly releaseBranch: string;
  /** Which Argo CD deploys these clusters. */
  readonly argoCd: ArgoCdTopologyKind;
  /** The namespace of that Argo CD. */
  readonly argoCdNamespace: string;
  /** The Kargo controller shard the Stage is routed to (clusters with their own Argo CD). */
  readonly kargoShard?: string;
  /** The central Argo CD ApplicationSet that generates one Application per cluster (central Argo CD only). */
  readonly applicationSet?: string;
}

/**
 * One stage of an application's release plan.
 */
export interface StagePlan {
  /** The pipeline stage's name. */
  readonly name: string;
  /** Whether the stage serves production traffic. */
  readonly production: boolean;
  /** How promotion into the stage is approved. */
  readonly approval: ApprovalKind;
  /** Whether Kargo promotes into the stage by itself. */
  readonly autoPromote: boolean;
  /** The OIDC groups allowed to promote into the stage. */
  readonly promoters: string[];
  /** Labels for the pull requests of a pull-request stage. */
  readonly pullRequestLabels: string[];
  /** The names of the checks Freight must pass in the stage. */
  readonly verification: string[];
  /** The waves, in rollout order. */
  readonly waves: WavePlan[];
  /**
   * How long a promotion waits for the stage's Applications to sync and be healthy (Kargo
   * duration, the `argocd-update` step's `retry.timeout`); longer when a deploy freeze may hold
   * the sync.
   */
  readonly syncTimeout: string;
}

/** How long `argocd-update` waits by default: Kargo's own 5 minutes is less than one slow sync wave. @internal */
export const DEFAULT_SYNC_TIMEOUT = '30m';

/**
 * Where and how one application is released: the result of resolving a `PlatformApp` against
 * its fleet and pipeline. Pure data; both the Kargo and the Argo CD output are derived from it.
 */
export interface ReleasePlan {
  /** The application's name. */
  readonly app: string;
  /** The Kargo Project (and its namespace). */
  readonly project: string;
  /** The namespace the application is deployed to on every cluster. */
  readonly destinationNamespace: string;
  /** Every cluster the application is deployed to, sorted by name. */
  readonly clusters: string[];
  /** The stages, in promotion order. */
  readonly stages: StagePlan[];
}
