import { ArgoCdTopology, ArgoCdTopologyKind } from './argocd-topology';
import { Accelerator, CloudProvider, providerProblem, Tier } from './cluster-attributes';
import { ClusterAuth } from './cluster-auth';
import { caDataRequiredProblem } from './cluster-ca';
import { ClusterVariableSource } from '../contracts/cluster-variables';
import { PlatformLabels } from '../contracts/labels';
import { call, constant, ETC, field, fieldText, hint, list, placeholder, prop, shorthand, str, struct } from '../util/code-hint';
import { describe, ProblemList, reportValue, show } from '../util/errors';
import { apiVersionProblem, dns1123LabelProblem, labelKeyProblem, labelValueProblem } from '../util/names';
import { urlDefect, UrlRule } from '../util/urls';

/**
 * A workload cluster of the fleet.
 */
export interface ClusterOptions {
  /**
   * The cluster's name: unique in the fleet, a DNS-1123 label (it names Argo CD Applications,
   * directories of the release record and label values).
   */
  readonly name: string;
  /** The Kubernetes API server URL (`https://...`), unique in the fleet. */
  readonly server: string;
  /** Where the cluster runs. */
  readonly provider: CloudProvider;
  /** The provider's region name (e.g. `us-east-1`). */
  readonly region: string;
  /** The environment tier. */
  readonly tier: Tier;
  /**
   * The accelerator family the cluster offers.
   * @default Accelerator.NONE
   */
  readonly accelerator?: Accelerator;
  /**
   * How many accelerators the cluster offers in all.
   * @default 0
   */
  readonly acceleratorCount?: number;
  /**
   * The Kubernetes version (`1.31` or `1.31.4`); requirements such as a minimum version are
   * checked against it.
   * @default - unknown: the cluster never satisfies a Kubernetes version requirement
   */
  readonly kubernetesVersion?: string;
  /**
   * API versions beyond Kubernetes' built-in ones that this cluster serves, e.g. the CRDs the
   * platform installs on it (`monitoring.coreos.com/v1`, or `group/version/Kind`). Helm renders
   * for the cluster with these and the app's own `apiVersions` in `.Capabilities.APIVersions`.
   * @default - none
   */
  readonly apiVersions?: string[];
  /**
   * Extra labels, for selectors and capabilities. Keys under `gitops-platform.io/` are reserved.
   * @default - none
   */
  readonly labels?: Record<string, string>;
  /**
   * How Argo CD authenticates to the cluster, and the cluster's CA. Required for clusters the
   * central Argo CD reaches on AWS, GCP, Azure and OCI, with the CA (`caData`): managed control
   * planes present certificates signed by each cluster's own CA. EKS also needs the cluster's
   * name as AWS knows it (`ClusterAuth.eks({ clusterName })`).
   * @default - none: required as above, unused for a cluster with its own Argo CD
   */
  readonly auth?: ClusterAuth;
  /**
   * Which Argo CD deploys to the cluster.
   * @default - the fleet's topology
   */
  readonly argoCd?: ArgoCdTopology;
  /**
   * Pins the cluster to an Argo CD application controller shard, overriding the fleet's
   * automatic shard assignment (central Argo CD only).
   * @default - assigned by the fleet when it shards, else none
   */
  readonly shard?: number;
}

/**
 * A cluster of a `ClusterFleet`, with its options validated and its labels computed.
 *
 * @example
 * const cluster: Cluster = fleet.addCluster({ name: 'aws-use1-prod-1', server: 'https://ABC.gr7.us-east-1.eks.amazonaws.com',
 *   provider: CloudProvider.AWS, region: 'us-east-1', tier: Tier.PROD });
 */
export class Cluster {
  /**
   * Validates a cluster definition; clusters are defined with `ClusterFleet.addCluster()`.
   * @internal
   */
  public static _define(options: ClusterOptions, subject: string, defaultArgoCd: ArgoCdTopology): Cluster {
    return new Cluster(options, subject, defaultArgoCd);
  }

  /** The cluster's name. */
  public readonly name: string;
  /** The API server URL. */
  public readonly server: string;
  /** Where the cluster runs. */
  public readonly provider: CloudProvider;
  /** The provider's region. */
  public readonly region: string;
  /** The environment tier. */
  public readonly tier: Tier;
  /** The accelerator family. */
  public readonly accelerator: Accelerator;
  /** How many accelerators the cluster offers. */
  public readonly acceleratorCount: number;
  /** The Kubernetes minor version (`1.31`), if known. */
  public readonly kubernetesVersion?: string;
  /** API versions beyond the built-in ones that the cluster serves, sorted. */
  public readonly apiVersions: string[];
  /** How the central Argo CD authenticates to the cluster (undefined for a cluster with its own Argo CD). */
  public readonly auth?: ClusterAuth;
  /** Which Argo CD deploys to the cluster. */
  public readonly argoCd: ArgoCdTopology;
  /** The Argo CD controller shard the cluster is pinned to, if any. */
  public readonly pinnedShard?: number;
  private readonly extraLabels: Record<string, string>;
  private cachedLabels?: Readonly<Record<string, string>>;

