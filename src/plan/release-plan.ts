import { Duration } from 'cdk8s';
import { applicationName } from '../contracts/release-names';
import { ArgoCdTopologyKind } from '../fleet/argocd-topology';
import { ApprovalKind } from '../pipeline/approval';
import { JoinKind } from '../pipeline/join';
import { toGoDuration } from '../util/duration';

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
  /**
   * The Kargo Stages Freight comes from: the previous wave's, or for a stage's first wave the last
   * waves of its upstream stages; empty: straight from the Warehouse.
   */
  readonly upstreams: string[];
  /** How several upstreams are joined: all of them must have verified the Freight unless `any-of`. */
  readonly join?: JoinKind;
  /** The fan-out branch the wave belongs to, if its stage fans out. */
  readonly branch?: string;
  /** Whether this is a Kargo control-flow Stage: no clusters, no promotion steps, no checks. */
  readonly controlFlow?: boolean;
  /**
   * How long Freight must have run in the upstream Kargo Stages before it may enter this one
   * (Kargo duration), if at all. It is waited in the upstreams' verification (their
   * `verificationSoak`), not with Kargo's `requiredSoakTime`.
   */
  readonly soak?: string;
  /**
   * How long this Stage's verification waits after its promotion before Freight counts as
   * verified here (Kargo duration): the soak of the Stages after it, waited alongside the checks.
   * @default - no soak
   */
  readonly verificationSoak?: string;
  /**
   * How long after a release Freight can reach this Stage at the earliest, in seconds: the soaks
   * on the way from the Warehouse (through every upstream of a join, through the shortest one of
   * an any-of join). Promotions and checks longer than a soak add to it.
   */
  readonly earliestSeconds: number;
  /** The clusters, sorted by name. */
  readonly clusters: string[];
  /**
   * The app's Argo CD Application on each of `clusters`, in the same order: named once, in the
   * plan, for the emitters, the name claims and the standards alike.
   */
  readonly applications: string[];
  /** The Git branch holding the rendered manifests, one directory per cluster (none for a control-flow Stage). */
  readonly releaseBranch?: string;
  /** Which Argo CD deploys these clusters. */
  readonly argoCd: ArgoCdTopologyKind;
  /** The namespace of that Argo CD. */
  readonly argoCdNamespace: string;
  /** The Kargo controller shard the Stage is routed to (clusters with their own Argo CD). */
  readonly kargoShard?: string;
  /**
   * The central Argo CD ApplicationSet that generates one Application per cluster (central Argo CD
   * only): one per app for every stage in the app's namespace, one per stage with a namespace of
   * its own, shared by all their waves, so a cluster that changes wave keeps its owner.
   */
  readonly applicationSet?: string;
}

/**
 * A deploy freeze as it applies to one stage of one app: an Argo CD deny sync window.
 */
export interface FreezePlan {
  /** Why nothing may ship. */
  readonly reason: string;
  /** The cron schedule the freeze starts at. */
  readonly schedule: string;
  /** How long it holds (Argo CD duration). */
  readonly duration: string;
  /** How long it holds, in seconds. */
  readonly durationSeconds: number;
  /** The time zone of the schedule. */
  readonly timeZone: string;
  /** Whether a person may still sync (the freeze allows it, or the app has an override). */
  readonly manualSync: boolean;
  /** Where the freeze was given: `pipeline`, `stage` or `app`. */
  readonly origin: string;
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
  /** Whether a person approves promotion into the stage (a manual or pull-request approval). */
  readonly gated: boolean;
  /** Whether Kargo promotes into the stage by itself. */
  readonly autoPromote: boolean;
  /** The OIDC groups allowed to promote into the stage. */
  readonly promoters: string[];
  /** Labels for the pull requests of a pull-request stage. */
  readonly pullRequestLabels: string[];
  /** The names of the checks Freight must pass in the stage. */
  readonly verification: string[];
  /** The upstream pipeline stages (empty: the Warehouse). */
  readonly after?: string[];
  /** How Freight from several upstream stages is accepted. */
  readonly join?: JoinKind;
  /** Whether the stage is a Kargo control-flow Stage (no clusters). */
  readonly controlFlow?: boolean;
  /**
   * The namespace the app is deployed to in this stage: the app's namespace, or what the stage's
   * `namespace` pattern gives the app.
   */
  readonly namespace: string;
  /** The waves, in rollout order. */
  readonly waves: WavePlan[];
  /** The deploy freezes of the stage, pipeline's first, then the stage's, then the app's. */
  readonly freezes: FreezePlan[];
  /**
   * How long a promotion waits for the stage's Applications to sync and be healthy (Kargo
   * duration, the `argocd-update` step's `retry.timeout`). A promotion also stops before it
   * pushes while a deploy freeze holds or opens within this time.
   */
  readonly syncTimeout: string;
}

