import { ArgoCdTopology, ArgoCdTopologyKind } from './argocd-topology';
import { API_SERVER_URL, ClusterOptions } from './cluster';
import { Accelerator, CloudProvider, Tier } from './cluster-attributes';
import { ClusterAuth, ClusterTlsOptions } from './cluster-auth';
import { caDataProblem, caDataRequiredProblem } from './cluster-ca';
import { CREDENTIAL_FIX, findCredentials, preview, redactUrl } from './terraform-credentials';
import { EntryReader } from './terraform-entry-reader';
import { aliases, closestOf, isObject, JsonObject } from './terraform-json';
import { didYouMean } from '../util/closest';
import { describe, show } from '../util/errors';
import { urlDefect } from '../util/urls';

// One cluster entry of `terraform output -json`, field by field (the fields are listed in
// terraform-output.ts).

const ENTRY_FIELDS = [
  'name', 'endpoint', 'provider', 'region', 'tier', 'production', 'accelerator', 'accelerator_count',
  'kubernetes_version', 'api_versions', 'labels', 'ca_data', 'auth', 'argocd', 'shard',
];

/** Names Terraform modules commonly use for the same thing, so the message can point at ours. */
const ENTRY_ALIASES = aliases({
  endpoint: ['server', 'api_server', 'api_endpoint', 'cluster_endpoint', 'url', 'host'],
  name: ['cluster_name'],
  provider: ['cloud', 'cloud_provider', 'platform'],
  region: ['location', 'zone'],
  tier: ['environment', 'env', 'stage'],
  accelerator: ['gpu', 'gpu_type', 'gpu_family', 'accelerator_type'],
  accelerator_count: ['gpu_count', 'gpus', 'accelerators'],
  kubernetes_version: ['version', 'k8s_version', 'cluster_version', 'kubernetes'],
  labels: ['tags'],
  ca_data: ['ca', 'ca_cert', 'ca_certificate', 'cluster_ca_certificate', 'certificate_authority', 'certificate_authority_data'],
  argocd: ['argo_cd', 'argo', 'topology'],
  shard: ['controller_shard'],
});

const AUTH_FIELDS: Record<string, string[]> = {
  eks: ['cluster_name', 'role_arn'],
  gke: [],
  aks: ['login_method', 'environment'],
  exec: ['command', 'args', 'env', 'api_version', 'install_hint'],
};

const PROVIDER_ALIASES = aliases({
  'aws': ['amazon', 'eks'],
  'gcp': ['google', 'gke'],
  'azure': ['azurerm', 'aks', 'microsoft'],
  'oci': ['oracle', 'oke'],
  'on-prem': ['onprem', 'on_prem', 'on-premises', 'baremetal'],
});

/** Shorthands that would otherwise silently become a new accelerator family via `Accelerator.of`. */
const ACCELERATOR_ALIASES = aliases({
  'none': ['cpu', 'cpu-only'],
  'nvidia-h100': ['h100'],
  'nvidia-h200': ['h200'],
  'nvidia-gb200': ['gb200'],
  'amd-mi300x': ['mi300x'],
  'google-tpu': ['tpu'],
  'aws-trainium': ['trainium', 'trn1', 'trn2'],
});

const PREDEFINED_TIERS = [Tier.DEV, Tier.STAGING, Tier.PROD];

