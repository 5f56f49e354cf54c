import { field, prop } from '../util/code-hint';
import { describe } from '../util/errors';
import { dns1123LabelProblem } from '../util/names';

/**
 * Which Argo CD instance manages a cluster's Applications.
 */
export enum ArgoCdTopologyKind {
  /** The central Argo CD: a cluster Secret on the hub, Applications generated there by ApplicationSets. */
  CENTRAL = 'central',
  /** An Argo CD inside the workload cluster: Applications on that cluster target the in-cluster API. */
  PER_CLUSTER = 'per-cluster',
}

/**
 * Options for `ArgoCdTopology.perCluster()`.
 */
export interface PerClusterArgoCdOptions {
  /**
   * The Kargo controller shard connected to this cluster's Argo CD; the cluster's Kargo Stages
   * are routed to it (`spec.shard`).
   * @default - the cluster's name
   */
  readonly kargoShard?: string;
  /**
   * The namespace Argo CD runs in on the cluster.
   * @default 'argocd'
   */
  readonly namespace?: string;
}

/**
 * Where the Argo CD that deploys to a cluster runs. A fleet picks a default and clusters can
 * override it, so a fleet can move from per-cluster Argo CD to the central one cluster by
 * cluster.
 *
 * @example
 * fleet.addCluster({ name: 'edge-1', server: 'https://edge-1.acme.internal:6443', provider: CloudProvider.ON_PREM, region: 'dc1',
 *   tier: Tier.PROD, argoCd: ArgoCdTopology.perCluster({ kargoShard: 'edge-1' }) });
 */
export class ArgoCdTopology {
  /** The central Argo CD (the default). */
  public static central(): ArgoCdTopology {
    return new ArgoCdTopology(ArgoCdTopologyKind.CENTRAL, undefined, undefined, []);
  }

  /** An Argo CD inside the workload cluster, reached by its own Kargo controller shard. */
  public static perCluster(options: PerClusterArgoCdOptions = {}): ArgoCdTopology {
    const problems: string[] = [];
    for (const [name, value] of [['kargoShard', options.kargoShard], ['namespace', options.namespace]] as const) {
      const problem = value === undefined ? undefined : dns1123LabelProblem(value);
      if (problem) problems.push(describe(field('per-cluster argo cd', prop(name)), value, problem));
    }
    return new ArgoCdTopology(ArgoCdTopologyKind.PER_CLUSTER, options.kargoShard, options.namespace ?? 'argocd', problems);
  }

  private constructor(
    /** Which Argo CD manages the cluster. */
    public readonly kind: ArgoCdTopologyKind,
    /** The Kargo shard, for per-cluster Argo CD when set explicitly. */
    public readonly kargoShard: string | undefined,
    /** The Argo CD namespace on the workload cluster, for per-cluster Argo CD. */
    public readonly namespace: string | undefined,
    /** @internal */
    public readonly _problems: string[]) {}
}
