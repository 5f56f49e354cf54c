import { Chart, Lazy } from 'cdk8s';
import { k8s } from 'cdk8s-plus-28';
import { Construct, IConstruct } from 'constructs';
import { Cluster, ClusterOptions } from './cluster';
import { PlatformLabels } from './labels';
import { duplicates } from '../util/collections';
import { fail } from '../util/errors';
import { dns1123LabelProblem, labelValueProblem } from '../util/names';

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
}

/**
 * The clusters Argo CD delivers to, owned by the platform team. Synthesizes to one chart:
 * one declarative Argo CD cluster Secret per cluster, with the cluster's attributes as labels
 * and an authentication `config` that holds no secret material.
 *
 * @see https://argo-cd.readthedocs.io/en/stable/operator-manual/declarative-setup/#clusters
 */
export class ClusterFleet extends Chart implements IClusterFleet {
  public readonly fleetName: string;
  public readonly argoCdNamespace: string;
  private readonly _clusters = new Map<string, Cluster>();

  constructor(scope: Construct, id: string, props: ClusterFleetProps = {}) {
    super(scope, id, { disableResourceNameHashes: true });
    this.fleetName = props.fleetName ?? id;
    const subject = `ClusterFleet '${this.fleetName}'`;
    const nameProblem = labelValueProblem(this.fleetName) ?? dns1123LabelProblem(this.fleetName);
    if (nameProblem) fail(subject, 'fleetName', this.fleetName, nameProblem, 'use a DNS-1123 label');
    this.argoCdNamespace = props.argoCdNamespace ?? 'argocd';
    const nsProblem = dns1123LabelProblem(this.argoCdNamespace);
    if (nsProblem) fail(subject, 'argoCdNamespace', this.argoCdNamespace, nsProblem, 'use the namespace Argo CD runs in');

    const names = (props.clusters ?? []).map(c => c.name);
    const dupNames = duplicates(names);
    if (dupNames.length > 0) {
      fail(subject, 'clusters', dupNames, 'must have unique names', 'rename or remove the duplicates');
    }
    for (const options of props.clusters ?? []) {
      this.addCluster(options);
    }
  }

  /**
   * Adds a cluster to the fleet and defines its Argo CD cluster Secret.
   */
  public addCluster(options: ClusterOptions): Cluster {
    const subject = `ClusterFleet '${this.fleetName}'`;
    const cluster = new Cluster(options, subject);
    if (this._clusters.has(cluster.name)) {
      fail(subject, 'cluster name', cluster.name, 'is already used in this fleet', 'give every cluster a unique name');
    }
    const sameServer = [...this._clusters.values()].find(c => c.server === cluster.server);
    if (sameServer) {
      fail(subject, `cluster "${cluster.name}" server`, cluster.server, `is already used by cluster "${sameServer.name}"`,
        'Argo CD identifies clusters by server URL, so each cluster needs its own');
    }
    this._clusters.set(cluster.name, cluster);
    this.defineClusterSecret(cluster);
    return cluster;
  }

  public get clusters(): Cluster[] {
    return [...this._clusters.values()].sort((a, b) => a.name.localeCompare(b.name));
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
      },
      type: 'Opaque',
      stringData: Lazy.any({
        produce: () => ({
          name: cluster.name,
          server: cluster.server,
          config: JSON.stringify(cluster.auth.toClusterConfig(cluster.name)),
        }),
      }),
    });
  }
}
