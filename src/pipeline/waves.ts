import { call, hint, json } from '../util/code-hint';
import { describe, show } from '../util/errors';

/**
 * How a stage's clusters are split into waves.
 */
export enum WaveStrategy {
  /** All clusters of the stage at once. */
  SINGLE = 'single',
  /** One wave per value of a cluster label, in the given order. */
  BY_LABEL = 'by-label',
  /** A fixed number of waves of about equal size. */
  BY_COUNT = 'by-count',
  /** Waves that reach cumulative percentages of the stage's clusters. */
  BY_PERCENTAGE = 'by-percentage',
}

/**
 * Splits the clusters of a stage into waves. Each wave becomes its own Kargo Stage, fed by the
 * previous wave, with its own Argo CD ApplicationSet.
 *
 * For count and percentage waves the first wave is chosen to cover every provider ×
 * accelerator-family pair of the stage where its size allows, so problems specific to one
 * platform show up in the first wave (percentage waves grow the first wave to do so; count waves
 * do not, since an earlier count wave is never larger than a later one).
 *
 * @example
 * pipeline.addStage({ name: 'prod', clusters: ClusterSelector.tier(Tier.PROD), waves: Waves.byPercentage([10, 50, 100]) });
 */
export class Waves {
  /** No waves: the whole stage at once. */
  public static single(): Waves {
    return new Waves(WaveStrategy.SINGLE, undefined, [], 1, [], []);
  }

  /**
   * One wave per label value, in order (e.g. rings `canary`, `early`, `broad`). Every cluster
   * of the stage must carry the label with one of the values.
   */
  public static byLabel(key: string, values: string[]): Waves {
    const problems: string[] = [];
    if (values.length === 0) problems.push(describe(hint`${call('Waves', 'byLabel', json(key))}`, values, 'needs at least one value'));
    const dup = values.find((v, i) => values.indexOf(v) !== i);
    if (dup !== undefined) problems.push(describe(hint`${call('Waves', 'byLabel', json(key))} values`, values, `must be unique, but name ${show(dup)} twice`));
    return new Waves(WaveStrategy.BY_LABEL, key, [...values], values.length, [], problems);
  }

  /**
   * A fixed number of waves of about equal size (earlier waves are never larger).
   */
  public static byCount(count: number): Waves {
    const ok = Number.isInteger(count) && count >= 1;
    return new Waves(WaveStrategy.BY_COUNT, undefined, [], ok ? count : 1, [],
      ok ? [] : [describe(hint`${call('Waves', 'byCount')}`, count, 'needs a whole number >= 1')]);
  }

  /**
   * Waves that reach the given cumulative percentages of the stage's clusters, e.g.
   * `[10, 50, 100]`: the first wave holds 10%, the second brings it to 50%, the third to all.
   * The last value must be 100.
   */
  public static byPercentage(percentages: number[]): Waves {
    const problems: string[] = [];
    let previous = 0;
    for (const p of percentages) {
      if (!(p > previous && p <= 100)) {
        problems.push(describe(hint`${call('Waves', 'byPercentage')}`, percentages, 'needs increasing percentages in (0, 100]'));
        break;
      }
      previous = p;
    }
    if (problems.length === 0 && previous !== 100) {
      problems.push(describe(hint`${call('Waves', 'byPercentage')}`, percentages, 'must end at 100', 'add 100 as the last wave'));
    }
    const valid = problems.length === 0 ? [...percentages] : [100];
    return new Waves(WaveStrategy.BY_PERCENTAGE, undefined, [], valid.length, valid, problems);
  }

  private constructor(
    /** How clusters are split. */
    public readonly strategy: WaveStrategy,
    /** The label key, for `byLabel`. */
    public readonly labelKey: string | undefined,
    /** The label values in wave order, for `byLabel`. */
    public readonly labelValues: string[],
    /** How many waves at most. */
    public readonly count: number,
    /** The cumulative percentages, for `byPercentage`. */
    public readonly percentages: number[],
    /** @internal */
    public readonly _problems: string[]) {}
}

/**
 * Limits on how much of a stage one wave may reach.
 */
export interface WaveBudget {
  /**
   * At most this many clusters per wave.
   * @default - no limit
   */
  readonly maxClusters?: number;
  /**
   * At most this percentage of the stage's clusters per wave (rounded up to whole clusters).
   * @default - no limit
   */
  readonly maxPercent?: number;
}
