import { IPlatformApp } from '../plan/planned-app';

/**
 * How much a broken rule matters.
 */
export enum RuleSeverity {
  /** Synth fails. */
  ERROR = 'error',
  /** Synth prints the violation and goes on. */
  WARNING = 'warning',
}

/**
 * A rule of the platform's standards, checked against every app at synth time.
 *
 * Implement it to add a custom rule; the built-in rules are in `StandardsRules`.
 */
export interface IStandardsRule {
  /** A stable id (lowercase, dashes), used in messages and in exemptions. */
  readonly id: string;
  /** What the rule asks for, in one line. */
  readonly description: string;
  /** How much a violation matters. */
  readonly severity: RuleSeverity;
  /**
   * Checks one app.
   * @returns one message per violation, each saying how to comply; empty when the app complies
   */
  check(app: IPlatformApp): string[];
}

/**
 * One broken rule.
 */
export interface StandardsViolation {
  /** The app that breaks the rule; empty for a load limit, which the platform as a whole breaks. */
  readonly app: string;
  /** The rule's id. */
  readonly ruleId: string;
  /** How much it matters. */
  readonly severity: RuleSeverity;
  /** What is wrong and how to comply. */
  readonly message: string;
}