  private constructor(options: ClusterOptions, subject: string, defaultArgoCd: ArgoCdTopology) {
    const problems = new ProblemList(`${subject}: cluster ${show(options.name)}`);
    problems.check(prop('name'), options.name, dns1123LabelProblem(options.name ?? ''), 'use lowercase letters, digits and \'-\' (at most 63)');
    problems.check(prop('server'), options.server, serverProblem(options.server), 'use the https:// URL of the Kubernetes API server');
    const badProvider = providerProblem(options.provider);
    problems.check(prop('provider'), options.provider, badProvider?.problem, badProvider?.fix);
    problems.check(prop('region'), options.region, options.region ? labelValueProblem(options.region) : 'must not be empty', 'use the provider\'s region name, e.g. "us-east-1"');
    problems.check(prop('tier'), options.tier, options.tier instanceof Tier ? undefined : 'must be a Tier', hint`use ${constant('Tier', 'DEV')}, ${constant('Tier', 'STAGING')}, ${constant('Tier', 'PROD')} or ${call('Tier', 'of')}`);
    const count = options.acceleratorCount ?? 0;
    problems.check(prop('acceleratorCount'), count, Number.isInteger(count) && count >= 0 ? undefined : 'must be a whole number >= 0', 'use e.g. 8, or 0 for none');
    const accelerator = options.accelerator ?? Accelerator.NONE;
    if (!accelerator.isAccelerated && count > 0) {
      problems.add(describe(prop('acceleratorCount'), count, hint`counts accelerators but ${prop('accelerator')} is "none"`, hint`set ${prop('accelerator')} to the family of these accelerators`));
    }
    const version = options.kubernetesVersion === undefined ? undefined : minorVersion(options.kubernetesVersion);
    if (options.kubernetesVersion !== undefined && version === undefined) {
      problems.check(prop('kubernetesVersion'), options.kubernetesVersion, 'must look like "1.31" or "1.31.4"', 'give the control plane version');
    }
    for (const v of options.apiVersions ?? []) {
      problems.check(prop('apiVersions'), v, apiVersionProblem(v), 'use "<group>/<version>" or "<group>/<version>/<Kind>", e.g. "monitoring.coreos.com/v1"');
    }
    for (const [key, value] of Object.entries(options.labels ?? {})) {
      problems.check(`${fieldText(prop('labels'))}[${show(key)}]`, key, labelKeyProblem(key), 'use a Kubernetes label key such as "example.com/ring"');
      problems.check(`${fieldText(prop('labels'))}[${show(key)}]`, value, labelValueProblem(value), 'use a Kubernetes label value such as "canary"');
      if (key.startsWith(`${PlatformLabels.PREFIX}/`)) {
        problems.add(describe(`${fieldText(prop('labels'))}[${show(key)}]`, key, `uses the reserved prefix ${PlatformLabels.PREFIX}/`, 'set the matching cluster option instead or pick another prefix'));
      }
    }
    reportValue(problems, prop('tier'), options.tier);
    reportValue(problems, prop('accelerator'), options.accelerator);
    const auth = options.auth;
    reportValue(problems, prop('auth'), auth);
    const argoCd = options.argoCd ?? defaultArgoCd;
    reportValue(problems, prop('argoCd'), argoCd);
    if (argoCd.kind === ArgoCdTopologyKind.CENTRAL) checkCentralAuth(problems, options.provider, auth, options.server);
    if (options.shard !== undefined) {
      problems.check(prop('shard'), options.shard, Number.isInteger(options.shard) && options.shard >= 0 ? undefined : 'must be a whole number >= 0',
        'use a shard number from 0');
      if (argoCd.kind !== ArgoCdTopologyKind.CENTRAL) {
        problems.add(describe(prop('shard'), options.shard, 'is set but the cluster has its own Argo CD', hint`remove ${prop('shard')}: controller shards only apply to the central Argo CD`));
      }
    }
    problems.throwIfAny();

    this.name = options.name;
    this.server = options.server.replace(/\/+$/, '');
    this.provider = options.provider;
    this.region = options.region;
    this.tier = options.tier;
    this.accelerator = accelerator;
    this.acceleratorCount = count;
    this.kubernetesVersion = version;
    this.apiVersions = [...new Set(options.apiVersions ?? [])].sort();
    this.auth = auth;
    this.argoCd = argoCd;
    this.pinnedShard = options.shard;
    this.extraLabels = { ...options.labels ?? {} };
  }

  /**
   * The Kargo controller shard that promotes to this cluster, for clusters with their own Argo CD.
   */
  public get kargoShard(): string | undefined {
    return this.argoCd.kind === ArgoCdTopologyKind.PER_CLUSTER ? this.argoCd.kargoShard ?? this.name : undefined;
  }

  /**
   * Every label of the cluster: its attributes under `gitops-platform.io/` plus its extra labels.
   * Selectors and capabilities are evaluated against these.
   */
  public get labels(): Record<string, string> {
    return { ...this._labels };
  }

