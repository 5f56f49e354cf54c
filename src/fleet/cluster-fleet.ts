import * as fs from 'fs';
import { Chart, Duration, Lazy } from 'cdk8s';
import { k8s } from 'cdk8s-plus-28';
import { Construct, IConstruct } from 'constructs';
import { ArgoCdTopology, ArgoCdTopologyKind } from './argocd-topology';
import { Cluster, ClusterOptions, endpointIdentity } from './cluster';
import { assignShards, ShardPlan } from './shard-assignment';
import { clustersFromTerraformOutput } from './terraform-output';
import { VerificationJobOptions, verificationJobProblems } from './verification-jobs';
import { defineClusterConfig } from './webhook-config';
import { WebhookReceiver } from './webhook-receiver';
import { PlatformLabels } from '../contracts/labels';
import { syncWave, SyncWave } from '../contracts/sync-waves';
import { field, prop } from '../util/code-hint';
import { duplicates } from '../util/collections';
import { fail, ProblemList, problemListing, reportValue, show, userError } from '../util/errors';
import { claimChartId } from '../util/name-registry';
import { dns1123LabelProblem, labelValueProblem } from '../util/names';
import { refuseSecretMaterial } from '../util/secret-material';

/**
 * Properties for `ClusterFleet`.
 */
export interface ClusterFleetProps {
  /**
   * The fleet's name, written as a label on every cluster Secret.
   * @default - the construct id
   */
  readonly fleetName?: string;
  /**
   * The clusters; more can be added with `addCluster()` before any app is defined.
   * @default - none
   */
  readonly clusters?: ClusterOptions[];
  /**
   * The namespace of the central Argo CD, where cluster Secrets, AppProjects and
   * ApplicationSets live.
   * @default 'argocd'
   */
  readonly argoCdNamespace?: string;
  /**
   * Which Argo CD deploys to the fleet's clusters, unless a cluster says otherwise.
   * @default ArgoCdTopology.central()
   */
  readonly topology?: ArgoCdTopology;
  /**
   * Spread the clusters of the central Argo CD over this many application controller shards
   * (the cluster Secret `shard` field), balanced by the number of Applications each cluster
   * carries and stable when clusters come and go. Run the application controller with as many
   * replicas.
   * @default - no shard assignment
   */
  readonly applicationControllerShards?: number;
  /**
   * How the pods of verification Jobs run on the hub: a CA bundle they trust and the registry
   * they pull the JSON guard's image through.
   * @default - no extra CA, images from Docker Hub
   */
  readonly verificationJobs?: VerificationJobOptions;
  /**
   * The platform's webhook receivers for its Git hosts and registries, written once as Kargo's
   * `ClusterConfig` (Kargo reads the one named `cluster`, so declare them on one fleet only). Every
   * Warehouse whose subscriptions they cover is refreshed on a push and polls only every
   * `discoveryFallbackInterval`; the fleet report lists where to register each receiver.
   * @default - none: every Warehouse polls every 5 minutes
   */
  readonly webhookReceivers?: WebhookReceiver[];
  /**
   * How often a Warehouse that webhooks refresh still polls, in case a push is lost.
   * @default Duration.hours(1)
   */
  readonly discoveryFallbackInterval?: Duration;
}

/**
 * Properties for `ClusterFleet.fromTerraformOutput()`.
 */
export interface TerraformFleetProps extends ClusterFleetProps {
  /** A file holding what `terraform output -json` printed. */
  readonly file: string;
  /**
   * The Terraform output that lists the clusters (a list of cluster objects or a map keyed by
   * cluster name).
   * @default 'clusters'
   */
  readonly outputName?: string;
  /**
   * Accelerator families the file may name besides the predefined ones (`Accelerator.all()`),
   * e.g. `['nvidia-b200']`; any other name fails with the closest predefined family.
   * @default - none
   */
  readonly customAccelerators?: string[];
}

/**
 * The load of one Argo CD application controller shard.
 */
export interface ShardLoad {
  /** The shard number. */
  readonly shard: number;
  /** The clusters assigned to it, sorted by name. */
  readonly clusters: string[];
  /** How many Applications those clusters carry in all. */
  readonly applications: number;
}

