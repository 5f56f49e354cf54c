import { createHash } from 'crypto';
import { describe, show } from '../util/errors';

/**
 * A cluster to place on one of the Argo CD application controller's shards.
 *
 * @internal
 */
export interface ShardCandidate {
  /** The cluster name; unique within one call. */
  readonly name: string;
  /** The cost the cluster puts on its shard: the number of Argo CD Applications deployed to it (whole number >= 0). */
  readonly weight: number;
  /** A manual pin: the cluster stays on this shard and its weight counts toward it. */
  readonly pinnedShard?: number;
}

/**
 * Where each cluster goes, and the resulting per-shard load.
 *
 * @internal
 */
export interface ShardPlan {
  /** cluster name -> shard index (0..shardCount-1) */
  readonly shardOf: Map<string, number>;
  /** per shard: total weight (Applications) */
  readonly loads: number[];
  /** per shard: number of clusters */
  readonly clusterCounts: number[];
  /** (max load / mean load - 1) * 100, 0 when total weight is 0 */
  readonly imbalancePercent: number;
}

/**
 * Assigns clusters to `shardCount` application-controller shards with bounded-load rendezvous hashing in which
 * an over-full shard sheds its heaviest clusters.
 *
 * 1. The cap is the largest whole number below 1.1 x the mean shard load, so a plan within it is less than 10%
 *    imbalanced (for tiny fleets where that is below the mean rounded up, the mean rounded up, so all fits).
 * 2. A cluster's home is its pin, or else the first shard of its rendezvous order (shards ranked by the SHA-256
 *    of its name and the shard index). Homes depend on the name alone, so adding or removing another cluster
 *    never changes them.
 * 3. A shard whose home clusters exceed the cap sheds unpinned clusters, heaviest first (ties in hash order),
 *    until it fits. Heaviest first moves the fewest clusters, and the shed set changes only when the cap or the
 *    shard's own clusters shift by a heavy cluster's weight.
 * 4. Shed clusters, heaviest first, go to the first shard in their own rendezvous order with room. Failing that,
 *    one lighter cluster is pushed off a shard in that order to make room; failing that too (only when single
 *    clusters are large next to the cap), the least-loaded shard, and the cap is exceeded.
 *
 * Weight-0 clusters add no Applications, so they never count toward the imbalance and are never shed: each stays
 * on its rendezvous shard. That spreads them evenly in expectation, and adding or removing one moves nothing.
 *
 * The plan depends only on the set of (name, weight, pin) and on `shardCount`: not on input order, and there is
 * no randomness and no previous state. The price of having no state is that the cap follows the fleet's total,
 * so most additions and removals nudge it, and a shard sitting right at the cap then sheds or takes back a
 * cluster, which can cascade. Stability is therefore statistical, apart from two guarantees: adding or removing a
 * weight-0 cluster moves nothing, and weight-0 and pinned clusters never move. Over every single removal and
 * additions of weight 0-10 on 60 generated 100-cluster fleets (weights mostly 1-8, some up to 15), more than 3
 * other clusters moved in 0.25% of events with 4 shards, 1% with 6, 6% with 8 and 11% with 10 (worst 5, 5, 7
 * and 7; mean 0.4, 0.7, 1.1 and 1.4). The tail grows as the 10% headroom shrinks toward the weight of a single
 * cluster, which it about equals with 10 shards; with 20 or more clusters per shard it is about 0.1%.
 *
 * @internal
 */
