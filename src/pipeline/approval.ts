import { prop } from '../util/code-hint';
import { describe } from '../util/errors';

/**
 * How promotion into a stage is approved.
 */
export enum ApprovalKind {
  /** Kargo promotes new Freight as soon as it is verified upstream. */
  AUTOMATIC = 'automatic',
  /** A person allowed to promote starts each promotion. */
  MANUAL = 'manual',
  /** Each promotion opens a pull request to the release branch; merging it is the approval. */
  PULL_REQUEST = 'pull-request',
}

/**
 * Options for gated approvals.
 */
export interface ApprovalOptions {
  /**
   * OIDC groups allowed to promote into the stage (Kargo `promote` permission).
   * @default - the owning team's groups
   */
  readonly promoters?: string[];
}

/**
 * Options for `Approval.pullRequest()`.
 */
export interface PullRequestApprovalOptions extends ApprovalOptions {
  /**
   * Open the pull request as soon as Freight is verified upstream, instead of waiting for a
   * person to start the promotion. The merge stays the human gate.
   * @default true
   */
  readonly openAutomatically?: boolean;
  /**
   * Labels to put on each pull request.
   * @default - none
   */
  readonly labels?: string[];
}

/**
 * Who or what lets Freight into a stage.
 *
 * @see https://docs.kargo.io/user-guide/how-to-guides/working-with-stages
 *
 * @example
 * pipeline.addStage({ name: 'prod', clusters: ClusterSelector.tier(Tier.PROD), approval: Approval.manual({ promoters: ['sre'] }) });
 */
export class Approval {
  /** Promote automatically (Kargo auto-promotion in the project's ProjectConfig). */
  public static automatic(): Approval {
    return new Approval(ApprovalKind.AUTOMATIC, [], true, [], []);
  }

  /** A person with the `promote` permission starts every promotion. */
  public static manual(options: ApprovalOptions = {}): Approval {
    return new Approval(ApprovalKind.MANUAL, [...options.promoters ?? []], false, [], groupProblems(options.promoters));
  }

  /**
   * Every promotion renders into a generated branch and opens a pull request against the
   * stage's release branch (`git-open-pr`); Kargo waits for it to be merged
   * (`git-wait-for-pr`) and then syncs Argo CD to the merge commit.
   */
  public static pullRequest(options: PullRequestApprovalOptions = {}): Approval {
    return new Approval(ApprovalKind.PULL_REQUEST, [...options.promoters ?? []], options.openAutomatically ?? true, [...options.labels ?? []],
      groupProblems(options.promoters));
  }

  private constructor(
    /** The kind of approval. */
    public readonly kind: ApprovalKind,
    /** Groups allowed to promote, if set here. */
    public readonly promoters: string[],
    /** Whether Kargo starts promotions into the stage by itself. */
    public readonly autoPromote: boolean,
    /** Labels for pull requests. */
    public readonly pullRequestLabels: string[],
    /** @internal */
    public readonly _problems: string[]) {}

  /** Whether a human must act before Freight reaches the stage. */
  public get gated(): boolean {
    return this.kind !== ApprovalKind.AUTOMATIC;
  }
}

function groupProblems(groups: string[] | undefined): string[] {
  return (groups ?? [])
    .filter(g => `${g}`.trim() === '' || /[,\s]/.test(g))
    .map(g => describe(prop('promoters'), g, 'must be OIDC group names without spaces or commas'));
}
