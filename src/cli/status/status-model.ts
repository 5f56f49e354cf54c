import { RecordedArtifact, RecordedKind } from '../../contracts/release-record';

// `status --json` (schema: src/cli/status-output.schema.json) and what the Markdown is written
// from: one document, so the two outputs cannot disagree.

/** `status --json`. */
export interface StatusOutput {
  readonly schemaVersion: number;
  readonly command: 'status';
  /** The release repositories read. */
  readonly repositories: RepositoryOutput[];
  /** `--has` / `--lacks`. */
  readonly query?: QueryOutput;
  /** `--live`: the Kubernetes API read. */
  readonly live?: LiveSource;
  readonly apps: AppStatus[];
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

export interface AppStatus {
  readonly name: string;
  /** The Kargo Project (the namespace of its Stages). */
  readonly project: string;
  readonly releaseRepos: string[];
  readonly artifacts: ArtifactOutput[];
  readonly stages: StageStatus[];
  readonly orphans: OrphanFolder[];
}

export interface StageStatus {
  readonly name: string;
  readonly production: boolean;
  readonly waves: WaveStatus[];
}

export interface WaveStatus {
  readonly name: string;
  readonly clusters: ClusterStatus[];
}

/** The release recorded for one cluster of an app, from one Kargo Stage's branch. */
export interface ClusterStatus {
  readonly cluster: string;
  readonly kargoStage: string;
  readonly branch: string;
  readonly path: string;
  /** The Argo CD Application that deploys it, and its namespace. */
  readonly application: string;
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

export interface ReleaseOutput {
  readonly freight: string;
  readonly freightAlias?: string;
  readonly promotion?: string;
  /** The branch commit (for a merged pull request, the merge). */
  readonly commit: string;
  /** The commit the record was read from, when not `commit` (the promotion's commit a pull request merged). */
  readonly recordCommit?: string;
  /** When the commit landed on the branch (committer time, ISO 8601 UTC). */
  readonly promotedAt: string;
  /** Commits on the branch after it that record no release (made by hand); 0 when it is the head. */
  readonly commitsAfter: number;
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

export interface QueryOutput {
  readonly mode: 'has' | 'lacks';
  /** As given, e.g. `checkout-api@1.4.2`. */
  readonly release: string;
  readonly artifact: string;
  readonly version: string;
  /** Selected clusters of the apps with such an artifact. */
  readonly selected: number;
  readonly having: number;
  readonly lacking: number;
  /** Whether every selected cluster has it (the exit code). */
  readonly all: boolean;
}

export interface LiveSource {
  readonly context: string;
  readonly server: string;
}

/** What the hub says about one cluster of an app. */
export interface LiveCluster {
  /** The Argo CD Application. */
  readonly application: string;
  readonly namespace: string;
  /** `found`, `missing` (not on the hub) or `own-argo-cd` (in the cluster's own Argo CD, not readable from the hub). */
  readonly argoCd: 'found' | 'missing' | 'own-argo-cd';
  readonly sync?: string;
  readonly health?: string;
  /** The revision Argo CD last synced (deployed). */
  readonly syncedRevision?: string;
  /** The Kargo Stage's current Freight. */
  readonly stageFreight?: string;
  /** Each disagreement between the release record and the live state, as a sentence. */
  readonly drift: string[];
}