/**
 * How the central Argo CD's clusters are spread over application controller shards.
 */
export interface ShardReport {
  /** Every shard, in order. */
  readonly shards: ShardLoad[];
  /** How much the busiest shard exceeds the mean, in percent of the mean. */
  readonly imbalancePercent: number;
}

/**
 * A fleet of clusters that applications are delivered to.
 */
export interface IClusterFleet extends IConstruct {
  /** The fleet's name. */
  readonly fleetName: string;
  /** The namespace of the central Argo CD. */
  readonly argoCdNamespace: string;
  /** The clusters, sorted by name. */
  readonly clusters: Cluster[];
  /** How the pods of verification Jobs run on the hub. */
  readonly verificationJobs?: VerificationJobOptions;
  /** The platform's webhook receivers. */
  readonly webhookReceivers?: WebhookReceiver[];
  /** How often a Warehouse that webhooks refresh still polls. */
  readonly discoveryFallbackInterval?: Duration;
}

const CLUSTER_FLEET = Symbol.for('cdk8s-gitops-platform.ClusterFleet');

/**
 * The clusters Argo CD delivers to, owned by the platform team. Synthesizes to one chart:
 * one declarative Argo CD cluster Secret per cluster, with the cluster's attributes as labels
 * and an authentication `config` that holds no secret material.
 *
 * @see https://argo-cd.readthedocs.io/en/stable/operator-manual/declarative-setup/#clusters
 *
 * @example
 * const fleet = ClusterFleet.fromTerraformOutput(app, 'fleet', { file: 'infra/clusters.json', applicationControllerShards: 4 });
 */
export class ClusterFleet extends Chart implements IClusterFleet {
  /**
   * Whether `x` is a ClusterFleet. (Chart makes `instanceof` true for any chart, so use this.)
   */
  public static isClusterFleet(x: any): x is ClusterFleet {
    return x !== null && typeof x === 'object' && CLUSTER_FLEET in x;
  }

  /**
   * Defines a fleet from the clusters Terraform provisioned: the JSON that
   * `terraform output -json` prints, with one output (default `clusters`) listing them.
   * Malformed entries fail with messages that name the entry and the field; credentials are
   * refused.
   */
  public static fromTerraformOutput(scope: Construct, id: string, props: TerraformFleetProps): ClusterFleet {
    let text: string;
    try {
      text = fs.readFileSync(props.file, 'utf-8');
    } catch (e) {
      fail(`ClusterFleet '${props.fleetName ?? id}'`, prop('file'), props.file, `cannot be read (${(e as Error).message})`,
        'write it with `terraform output -json > <file>`');
    }
    const clusters = clustersFromTerraformOutput(text, {
      source: props.file,
      outputName: props.outputName,
      customAccelerators: props.customAccelerators,
      centralByDefault: (props.topology ?? ArgoCdTopology.central()).kind === ArgoCdTopologyKind.CENTRAL,
    });
    return new ClusterFleet(scope, id, { ...props, clusters: [...clusters, ...props.clusters ?? []] });
  }

  public readonly fleetName: string;
  public readonly argoCdNamespace: string;
  /** The number of application controller shards, if the fleet assigns them. */
  public readonly applicationControllerShards?: number;
  /** How the pods of verification Jobs run on the hub. */
  public readonly verificationJobs?: VerificationJobOptions;
  /** The platform's webhook receivers. */
  public readonly webhookReceivers?: WebhookReceiver[];
  /** How often a Warehouse that webhooks refresh still polls. */
  public readonly discoveryFallbackInterval?: Duration;
  private readonly topology: ArgoCdTopology;
  private readonly _clusters = new Map<string, Cluster>();
  /** The clusters each app was placed on, by app: shards are balanced by Applications per cluster. */
  private readonly placements = new Map<string, string[]>();
  private placementVersion = 0;
  private cachedShardPlan?: { key: string; plan: ShardPlan };
  /** `clusters`, sorted once per change: apps and their validations read it thousands of times. */
  private sortedClusters?: Cluster[];

