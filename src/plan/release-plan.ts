import { ApprovalKind } from '../pipeline/approval';

/**
 * One wave of a stage: a Kargo Stage and an Argo CD ApplicationSet over exactly these clusters.
 */
export interface WavePlan {
  /** The wave's name within its stage (the stage's name when it has one wave). */
  readonly name: string;
  /** The Kargo Stage that promotes this wave. */
  readonly kargoStage: string;
  /** The Kargo Stage this wave takes verified Freight from; undefined: straight from the Warehouse. */
  readonly upstream?: string;
  /** How long Freight must have been verified upstream first (Kargo duration), if at all. */
  readonly soak?: string;
  /** The clusters of the wave, sorted by name. */
  readonly clusters: string[];
  /** The Git branch holding the wave's rendered manifests, one directory per cluster. */
  readonly releaseBranch: string;
  /** The Argo CD ApplicationSet that generates one Application per cluster of the wave. */
  readonly applicationSet: string;
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
  /** The waves, in rollout order. */
  readonly waves: WavePlan[];
}

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
