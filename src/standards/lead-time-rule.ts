import { Duration } from 'cdk8s';
import { IStandardsRule, RuleSeverity } from './standards-rule';
import { LeadTimeContributor } from '../plan/lead-time';
import { IPlatformApp } from '../plan/planned-app';
import { toGoDuration } from '../util/duration';
import { describe, show } from '../util/errors';

/** Options for `StandardsRules.maxLeadTime()`. */
export interface MaxLeadTimeOptions {
  /**
   * The longest lead time of an app: from a new artifact to a verified release on the last
   * cluster of every terminal stage.
   * @default - no limit for the whole app
   */
  readonly limit?: Duration;
  /**
   * The longest time to a verified release on every cluster of each production stage.
   * @default - no limit for production stages
   */
  readonly production?: Duration;
  /**
   * The longest time to a verified release on every cluster of a stage, by pipeline stage name.
   * @default - no limit per stage
   */
  readonly stages?: Record<string, Duration>;
}

const seconds = (s: number) => (s === 0 ? '0' : toGoDuration(Duration.seconds(Math.round(s))));

/** The three biggest parts of a lead time: what a team shortens first. */
function biggest(contributors: LeadTimeContributor[]): string {
  return contributors.slice(0, 3).map(c => `${c.what} ${seconds(c.seconds)}`).join(', ') || 'nothing but promotion';
}

/**
 * `max-lead-time`: the least time from a new artifact to a verified release stays within the
 * platform's limits. Apps whose lead time is unknown (implemented without one) are skipped.
 * @internal
 */
export function maxLeadTimeRule(options: MaxLeadTimeOptions): IStandardsRule {
  const caps = [
    options.limit ? `${toGoDuration(options.limit)} for an app` : '',
    options.production ? `${toGoDuration(options.production)} to each production stage` : '',
    ...Object.entries(options.stages ?? {}).map(([s, d]) => `${toGoDuration(d)} to stage ${s}`),
  ].filter(c => c !== '');
  const fix = 'shorten the soaks or checks on the critical path, declare webhook receivers for the polled repositories, or exempt the app with the reason';
  const rule: IStandardsRule & INamesStages = {
    _stageNames: Object.keys(options.stages ?? {}),
    id: 'max-lead-time',
    description: `a release is verified everywhere within ${caps.join(', ') || 'any time'} (approvals not counted)`,
    severity: RuleSeverity.ERROR,
    check: (app: IPlatformApp) => {
      const lt = app.leadTime;
      if (lt === undefined) return [];
      const problems: string[] = [];
      if (options.limit && lt.seconds > options.limit.toSeconds()) {
        problems.push(describe('lead time', seconds(lt.seconds), `is longer than the limit of ${toGoDuration(options.limit)} `
          + `(biggest contributors: ${biggest(lt.contributors)})`, fix));
      }
      for (const stage of lt.stages) {
        const plan = app.plan.stages.find(s => s.name === stage.stage);
        const limit = options.stages?.[stage.stage] ?? (plan?.production ? options.production : undefined);
        if (limit && stage.seconds > limit.toSeconds()) {
          problems.push(describe(`lead time to stage ${show(stage.stage)}`, seconds(stage.seconds), `is longer than the limit of ${toGoDuration(limit)} `
            + `(biggest contributors: ${biggest(stage.contributors)})`, fix));
        }
      }
      return problems;
    },
  };
  return rule;
}

/**
 * A rule whose options name pipeline stages: `PlatformStandards` checks that each names a stage
 * of the apps it reviews (a misspelt stage would silently check nothing).
 * @internal
 */
export interface INamesStages {
  /** @internal */
  readonly _stageNames: string[];
}

/** Whether a rule names stages in its options. @internal */
export function namesStages(rule: IStandardsRule): rule is IStandardsRule & INamesStages {
  return Array.isArray((rule as Partial<INamesStages>)._stageNames);
}