  constructor(scope: Construct, id: string, props: ClusterFleetProps = {}) {
    claimChartId(scope, id, `ClusterFleet '${props.fleetName ?? id}'`);
    super(scope, id, { disableResourceNameHashes: true });
    Object.defineProperty(this, CLUSTER_FLEET, { value: true });
    this.fleetName = props.fleetName ?? id;
    const subject = `ClusterFleet '${this.fleetName}'`;
    const nameProblem = labelValueProblem(this.fleetName) ?? dns1123LabelProblem(this.fleetName);
    if (nameProblem) fail(subject, prop('fleetName'), this.fleetName, nameProblem, 'use a DNS-1123 label');
    this.argoCdNamespace = props.argoCdNamespace ?? 'argocd';
    const nsProblem = dns1123LabelProblem(this.argoCdNamespace);
    if (nsProblem) fail(subject, prop('argoCdNamespace'), this.argoCdNamespace, nsProblem, 'use the namespace Argo CD runs in');

    this.topology = props.topology ?? ArgoCdTopology.central();
    // credentials first, alone: no other check gets to quote one (the clusters are walked as they are added)
    refuseSecretMaterial(subject, { ...props, clusters: undefined });
    const problems = new ProblemList(subject);
    reportValue(problems, prop('topology'), this.topology);
    const shards = props.applicationControllerShards;
    if (shards !== undefined) {
      problems.check(prop('applicationControllerShards'), shards, Number.isInteger(shards) && shards >= 1 ? undefined : 'must be a whole number >= 1',
        'set it to the number of application controller replicas');
    }
    verificationJobProblems(props.verificationJobs).forEach(p => problems.add(p));
    this.webhookReceivers = defineClusterConfig(this, problems, props.webhookReceivers, props.discoveryFallbackInterval,
      { [PlatformLabels.FLEET]: this.fleetName });
    problems.throwIfAny();
    this.applicationControllerShards = shards;
    this.verificationJobs = props.verificationJobs;
    this.discoveryFallbackInterval = props.discoveryFallbackInterval;

    const names = (props.clusters ?? []).map(c => c.name);
    const dupNames = duplicates(names);
    if (dupNames.length > 0) {
      fail(subject, prop('clusters'), dupNames, 'must have unique names', 'rename or remove the duplicates');
    }
    // every cluster's problems at once: a fleet with ten clusters lacking auth says so once, not ten times over ten runs
    const failed: Error[] = [];
    for (const options of props.clusters ?? []) {
      try {
        this.addCluster(options);
      } catch (e) {
        if (!(e instanceof Error) || e.constructor !== Error) throw e; // a bug, not a problem of the input
        failed.push(e);
      }
    }
    if (failed.length === 1) throw failed[0];
    if (failed.length > 1) throw userError(problemListing(subject, failed.map(e => e.message.replace(`${subject}: `, '').replace(/\n/g, '\n  '))));
  }

  /**
   * Adds a cluster to the fleet and defines its Argo CD cluster Secret.
   */
  public addCluster(options: ClusterOptions): Cluster {
    const subject = `ClusterFleet '${this.fleetName}'`;
    refuseSecretMaterial(`${subject}: cluster ${show(options?.name)}`, options);
    const cluster = Cluster._define(options, subject, this.topology);
    if (this._clusters.has(cluster.name)) {
      fail(subject, field('cluster', prop('name')), cluster.name, 'is already used in this fleet', 'give every cluster a unique name');
    }
    const shards = this.applicationControllerShards;
    if (cluster.pinnedShard !== undefined && shards !== undefined && cluster.pinnedShard >= shards) {
      fail(subject, field('cluster', show(cluster.name), prop('shard')), cluster.pinnedShard, `must be below the fleet's ${this.applicationControllerShards} application controller shards`);
    }
    const sameShard = cluster.kargoShard === undefined ? undefined : [...this._clusters.values()].find(c => c.kargoShard === cluster.kargoShard);
    if (sameShard) {
      fail(subject, field('cluster', show(cluster.name), prop('argoCd'), prop('kargoShard')), cluster.kargoShard, `is already used by cluster ${show(sameShard.name)}`,
        'a Kargo shard talks to exactly one Argo CD, so every cluster with its own Argo CD needs its own shard');
    }
    const sameServer = [...this._clusters.values()].find(c => endpointIdentity(c.server) === endpointIdentity(cluster.server));
    if (sameServer) {
      fail(subject, field('cluster', show(cluster.name), prop('server')), cluster.server, `is already used by cluster ${show(sameServer.name)}`,
        'Argo CD identifies clusters by server URL, so each cluster needs its own');
    }
    this._clusters.set(cluster.name, cluster);
    this.sortedClusters = undefined;
    if (cluster.argoCd.kind === ArgoCdTopologyKind.CENTRAL) {
      this.defineClusterSecret(cluster);
    }
    return cluster;
  }