/** The cluster, when its required fields are there; its name and endpoint whenever they are, for the duplicate checks. @internal */
export function readCluster(r: EntryReader, entry: unknown, key: string | undefined,
  customAccelerators: string[] = [], centralByDefault = true): { name?: string; server?: string; cluster?: ClusterOptions } {
  if (!isObject(entry)) {
    r.add(describe('entry', entry, 'must be an object (one cluster)', 'give each cluster as { endpoint = ..., provider = ..., region = ..., tier = ... }', preview));
    return {};
  }
  // Credentials are refused first and wherever they are, and never shown: the other checks skip them.
  findCredentials(r, entry, '');
  r.unknownFields(entry, '', ENTRY_FIELDS, ENTRY_ALIASES);

  const name = readName(r, entry, key);
  const server = readEndpoint(r, entry);
  const provider = readProvider(r, entry);
  const region = r.string(entry, 'region', { required: true, fix: 'use the provider\'s region name, e.g. "us-east-1"' });
  const tier = readTier(r, entry);
  const accelerator = readAccelerator(r, entry, customAccelerators);
  const acceleratorCount = r.wholeNumber(entry, 'accelerator_count');
  const kubernetesVersion = r.string(entry, 'kubernetes_version', {
    fix: typeof entry.kubernetes_version === 'number' ? 'quote it: as a number, 1.30 is 1.3' : 'use the minor version, e.g. "1.31"',
  });
  const apiVersions = r.stringList(entry, 'api_versions', 'api_versions');
  const labels = r.stringMap(entry, 'labels');
  const caData = readCaData(r, entry);
  const argoCd = readArgoCd(r, entry);
  const central = argoCd === undefined ? centralByDefault : argoCd.kind === ArgoCdTopologyKind.CENTRAL;
  const auth = readAuth(r, entry, provider, caData, central);
  const shard = r.wholeNumber(entry, 'shard');
  if (shard !== undefined && argoCd?.kind === ArgoCdTopologyKind.PER_CLUSTER) {
    r.report('shard', shard, 'applies only to clusters served by the central argo cd, but argocd.mode is "per-cluster"', 'remove shard or argocd');
  }

  if (name === undefined || server === undefined || provider === undefined || region === undefined || tier === undefined) return { name, server };
  const cluster: ClusterOptions = {
    name,
    server,
    provider,
    region,
    tier,
    ...accelerator === undefined ? {} : { accelerator },
    ...acceleratorCount === undefined ? {} : { acceleratorCount },
    ...kubernetesVersion === undefined ? {} : { kubernetesVersion },
    ...apiVersions === undefined ? {} : { apiVersions },
    ...labels === undefined ? {} : { labels },
    ...auth === undefined ? {} : { auth },
    ...argoCd === undefined ? {} : { argoCd },
    ...shard === undefined ? {} : { shard },
  };
  return { name, server, cluster };
}

function readName(r: EntryReader, entry: JsonObject, key: string | undefined): string | undefined {
  if (key === undefined) {
    return r.string(entry, 'name', { required: true, fix: 'every cluster of a list needs a name (or output a map keyed by cluster name)' });
  }
  const name = r.string(entry, 'name');
  if (name !== undefined && name !== key) {
    r.report('name', name, `differs from its map key ${show(key)}`, 'the key is the cluster name: make them equal or drop name');
  }
  return key;
}

function readEndpoint(r: EntryReader, entry: JsonObject): string | undefined {
  const fix = 'use the https:// URL of the Kubernetes API server (the cluster resource\'s endpoint attribute)';
  const endpoint = r.string(entry, 'endpoint', { required: true, fix });
  if (endpoint === undefined) return undefined;
  const defect = urlDefect(endpoint, API_SERVER_URL);
  if (defect === 'not-a-url') {
    r.report('endpoint', endpoint, 'must be a URL', fix);
    return undefined;
  }
  if (defect === 'credentials') {
    r.report('endpoint', redactUrl(new URL(endpoint)), 'must not carry credentials', CREDENTIAL_FIX);
  } else if (defect === 'query-or-fragment') {
    r.report('endpoint', redactUrl(new URL(endpoint)), 'must not have a query or fragment', fix);
  } else if (defect === 'scheme') {
    r.report('endpoint', endpoint, 'must use https', fix);
  }
  return endpoint;
}

function readProvider(r: EntryReader, entry: JsonObject): CloudProvider | undefined {
  const allowed = Object.values(CloudProvider) as string[];
  const provider = r.string(entry, 'provider', { required: true, fix: `use one of ${allowed.join(', ')}` });
  if (provider === undefined) return undefined;
  if (allowed.includes(provider)) return provider as CloudProvider;
  const closest = PROVIDER_ALIASES[provider.toLowerCase()] ?? closestOf(provider.toLowerCase(), allowed);
  r.report('provider', provider, 'is not a supported provider', `use one of ${allowed.join(', ')}${closest ? ` (did you mean ${show(closest)}?)` : ''}`);
  return undefined;
}

function readTier(r: EntryReader, entry: JsonObject): Tier | undefined {
  const name = r.string(entry, 'tier', { required: true, fix: 'use "dev", "staging", "prod" or a custom tier name' });
  const production = r.boolean(entry, 'production');
  if (name === undefined) return undefined;
  const predefined = PREDEFINED_TIERS.find(t => t.name === name);
  if (predefined) {
    // A module may set production for every cluster; only a contradiction is a mistake.
    if (production !== undefined && production !== predefined.production) {
      r.report('production', production, `contradicts tier ${show(name)}, which is ${predefined.production ? '' : 'not '}a production tier`,
        'remove it: production only describes custom tiers');
    }
    return predefined;
  }
  const sameWord = PREDEFINED_TIERS.find(t => t.name === name.toLowerCase());
  if (sameWord) {
    r.report('tier', name, `differs from the predefined tier ${show(sameWord.name)} only in case`, `write ${show(sameWord.name)}`);
    return undefined;
  }
  // Required so that a tier named e.g. "production" cannot silently be a non-production tier.
  if (production === undefined) {
    r.report('production', undefined, `is required for the custom tier ${show(name)}`,
      'set production = true if its clusters serve production traffic, else false');
  }
  const tier = Tier.of(name, production ?? false);
  r.reportValueProblems('tier', tier._problems);
  return tier;
}