/** Whether a stage deploys the app to a namespace other than the app's own. @internal */
export function hasOwnNamespace(plan: Pick<ReleasePlan, 'destinationNamespace'>, stage: Pick<StagePlan, 'namespace'>): boolean {
  return stage.namespace !== plan.destinationNamespace;
}

/**
 * The Argo CD Application of an app on one cluster of one stage. A stage with a namespace of its
 * own may share its clusters with other stages, so its Applications carry the stage's name; the
 * others keep the name they have always had. The one rule for Application names: the plan
 * records each on its wave (`WavePlan.applications`); only the ApplicationSet template, which
 * names a cluster by placeholder, calls it again.
 * @internal
 */
export function stageApplicationName(plan: Pick<ReleasePlan, 'app' | 'destinationNamespace'>, stage: Pick<StagePlan, 'name' | 'namespace'>,
  cluster: string): string {
  return applicationName(plan.app, cluster, hasOwnNamespace(plan, stage) ? stage.name : undefined);
}

/**
 * The app's Applications on each cluster, in plan order: one, or one per stage when stages in
 * different namespaces share the cluster.
 * @internal
 */
export function applicationsByCluster(stages: StagePlan[]): Map<string, Array<{ stage: StagePlan; application: string }>> {
  const by = new Map<string, Array<{ stage: StagePlan; application: string }>>();
  for (const stage of stages) {
    for (const wave of stage.waves) {
      wave.clusters.forEach((c, i) => by.set(c, [...by.get(c) ?? [], { stage, application: wave.applications[i] }]));
    }
  }
  return by;
}

/**
 * How long `argocd-update` waits for a sync by default (Kargo's own 5 minutes is less than one
 * slow sync wave), and how far ahead a promotion looks for a deploy freeze. @internal
 */
export const DEFAULT_SYNC_TIMEOUT_SECONDS = 30 * 60;

/** `DEFAULT_SYNC_TIMEOUT_SECONDS` as a Kargo duration. @internal */
export const DEFAULT_SYNC_TIMEOUT = toGoDuration(Duration.seconds(DEFAULT_SYNC_TIMEOUT_SECONDS));

/**
 * Where and how one application is released: the result of resolving a `PlatformApp` against
 * its fleet and pipeline. Pure data; both the Kargo and the Argo CD output are derived from it.
 */
export interface ReleasePlan {
  /** The application's name. */
  readonly app: string;
  /** The Kargo Project (and its namespace). */
  readonly project: string;
  /** The app's namespace: where it is deployed in every stage without a namespace of its own. */
  readonly destinationNamespace: string;
  /** Every cluster the application is deployed to, sorted by name. */
  readonly clusters: string[];
  /** The stages, every one after its upstream stages. */
  readonly stages: StagePlan[];
  /**
   * The app's emergency exception from its freezes (`<reason> (by <who>)`), if any.
   * @default - none
   */
  readonly freezeOverride?: string;
}
