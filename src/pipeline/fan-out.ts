import { ClusterSelector } from '../fleet/cluster-selector';
import { call, hint } from '../util/code-hint';
import { describe, show } from '../util/errors';
import { dns1123LabelProblem } from '../util/names';

/**
 * How a stage is split into parallel branches.
 */
export enum FanOutKind {
  /** One branch per value of a cluster label. */
  BY_LABEL = 'by-label',
  /** One branch per named group of clusters. */
  GROUPS = 'groups',
}

/**
 * Splits a stage into parallel sibling Kargo Stages, `<stage>-<branch>`, all fed by the stage's
 * upstream stages. Each branch has its own ApplicationSet, release branch, checks and promoters,
 * and is promoted (and rolled back to older Freight) on its own; its clusters are split into
 * waves by the stage's `waves`. A stage after a fanned-out stage joins its branches.
 *
 * @example
 * pipeline.addStage({ name: 'prod', clusters: ClusterSelector.tier(Tier.PROD), fanOut: FanOut.byLabel('region') });
 */
export class FanOut {
  /**
   * One branch per value of the label among the stage's clusters (sorted); every cluster of the
   * stage must carry the label, and its values must be DNS-1123 labels.
   */
  public static byLabel(key: string): FanOut {
    const problems = `${key ?? ''}`.trim() === '' ? [describe(hint`${call('FanOut', 'byLabel')}`, key, 'needs a label key')] : [];
    return new FanOut(FanOutKind.BY_LABEL, key, {}, problems);
  }

  /**
   * One branch per named group; every cluster of the stage must be in exactly one group.
   */
  public static groups(groups: { [name: string]: ClusterSelector }): FanOut {
    const problems: string[] = [];
    const names = Object.keys(groups ?? {}).sort();
    if (names.length === 0) problems.push(describe(hint`${call('FanOut', 'groups')}`, groups, 'needs at least one group'));
    for (const name of names) {
      const p = dns1123LabelProblem(name);
      if (p) problems.push(describe(hint`${call('FanOut', 'groups')} group name`, name, p, 'it names Kargo Stages: use a short label such as "west"'));
      if (!(groups[name] instanceof ClusterSelector)) {
        problems.push(describe(hint`${call('FanOut', 'groups')} group ${show(name)}`, groups[name], 'must be a ClusterSelector',
          hint`use e.g. ${call('ClusterSelector', 'byLabel')}`));
      }
    }
    return new FanOut(FanOutKind.GROUPS, undefined, { ...groups }, problems);
  }

  private constructor(
    /** How the stage is split. */
    public readonly kind: FanOutKind,
    /** The label key, for `byLabel`. */
    public readonly labelKey: string | undefined,
    /** The groups by name, for `groups`. */
    public readonly groupSelectors: { [name: string]: ClusterSelector },
    /** @internal */
    public readonly _problems: string[]) {}
}
