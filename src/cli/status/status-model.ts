import { RecordedArtifact, RecordedKind } from '../../contracts/release-record';

// `status --json` (schema: src/cli/status-output.schema.json) and what the Markdown is written
// from: one document, so the two outputs cannot disagree.

/**
 * What `status --json` prints: what each selected cluster of each app runs according to the
 * release record (and, with `--live`, the hub). Its JSON Schema ships as
 * `cdk8s-gitops-platform/cli/status-output.schema.json`.
 */
export interface StatusOutput {
  /** `OUTPUT_SCHEMA_VERSION`: changes only when a field is removed or changes meaning. */
  readonly schemaVersion: number;
  /** The command that printed the document. */
  readonly command: 'status';
  /** The release repositories read. */
  readonly repositories: RepositoryOutput[];
  /** `--has` / `--lacks`. */
  readonly query?: QueryOutput;
  /** `--live`: the Kubernetes API read. */
  readonly live?: LiveSource;
  /** The selected apps, each with its stages, waves and clusters. */
  readonly apps: AppStatus[];
  /** The counts over every selected cluster. */
  readonly summary: StatusSummary;
}

/** A release repository as the apps name it and where it was read. */
export interface RepositoryOutput {
  /** The URL the apps' Applications deploy from. */
  readonly url: string;
  /** The path or URL read (credentials redacted). */
  readonly readFrom: string;
  /** Whether it was fetched into a temporary repository (a URL) rather than read in place (a path). */
  readonly fetched: boolean;
  /** How many `rendered/*` branches it holds. */
  readonly branches: number;
}

export interface StatusSummary {
  /** Clusters selected (app × cluster pairs, one per Kargo Stage that renders them). */
  readonly clusters: number;
  readonly rendered: number;
  readonly notRendered: number;
  /** Folders on release branches for clusters the app no longer targets there. */
  readonly orphans: number;
  /** With `--live`: clusters whose live state differs from the release record. */
  readonly drifted?: number;
}

/** An artifact of an app, as its Warehouse subscribes to it. */
export interface ArtifactOutput {
  readonly kind: RecordedKind;
  readonly repoUrl: string;
  readonly name?: string;
  /** What a column or a `--has` calls it: the last part of the repository (or the chart name). */
  readonly label: string;
  /** An image followed by digest (a mutable tag): the digest tells its versions apart. */
  readonly byDigest?: boolean;
}

/** One app as its release record shows it. */
export interface AppStatus {
  /** The app's name. */
  readonly name: string;
  /** The Kargo Project (the namespace of its Stages). */
  readonly project: string;
  /** The release repositories its Stages push to. */
  readonly releaseRepos: string[];
  /** What its releases are made of, as the record names them. */
  readonly artifacts: ArtifactOutput[];
  /** Its pipeline stages, in plan order. */
  readonly stages: StageStatus[];
  /** Folders on its release branches for clusters it no longer targets there. */
  readonly orphans: OrphanFolder[];
}

/** One pipeline stage of an app. */
export interface StageStatus {
  /** The stage's name. */
  readonly name: string;
  /** Whether the stage is production. */
  readonly production: boolean;
  /** Its waves, in rollout order. */
  readonly waves: WaveStatus[];
}

/** One wave of a stage. */
export interface WaveStatus {
  /** The wave's name (the stage's when it has one wave). */
  readonly name: string;
  /** Its clusters, each with what it runs. */
  readonly clusters: ClusterStatus[];
}

/** The release recorded for one cluster of an app, from one Kargo Stage's branch. */
export interface ClusterStatus {
  /** The cluster's name. */
  readonly cluster: string;
  /** The Kargo Stage that renders it. */
  readonly kargoStage: string;
  /** The release branch it is rendered to. */
  readonly branch: string;
  /** Its folder on that branch. */
  readonly path: string;
  /** The Argo CD Application that deploys it, and its namespace. */
  readonly application: string;
  /** The namespace of that Application. */
  readonly applicationNamespace: string;
  /** Whether that Application is in the cluster's own Argo CD, not the hub's. */
  readonly ownArgoCd: boolean;
  /** The branch's head commit (for a rendered cluster). */
  readonly head?: string;
  /** `rendered`: the folder is on the branch head; `not-rendered`: the plan targets it, the branch has no folder for it (yet). */
  readonly state: 'rendered' | 'not-rendered';
  /** Why not rendered: the branch does not exist, or has no folder for the cluster. */
  readonly reason?: 'no-branch' | 'no-folder';
  /** Other branches of the app with a folder for the cluster: where it was before it moved. */
  readonly renderedOn?: string[];
  /** The newest release recorded on the branch (for a rendered cluster). */
  readonly release?: ReleaseOutput;
  /** When the cluster's folder last changed. */
  readonly changed?: ChangeOutput;
  /** With `--has` / `--lacks`: whether the release asked about is here. */
  readonly has?: boolean;
  /** With `--live`. */
  readonly live?: LiveCluster;
}