function readAccelerator(r: EntryReader, entry: JsonObject, customAccelerators: string[]): Accelerator | undefined {
  const name = r.string(entry, 'accelerator', { fix: 'use a family name such as "nvidia-h100", or "none"' });
  if (name === undefined) return undefined;
  const known = Accelerator.all().find(a => a.name === name);
  if (known) return known;
  const normalized = name.trim().toLowerCase().replace(/[\s_.]+/g, '-');
  const meant = ACCELERATOR_ALIASES[normalized] ?? Accelerator.all().find(a => a.name === normalized)?.name;
  if (meant !== undefined) {
    r.report('accelerator', name, `is not a family name, and would become a new family next to ${show(meant)}`, `write ${show(meant)}`);
    return undefined;
  }
  if (!customAccelerators.includes(name)) {
    r.report('accelerator', name, 'is not a known accelerator family',
      `${didYouMean(name, Accelerator.all().map(a => a.name))} (to add a family, list it in ClusterFleet.fromTerraformOutput({ customAccelerators }))`);
    return undefined;
  }
  const accelerator = Accelerator.custom(name);
  r.reportValueProblems('accelerator', accelerator._problems);
  return accelerator;
}

function readCaData(r: EntryReader, entry: JsonObject): string | undefined {
  const caData = r.string(entry, 'ca_data', { fix: 'use the base64-encoded PEM of the cluster CA' });
  if (caData === undefined) return undefined;
  const defect = caDataProblem(caData);
  if (defect) {
    r.report('ca_data', caData, defect.problem, defect.rawPem ? 'wrap it in base64encode() in the output' : 'use the cluster resource\'s CA attribute, which is already base64');
    return undefined;
  }
  return caData;
}

/** Where each cloud's Terraform provider keeps the cluster CA, already base64-encoded. */
function caAttribute(provider: CloudProvider | undefined): string {
  switch (provider) {
    case CloudProvider.AWS: return 'aws_eks_cluster.<name>.certificate_authority[0].data';
    case CloudProvider.GCP: return 'google_container_cluster.<name>.master_auth[0].cluster_ca_certificate';
    case CloudProvider.AZURE: return 'azurerm_kubernetes_cluster.<name>.kube_config[0].cluster_ca_certificate';
    case CloudProvider.OCI: return 'base64encode() of the certificate-authority-data in data.oci_containerengine_cluster_kube_config.<name>.content';
    default: return 'the certificate-authority-data of its kubeconfig';
  }
}