  /**
   * Records the clusters an app was planned onto, once per Application (a cluster shared by two
   * stages in different namespaces twice); shards are balanced by the Applications each
   * cluster carries. The app's plan passes them here explicitly when it is made.
   * @internal
   */
  public _placeApp(app: string, clusters: string[]): void {
    this.placements.set(app, [...clusters]);
    this.placementVersion++;
  }

  /**
   * How the central Argo CD's clusters are spread over application controller shards, from the
   * apps defined so far; undefined when the fleet does not assign shards.
   */
  public reportShards(): ShardReport | undefined {
    const plan = this.shardPlan();
    if (!plan) return undefined;
    const shards: ShardLoad[] = plan.loads.map((applications: number, shard: number) => ({
      shard,
      applications,
      clusters: [...plan.shardOf.entries()].filter(([, s]) => s === shard).map(([name]) => name).sort(),
    }));
    return { shards, imbalancePercent: Math.round(plan.imbalancePercent * 10) / 10 };
  }

  private shardPlan(): ShardPlan | undefined {
    if (this.applicationControllerShards === undefined) return undefined;
    // every cluster Secret asks at synth time: compute once per set of clusters and placements
    const key = `${this.placementVersion}/${this._clusters.size}`;
    if (this.cachedShardPlan?.key !== key) {
      const apps = new Map<string, number>();
      for (const clusters of this.placements.values()) {
        for (const c of clusters) apps.set(c, (apps.get(c) ?? 0) + 1);
      }
      const central = this.clusters.filter(c => c.argoCd.kind === ArgoCdTopologyKind.CENTRAL);
      const plan = assignShards(central.map(c => ({ name: c.name, weight: apps.get(c.name) ?? 0, pinnedShard: c.pinnedShard })),
        this.applicationControllerShards);
      this.cachedShardPlan = { key, plan };
    }
    return this.cachedShardPlan.plan;
  }

  public get clusters(): Cluster[] {
    this.sortedClusters ??= [...this._clusters.values()].sort((a, b) => a.name.localeCompare(b.name));
    return [...this.sortedClusters];
  }

  /**
   * The cluster of this name, if the fleet has one.
   */
  public findCluster(name: string): Cluster | undefined {
    return this._clusters.get(name);
  }

  private defineClusterSecret(cluster: Cluster) {
    new k8s.KubeSecret(this, `cluster-${cluster.name}`, {
      metadata: {
        name: `cluster-${cluster.name}`,
        namespace: this.argoCdNamespace,
        labels: {
          'argocd.argoproj.io/secret-type': 'cluster',
          [PlatformLabels.FLEET]: this.fleetName,
          ...cluster.labels,
        },
        // before the ApplicationSets whose clusters generators select it
        annotations: syncWave(SyncWave.REFERENCED),
      },
      type: 'Opaque',
      stringData: Lazy.any({
        produce: () => {
          const shard = this.shardPlan()?.shardOf.get(cluster.name) ?? cluster.pinnedShard;
          return {
            name: cluster.name,
            server: cluster.server,
            config: JSON.stringify(cluster.auth!.toClusterConfig(cluster.name)),
            shard: shard === undefined ? undefined : `${shard}`,
          };
        },
      }),
    });
  }
}