export function assignShards(candidates: ShardCandidate[], shardCount: number): ShardPlan {
  checkCandidates(candidates, shardCount);

  // Hash order, not input order, drives every tie-break below.
  const clusters = candidates.map((c) => toCluster(c, shardCount)).sort(byHash);
  const total = clusters.reduce((sum, c) => sum + c.weight, 0);
  const cap = Math.max(Math.floor((11 * total - 1) / (10 * shardCount)), Math.ceil(total / shardCount));

  const shardOf = new Map<string, number>();
  const loads = new Array<number>(shardCount).fill(0);
  const members = Array.from({ length: shardCount }, () => new Set<Cluster>());
  const place = (c: Cluster, shard: number) => {
    const from = shardOf.get(c.name);
    if (from !== undefined) {
      loads[from] -= c.weight;
      members[from].delete(c);
    }
    shardOf.set(c.name, shard);
    loads[shard] += c.weight;
    members[shard].add(c);
  };
  const fits = (c: Cluster, shard: number) => loads[shard] + c.weight <= cap;

  const homes = Array.from({ length: shardCount }, () => [] as Cluster[]);
  for (const c of clusters) {
    homes[c.pinnedShard ?? c.order[0]].push(c);
  }
  const shed: Cluster[] = [];
  homes.forEach((home, shard) => {
    let load = home.reduce((sum, c) => sum + c.weight, 0);
    const leaving = new Set<Cluster>();
    for (const c of home.filter((h) => h.pinnedShard === undefined && h.weight > 0).sort(heaviestFirst)) {
      if (load <= cap) {
        break;
      }
      leaving.add(c);
      load -= c.weight;
    }
    for (const c of home) {
      if (leaving.has(c)) {
        shed.push(c);
      } else {
        place(c, shard);
      }
    }
  });

  // Shed clusters are the heavy ones, so free room can be scattered in pieces too small for them; moving one
  // lighter cluster out of the way usually joins two pieces, at the cost of a single extra move.
  const makeRoom = (c: Cluster): number | undefined => {
    for (const shard of c.order) {
      const movable = [...members[shard]]
        .filter((m) => m.pinnedShard === undefined && m.weight > 0 && loads[shard] - m.weight + c.weight <= cap)
        .sort((a, b) => a.weight - b.weight || byHash(a, b));
      for (const m of movable) {
        const target = m.order.find((t) => t !== shard && fits(m, t));
        if (target !== undefined) {
          place(m, target);
          return shard;
        }
      }
    }
    return undefined;
  };
  for (const c of shed.sort(heaviestFirst)) {
    place(c, c.order.find((t) => fits(c, t)) ?? makeRoom(c) ?? loads.indexOf(Math.min(...loads)));
  }

  const clusterCounts = members.map((m) => m.size);
  const imbalancePercent = total === 0 ? 0 : (Math.max(...loads) / (total / shardCount) - 1) * 100;
  return { shardOf, loads, clusterCounts, imbalancePercent };
}

/** Throws on input no caller should pass: the fleet validates clusters and shard counts first. */
function checkCandidates(candidates: ShardCandidate[], shardCount: number) {
  if (!Number.isInteger(shardCount) || shardCount < 1) {
    throw new Error(describe('shard count', shardCount, 'must be a whole number >= 1'));
  }
  const seen = new Set<string>();
  for (const c of candidates) {
    if (seen.has(c.name)) {
      throw new Error(describe('cluster name', c.name, 'is given twice', 'give every cluster its own name'));
    }
    seen.add(c.name);
    if (!Number.isInteger(c.weight) || c.weight < 0) {
      throw new Error(describe(`weight of cluster ${show(c.name)}`, c.weight, 'must be a whole number >= 0'));
    }
    if (c.pinnedShard !== undefined && (!Number.isInteger(c.pinnedShard) || c.pinnedShard < 0 || c.pinnedShard >= shardCount)) {
      throw new Error(describe(`pinned shard of cluster ${show(c.name)}`, c.pinnedShard, `must be a whole number from 0 to ${shardCount - 1}`));
    }
  }
}

interface Cluster extends ShardCandidate {
  /** Hex SHA-256 of the name: a platform-independent total order. */
  readonly hash: string;
  /** Shards in rendezvous order: the cluster's preference, first = home. */
  readonly order: number[];
}

function toCluster(c: ShardCandidate, shardCount: number): Cluster {
  // SHA-256 rather than a hand-rolled hash so the order is the same on every platform. Each block of (name, block)
  // yields eight 32-bit scores; a shard's score depends only on the name and the shard index, which is what makes
  // a cluster's home independent of the rest of the fleet.
  const scores: number[] = [];
  for (let block = 0; scores.length < shardCount; block++) {
    const digest = createHash('sha256').update(`${c.name}\n${block}`).digest();
    for (let i = 0; i < digest.length && scores.length < shardCount; i += 4) {
      scores.push(digest.readUInt32BE(i));
    }
  }
  const order = scores.map((_, s) => s).sort((x, y) => scores[y] - scores[x] || x - y);
  const hash = createHash('sha256').update(c.name).digest('hex');
  return { name: c.name, weight: c.weight, pinnedShard: c.pinnedShard, hash, order };
}

function byHash(a: Cluster, b: Cluster): number {
  return a.hash < b.hash ? -1 : a.hash > b.hash ? 1 : a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

function heaviestFirst(a: Cluster, b: Cluster): number {
  return b.weight - a.weight || byHash(a, b);
}
