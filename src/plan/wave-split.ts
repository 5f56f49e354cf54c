import { Cluster } from '../fleet/cluster';
import { WaveStrategy, Waves } from '../pipeline/waves';
import { describe, show } from '../util/errors';

/**
 * The clusters of one wave, before naming.
 * @internal
 */
export interface WaveGroup {
  readonly name: string;
  readonly clusters: Cluster[];
}

/**
 * Splits a stage's clusters (sorted by name) into waves, or returns the problems that prevent it.
 * `maxPerWave` is the wave budget in clusters.
 * @internal
 */
export function splitIntoWaves(stage: string, clusters: Cluster[], waves: Waves, maxPerWave: number): { groups: WaveGroup[]; problems: string[] } {
  switch (waves.strategy) {
    case WaveStrategy.SINGLE:
      return withinBudget(stage, [{ name: stage, clusters }], maxPerWave, clusters.length);
    case WaveStrategy.BY_LABEL:
      return byLabel(stage, clusters, waves, maxPerWave);
    case WaveStrategy.BY_COUNT:
      return bySizes(stage, clusters, countSizes(clusters.length, waves.count), maxPerWave, false);
    case WaveStrategy.BY_PERCENTAGE: {
      const cumulative = waves.percentages.map(p => Math.ceil((p * clusters.length) / 100));
      return bySizes(stage, clusters, cumulative, maxPerWave, true);
    }
  }
}

function byLabel(stage: string, clusters: Cluster[], waves: Waves, maxPerWave: number) {
  const key = waves.labelKey!;
  const problems: string[] = [];
  const unlabeled = clusters.filter(c => !waves.labelValues.includes(c._labels[key]));
  if (unlabeled.length > 0) {
    problems.push(describe(`stage ${show(stage)} waves by label ${show(key)}`, unlabeled,
      `cannot place clusters without one of the wave values (${waves.labelValues.join(', ')})`,
      'label every cluster of the stage with one of the wave values',
      () => unlabeled.map(c => `${c.name} (${key}=${c._labels[key] ?? '<unset>'})`).join(', ')));
  }
  const groups = waves.labelValues
    .map(value => ({ name: value, clusters: clusters.filter(c => c._labels[key] === value) }))
    .filter(g => g.clusters.length > 0);
  const budget = withinBudget(stage, groups, maxPerWave, clusters.length);
  return { groups, problems: [...problems, ...budget.problems] };
}

/**
 * Fills waves up to cumulative cluster counts. Clusters are taken round-robin over the stage's
 * provider × accelerator pairs, so the first wave covers every pair when it is large enough;
 * with `grow`, the first wave is enlarged (within the budget) to cover every pair.
 */
function bySizes(stage: string, clusters: Cluster[], cumulative: number[], maxPerWave: number, grow: boolean) {
  const order = pairRoundRobin(clusters);
  const pairs = new Set(clusters.map(pairOf)).size;
  const targets = [...cumulative];
  if (grow) targets[0] = Math.max(targets[0], Math.min(pairs, maxPerWave, clusters.length), 1);
  const groups: WaveGroup[] = [];
  let taken = 0;
  for (const target of targets) {
    if (target <= taken) continue;
    const slice = order.slice(taken, target);
    groups.push({ name: `w${groups.length + 1}`, clusters: slice.sort((a, b) => a.name.localeCompare(b.name)) });
    taken = target;
  }
  return withinBudget(stage, groups, maxPerWave, clusters.length);
}

/**
 * Cumulative sizes of count waves whose sizes never decrease: the remainder of an uneven split
 * goes to the last waves (22 clusters in 4 waves are 5, 5, 6, 6, not 5, 6, 5, 6). The first wave
 * is not grown beyond its share (that would make it larger than the next); the round-robin order
 * still makes it cover as many provider x accelerator pairs as its size allows.
 */
function countSizes(total: number, count: number): number[] {
  let sum = 0;
  return evenSizes(total, Math.min(count, total)).map(size => (sum += size));
}

/** `total` split into `n` sizes that differ by at most one, smaller first. */
function evenSizes(total: number, n: number): number[] {
  return Array.from({ length: n }, (_, i) => Math.floor(total / n) + (i >= n - (total % n) ? 1 : 0));
}

function pairOf(c: Cluster): string {
  return `${c.provider}/${c.accelerator.name}`;
}

function pairRoundRobin(clusters: Cluster[]): Cluster[] {
  const byPair = new Map<string, Cluster[]>();
  for (const c of clusters) {
    const list = byPair.get(pairOf(c)) ?? [];
    list.push(c);
    byPair.set(pairOf(c), list);
  }
  const queues = [...byPair.keys()].sort().map(k => byPair.get(k)!);
  const order: Cluster[] = [];
  for (let i = 0; order.length < clusters.length; i++) {
    for (const q of queues) if (i < q.length) order.push(q[i]);
  }
  return order;
}

function withinBudget(stage: string, groups: WaveGroup[], maxPerWave: number, total: number) {
  const problems: string[] = [];
  for (const g of groups) {
    if (g.clusters.length > maxPerWave) {
      const needed = Math.ceil(total / maxPerWave);
      problems.push(describe(`stage ${show(stage)} wave ${show(g.name)}`, g.clusters.length, `has more clusters than the wave budget allows (${maxPerWave})`,
        `split the stage into at least ${needed} waves (e.g. Waves.byCount(${needed})) or raise the budget`, n => `${n} clusters`));
    }
  }
  return { groups, problems };
}
