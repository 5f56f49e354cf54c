/**
 * The team that owns an application.
 */
export interface AppOwner {
  /** The team's name (label-safe, e.g. `inference`). */
  readonly team: string;
  /** Where to reach the team: a chat channel, an e-mail address or an on-call rota. */
  readonly contact: string;
  /**
   * OIDC groups of the team; they may promote into gated stages unless a stage names its own
   * promoters.
   * @default - a group named after the team
   */
  readonly groups?: string[];
}