  /**
   * The labels without a copy, frozen: every app's selectors read them for every cluster, so
   * they are built once (the cluster is immutable) and the library reads them here.
   * @internal
   */
  public get _labels(): Readonly<Record<string, string>> {
    this.cachedLabels ??= Object.freeze(this.buildLabels());
    return this.cachedLabels;
  }

  private buildLabels(): Record<string, string> {
    const labels: Record<string, string> = {
      [PlatformLabels.CLUSTER]: this.name,
      [PlatformLabels.PROVIDER]: this.provider,
      [PlatformLabels.REGION]: this.region,
      [PlatformLabels.TIER]: this.tier.name,
      [PlatformLabels.ACCELERATOR]: this.accelerator.name,
      [PlatformLabels.ACCELERATOR_COUNT]: `${this.acceleratorCount}`,
    };
    if (this.kubernetesVersion) labels[PlatformLabels.KUBERNETES_VERSION] = this.kubernetesVersion;
    labels[PlatformLabels.TOPOLOGY] = this.argoCd.kind;
    return { ...labels, ...this.extraLabels };
  }
}

/** What a Kubernetes API server URL must be: https, without credentials, query or fragment. @internal */
export const API_SERVER_URL: UrlRule = { schemes: ['https:'], noQueryOrFragment: true };

function serverProblem(server: string | undefined): string | undefined {
  if (!server) return 'must not be empty';
  switch (urlDefect(server, API_SERVER_URL)) {
    case 'not-a-url': return 'must be a URL';
    case 'credentials': return 'must not carry credentials';
    case 'query-or-fragment': return 'must not have a query or fragment';
    case 'scheme': return 'must use https';
    default: return undefined;
  }
}

/** `1.31`, `1.31.4` or `v1.31.4` → `1.31`. */
function minorVersion(version: string): string | undefined {
  const m = /^v?(\d+)\.(\d+)(\.\d+)?([-+].*)?$/.exec(version);
  return m ? `${Number(m[1])}.${Number(m[2])}` : undefined;
}

/** How the central Argo CD reaches each provider's clusters, as the fix of a message. */
const CA = { caData: placeholder('base64 PEM of the cluster CA') };
const AUTH_HINTS: Record<string, () => string> = {
  [CloudProvider.AWS]: () => hint`${call('ClusterAuth', 'eks', struct('EksAuthOptions', { clusterName: placeholder('EKS cluster name') }), struct('ClusterTlsOptions', CA))}`,
  [CloudProvider.GCP]: () => hint`${call('ClusterAuth', 'gke', struct('ClusterTlsOptions', CA))}`,
  [CloudProvider.AZURE]: () => hint`${call('ClusterAuth', 'aks', struct('AksAuthOptions'), struct('ClusterTlsOptions', CA))}`,
  [CloudProvider.OCI]: () => hint`${call('ClusterAuth', 'exec', struct('ExecAuthOptions', { command: str('oci'), args: list(ETC) }), struct('ClusterTlsOptions', CA))}`,
};

/**
 * The central Argo CD needs a way in, and for managed control planes their CA: without
 * `tlsClientConfig.caData` client-go verifies against the system pool and every request fails
 * with x509 "certificate signed by unknown authority" (argo-cd v3.5.1
 * `docs/operator-manual/declarative-setup.md`, "Clusters": every EKS, GKE and AKS example sets it).
 */
function checkCentralAuth(problems: ProblemList, provider: CloudProvider, auth: ClusterAuth | undefined, server: string | undefined): void {
  const auths = AUTH_HINTS[provider]?.() ?? hint`${call('ClusterAuth', 'exec')} with the credential plugin your Argo CD image ships`;
  if (!auth) {
    problems.add(describe(prop('auth'), undefined, `is required for provider ${show(provider)} with the central Argo CD`, `use ${auths}`));
  } else if (caDataRequiredProblem(provider) !== undefined && auth._caData === undefined) {
    problems.add(describe(field(prop('auth'), prop('caData')), undefined, caDataRequiredProblem(provider)!, `use ${auths}`));
  } else if (auth._caData === undefined && ipAddressHost(server)) {
    problems.add(describe(field(prop('auth'), prop('caData')), undefined, `is required for the API server ${show(server)}: no publicly trusted certificate names an IP address, so its CA is the cluster's own`, hint`pass ${shorthand('ClusterTlsOptions', 'caData')} with the auth`));
  }
}

/** Whether a server URL's host is an IP address literal. */
function ipAddressHost(server: string | undefined): boolean {
  try {
    const host = new URL(server ?? '').hostname;
    return /^\d+\.\d+\.\d+\.\d+$/.test(host) || host.startsWith('[');
  } catch {
    return false;
  }
}

/** The values of the cluster variables (`{region}`, ...) of a cluster. @internal */
export function clusterVariableSource(c: Cluster): ClusterVariableSource {
  return {
    name: c.name,
    region: c.region,
    provider: c.provider,
    accelerator: c.accelerator.name,
    tier: c.tier.name,
    kubernetesVersion: c.kubernetesVersion,
  };
}

/** Two spellings of one API server (trailing slash, case, default port) are the same endpoint. @internal */
export function endpointIdentity(server: string): string {
  try {
    const url = new URL(server);
    return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
  } catch {
    return server;
  }
}