function readAuth(r: EntryReader, entry: JsonObject, provider: CloudProvider | undefined, caData: string | undefined,
  central: boolean): ClusterAuth | undefined {
  const tls: ClusterTlsOptions = caData === undefined ? {} : { caData };
  // The central Argo CD verifies the API server against ca_data (argo-cd v3.5.1
  // docs/operator-manual/declarative-setup.md, "Clusters"); a cluster with its own Argo CD needs none.
  const caRequired = caDataRequiredProblem(provider);
  if (central && caRequired !== undefined && (entry.ca_data === undefined || entry.ca_data === null)) {
    r.report('ca_data', undefined, caRequired, `output the cluster's CA certificate, base64-encoded (${caAttribute(provider)})`);
  }
  const auth = r.object(entry, 'auth', { fix: 'use e.g. { type = "eks", cluster_name = "..." } or { type = "exec", command = "..." }' });
  const types = Object.keys(AUTH_FIELDS);
  if (auth === undefined) {
    switch (provider) {
      case CloudProvider.AWS:
        if (central) {
          r.report('auth', undefined, 'is required for provider "aws" with the central argo cd: argo cd mints its token for the eks cluster name',
            'use { type = "eks", cluster_name = aws_eks_cluster.<name>.name }');
        }
        return undefined;
      case CloudProvider.GCP: return caData === undefined ? undefined : ClusterAuth.gke(tls);
      case CloudProvider.AZURE: return caData === undefined ? undefined : ClusterAuth.aks({}, tls);
      default:
        if (provider !== undefined && central) {
          r.report('auth', undefined, `is required for provider ${show(provider)} with the central argo cd, as it has no workload identity default`,
            'use { type = "exec", command = "<credential plugin in the argo cd image>", args = [...] }');
        }
        return undefined;
    }
  }
  const allFields = [...new Set(Object.values(AUTH_FIELDS).flat())];
  r.unknownFields(auth, 'auth', ['type', ...allFields], {});
  const type = r.string(auth, 'type', { path: 'auth.type', required: true, fix: `use one of ${types.map(t => show(t)).join(', ')}` });
  if (type === undefined) return undefined;
  if (!types.includes(type)) {
    const closest = closestOf(type.toLowerCase(), types);
    r.report('auth.type', type, 'is not a supported authentication',
      `use one of ${types.map(t => show(t)).join(', ')}${closest ? ` (did you mean ${show(closest)}?)` : ''}`);
    return undefined;
  }
  for (const field of allFields) {
    if (AUTH_FIELDS[type].includes(field) || auth[field] === undefined || auth[field] === null) continue;
    const owners = types.filter(t => AUTH_FIELDS[t].includes(field)).map(t => show(t)).join(' or ');
    r.report(`auth.${field}`, auth[field], `applies only to auth type ${owners}, but auth.type is ${show(type)}`, 'remove it or change auth.type');
  }
  const str = (field: string) => r.string(auth, field, { path: `auth.${field}` });
  let result: ClusterAuth;
  switch (type) {
    case 'eks':
    {
      const clusterName = r.string(auth, 'cluster_name', {
        path: 'auth.cluster_name',
        required: true,
        fix: 'give the name aws knows the cluster by (aws_eks_cluster.<name>.name): argo cd mints its token for it',
      });
      if (clusterName === undefined) return undefined;
      result = ClusterAuth.eks({ clusterName, roleArn: str('role_arn') }, tls);
      break;
    }
    case 'gke':
      result = ClusterAuth.gke(tls);
      break;
    case 'aks':
      result = ClusterAuth.aks({ loginMethod: str('login_method'), environment: str('environment') }, tls);
      break;
    default: {
      const command = r.string(auth, 'command', { path: 'auth.command', required: true, fix: 'name the credential plugin in the argo cd image, e.g. "oci"' });
      result = ClusterAuth.exec({
        command: command ?? '',
        args: r.stringList(auth, 'args', 'auth.args'),
        env: r.stringMap(auth, 'env', 'auth.env'),
        apiVersion: str('api_version'),
        installHint: str('install_hint'),
      }, tls);
      if (command === undefined) return undefined;
    }
  }
  r.reportValueProblems('auth', result._problems);
  return result;
}

function readArgoCd(r: EntryReader, entry: JsonObject): ArgoCdTopology | undefined {
  const argocd = r.object(entry, 'argocd', { fix: 'use { mode = "central" } or { mode = "per-cluster", kargo_shard = ..., namespace = ... }' });
  if (argocd === undefined) return undefined;
  r.unknownFields(argocd, 'argocd', ['mode', 'kargo_shard', 'namespace'], {});
  const modes = ['central', 'per-cluster'];
  const mode = r.string(argocd, 'mode', { path: 'argocd.mode', required: true, fix: 'use "central" or "per-cluster"' });
  const kargoShard = r.string(argocd, 'kargo_shard', { path: 'argocd.kargo_shard' });
  const namespace = r.string(argocd, 'namespace', { path: 'argocd.namespace' });
  if (mode === undefined) return undefined;
  if (!modes.includes(mode)) {
    const closest = closestOf(mode.toLowerCase().replace(/_/g, '-'), modes);
    r.report('argocd.mode', mode, 'is not an argo cd topology', `use "central" or "per-cluster"${closest ? ` (did you mean ${show(closest)}?)` : ''}`);
    return undefined;
  }
  if (mode === 'central') {
    for (const [field, value] of [['kargo_shard', kargoShard], ['namespace', namespace]] as const) {
      if (value !== undefined) {
        r.report(`argocd.${field}`, value, 'applies only to mode "per-cluster", but argocd.mode is "central"', 'remove it or change argocd.mode');
      }
    }
    return ArgoCdTopology.central();
  }
  const topology = ArgoCdTopology.perCluster({ kargoShard, namespace });
  r.reportValueProblems('argocd', topology._problems);
  return topology;
}