/** A release the record names: the Freight a promotion rendered, and when it landed. */
export interface ReleaseOutput {
  /** The Freight's name (`Kargo-Freight`). */
  readonly freight: string;
  /** The Freight's alias (`Kargo-Freight-Alias`), when recorded. */
  readonly freightAlias?: string;
  /** The Promotion that committed it (`Kargo-Promotion`), when recorded. */
  readonly promotion?: string;
  /** The branch commit (for a merged pull request, the merge). */
  readonly commit: string;
  /** The commit the record was read from, when not `commit` (the promotion's commit a pull request merged). */
  readonly recordCommit?: string;
  /** When the commit landed on the branch (committer time, ISO 8601 UTC). */
  readonly promotedAt: string;
  /** Commits on the branch after it that record no release (made by hand); 0 when it is the head. */
  readonly commitsAfter: number;
  /** Each artifact's version in that Freight. */
  readonly artifacts: RecordedArtifact[];
  /** `trailers`, or `legacy` for a message of library versions before the trailers. */
  readonly format: 'trailers' | 'legacy';
}

export interface ChangeOutput {
  /** Commits (promotions) before the head that last changed the folder; 0: the head did. */
  readonly commitsAgo: number;
  /** The history read ends before the change: it is at least `commitsAgo` commits ago. */
  readonly atLeast: boolean;
  readonly commit: string;
  readonly at: string;
}

/** A folder on a release branch for a cluster the app no longer renders there. */
export interface OrphanFolder {
  readonly branch: string;
  readonly cluster: string;
  /** Where the app now renders the cluster (none: it no longer targets it). */
  readonly targetedOn: string[];
}

/** What `--has` or `--lacks` asked, and how many selected clusters answer it. */
export interface QueryOutput {
  /** `has` (`--has`) or `lacks` (`--lacks`). */
  readonly mode: 'has' | 'lacks';
  /** As given, e.g. `checkout-api@1.4.2`. */
  readonly release: string;
  /** The artifact the release names (its label). */
  readonly artifact: string;
  /** The version asked about. */
  readonly version: string;
  /** Selected clusters of the apps with such an artifact. */
  readonly selected: number;
  /** How many of them have that version rendered. */
  readonly having: number;
  /** How many do not (`selected - having`). */
  readonly lacking: number;
  /** Whether every selected cluster has it (the exit code). */
  readonly all: boolean;
}

export interface LiveSource {
  readonly context: string;
  readonly server: string;
}

/** What the hub says about one cluster of an app. */
/** With `--live`: what the hub says of a cluster's Application and Kargo Stage. */
export interface LiveCluster {
  /** The Argo CD Application. */
  readonly application: string;
  /** The Application's namespace. */
  readonly namespace: string;
  /** `found`, `missing` (not on the hub) or `own-argo-cd` (in the cluster's own Argo CD, not readable from the hub). */
  readonly argoCd: 'found' | 'missing' | 'own-argo-cd';
  /** The Application's sync status (`Synced`, `OutOfSync`, ...), when found. */
  readonly sync?: string;
  /** The Application's health status (`Healthy`, `Degraded`, ...), when found. */
  readonly health?: string;
  /** The revision Argo CD last synced (deployed). */
  readonly syncedRevision?: string;
  /** The Kargo Stage's current Freight. */
  readonly stageFreight?: string;
  /** Each disagreement between the release record and the live state, as a sentence. */
  readonly drift: string[];
}

/** Every cluster of an app, stage by stage and wave by wave. @internal */
export function clustersOf(app: AppStatus): ClusterStatus[] {
  return app.stages.flatMap((s) => s.waves.flatMap((w) => w.clusters));
}
