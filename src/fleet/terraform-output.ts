import { ArgoCdTopology, ArgoCdTopologyKind } from './argocd-topology';
import { ClusterOptions } from './cluster';
import { Accelerator, CloudProvider, Tier } from './cluster-attributes';
import { ClusterAuth, ClusterTlsOptions } from './cluster-auth';

/*
 * Reads the fleet from `terraform output -json`. Terraform owns the clusters, so their
 * attributes come from its outputs instead of being copied by hand. This module only checks the
 * shape and types of what Terraform wrote, with Terraform's snake_case names in the messages;
 * `Cluster` checks the values themselves when the fleet is built.
 *
 * One cluster, as written in a Terraform `output` block:
 *
 *   name               = "aws-use1-h100-prod-03"   # list form only; in the map form the key is the name
 *   endpoint           = "https://...eks.amazonaws.com"
 *   provider           = "aws"                     # aws | gcp | azure | oci | on-prem
 *   region             = "us-east-1"
 *   tier               = "prod"                    # dev | staging | prod | a custom tier
 *   production         = true                      # custom tiers only, and required for them
 *   accelerator        = "nvidia-h100"             # optional, default "none"
 *   accelerator_count  = 64                        # optional, default 0
 *   kubernetes_version = "1.31"                    # optional
 *   labels             = { ring = "canary" }       # optional
 *   ca_data            = "LS0tLS1CRUdJTi..."       # optional, base64 PEM (public)
 *   auth               = { type = "eks", cluster_name = "...", role_arn = "arn:aws:iam::...:role/..." }
 *                      # or { type = "gke" }, { type = "aks", login_method, environment },
 *                      # { type = "exec", command, args, env, api_version, install_hint };
 *                      # optional on aws, gcp and azure (their workload identity); required on
 *                      # oci and on-prem unless the cluster has its own Argo CD
 *   argocd             = { mode = "per-cluster", kargo_shard = "...", namespace = "argocd" }  # optional
 *   shard              = 2                         # optional, central Argo CD only
 *
 * null is the same as leaving a field out: Terraform writes null for unset optional attributes
 * of typed objects.
 */

type JsonObject = { [key: string]: unknown };

const ENTRY_FIELDS = [
  'name', 'endpoint', 'provider', 'region', 'tier', 'production', 'accelerator', 'accelerator_count',
  'kubernetes_version', 'labels', 'ca_data', 'auth', 'argocd', 'shard',
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

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/** Key names (snake_cased) of credentials: bearer tokens, client keys, passwords, kubeconfigs. */
const CREDENTIAL_KEY = /(^|_)(tokens?|password|passwd|kube_?config|kube_admin_config|client_key|client_certificate|private_key|credentials?)(_|$)|(^|_)(secret|key$)/;

const REDACTED = '<redacted>';

const CREDENTIAL_FIX = 'credentials are never accepted from terraform output (the file is committed and becomes cluster Secrets): '
  + 'remove it and let Argo CD authenticate with workload identity (auth type "eks", "gke" or "aks") or an exec plugin (auth type "exec")';

/**
 * Parses `terraform output -json` and returns the clusters of one of its outputs, sorted by name.
 * Throws one error listing every problem found.
 *
 * @param text the JSON printed by `terraform output -json`
 * @param options.source where the text came from, for error messages
 * @param options.outputName the output holding the clusters (default `clusters`): a list of
 *   cluster objects, or a map from cluster name to cluster object
 * @internal
 */
export function clustersFromTerraformOutput(text: string, options: { source: string; outputName?: string }): ClusterOptions[] {
  const source = options.source;
  const outputName = options.outputName ?? 'clusters';
  const value = outputValue(text, source, outputName);

  const problems: string[] = [];
  const entries = Array.isArray(value)
    ? value.map((entry, index) => ({ entry, index, key: undefined as string | undefined }))
    : Object.entries(value).map(([key, entry], index) => ({ entry, index, key }));
  const byName = new Map<string, string>();
  const byEndpoint = new Map<string, string>();
  const clusters: ClusterOptions[] = [];
  for (const { entry, index, key } of entries) {
    const listName = key === undefined && isObject(entry) && typeof entry.name === 'string' ? entry.name : undefined;
    const where = key === undefined
      ? `${outputName}[${index}]${listName !== undefined ? ` (${JSON.stringify(listName)})` : ''}`
      : `${outputName}[${JSON.stringify(key)}]`;
    const reader = new EntryReader(problems, `${source}: ${where}`);
    const { name, server, cluster } = readCluster(reader, entry, key);

    // Reported at the later entry, naming the earlier one, so either can be fixed.
    if (name !== undefined) {
      const firstWithName = byName.get(name);
      if (firstWithName !== undefined) {
        reader.report('name', name, `is also the name of ${firstWithName}`, 'cluster names must be unique in the fleet: rename one of them');
      } else {
        byName.set(name, where);
      }
    }
    if (server !== undefined) {
      const endpoint = endpointIdentity(server);
      const firstWithEndpoint = byEndpoint.get(endpoint);
      if (firstWithEndpoint !== undefined) {
        reader.report('endpoint', server, `is also the endpoint of ${firstWithEndpoint}`,
          'each cluster needs its own API server URL: one of the two entries points at the wrong cluster');
      } else {
        byEndpoint.set(endpoint, where);
      }
    }
    if (cluster && !reader.failed) clusters.push(cluster);
  }

  if (problems.length === 1) throw new Error(problems[0]);
  if (problems.length > 1) {
    throw new Error(`cannot read clusters from terraform output ${source}: ${problems.length} problems\n${problems.map(p => `  - ${p}`).join('\n')}`);
  }
  return clusters.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** The `value` of the named output: a list or a map; anything else ends the parse at once. */
function outputValue(text: string, source: string, outputName: string): unknown[] | JsonObject {
  const regenerate = `write it with \`terraform output -json > ${source}\``;
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    const message = (e as Error).message;
    const position = /at position (\d+)/.exec(message);
    const at = position ? ` at line ${lineColumn(text, Number(position[1]))}` : '';
    throw new Error(`${source}: is not valid JSON${at}: ${message}; ${regenerate}`);
  }
  if (!isObject(doc)) {
    throw new Error(`${source}: must be the output of \`terraform output -json\` (an object keyed by output name), got ${preview(doc)}; `
      + `if it came from \`terraform output -json ${outputName}\`, ${regenerate} (all outputs, without a name)`);
  }
  if ('terraform_version' in doc && 'outputs' in doc) {
    throw new Error(`${source}: is a Terraform state file, not \`terraform output -json\`; state files hold secrets and must never be committed: `
      + `delete it and ${regenerate}`);
  }
  const wrapper = doc[outputName];
  if (wrapper === undefined) {
    const outputs = Object.keys(doc);
    if (outputs.length > 0 && !outputs.some(o => isObject(doc[o]) && 'value' in (doc[o] as JsonObject))) {
      throw new Error(`${source}: output ${JSON.stringify(outputName)} not found, and no entry looks like a terraform output `
        + `({ "sensitive", "type", "value" }), got keys ${listOf(outputs)}; if it came from \`terraform output -json ${outputName}\`, `
        + `${regenerate} (all outputs, without a name)`);
    }
    const closest = closestOf(outputName, outputs);
    throw new Error(`${source}: output ${JSON.stringify(outputName)} not found, got outputs ${outputs.length > 0 ? listOf(outputs) : 'none'}; `
      + (closest ? `did you mean ${JSON.stringify(closest)}? pass it as the output name, or ` : '')
      + `add \`output "${outputName}"\` to the Terraform configuration, apply it and regenerate the file`);
  }
  if (!isObject(wrapper) || !('value' in wrapper)) {
    throw new Error(`${source}: output ${JSON.stringify(outputName)} has no "value", got ${preview(wrapper)}; ${regenerate}`);
  }
  const value = wrapper.value;
  if (Array.isArray(value)) return value;
  if (isObject(value)) {
    if (typeof value.endpoint === 'string' || typeof value.provider === 'string') {
      throw new Error(`${source}: output ${JSON.stringify(outputName)} must be a list or a map of clusters, got one cluster object ${preview(value)}; `
        + 'wrap it in a list ([{ ... }]) or a map keyed by cluster name ({ name = { ... } })');
    }
    return value;
  }
  throw new Error(`${source}: output ${JSON.stringify(outputName)} must be a list or a map of cluster objects, got ${preview(value)} `
    + `(terraform type ${preview(wrapper.type)}); output a list ([{ name = ..., endpoint = ... }]) or a map keyed by cluster name`);
}

/** The cluster, when its required fields are there; its name and endpoint whenever they are, for the duplicate checks. */
function readCluster(r: EntryReader, entry: unknown, key: string | undefined): { name?: string; server?: string; cluster?: ClusterOptions } {
  if (!isObject(entry)) {
    r.add(`must be an object (one cluster), got ${preview(entry)}; give each cluster as { endpoint = ..., provider = ..., region = ..., tier = ... }`);
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
  const accelerator = readAccelerator(r, entry);
  const acceleratorCount = r.wholeNumber(entry, 'accelerator_count');
  const kubernetesVersion = r.string(entry, 'kubernetes_version', {
    fix: typeof entry.kubernetes_version === 'number' ? 'quote it: as a number, 1.30 is 1.3' : 'use the minor version, e.g. "1.31"',
  });
  const labels = r.stringMap(entry, 'labels');
  const caData = readCaData(r, entry);
  const argoCd = readArgoCd(r, entry);
  const auth = readAuth(r, entry, provider, caData, argoCd?.kind);
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
    r.report('name', name, `differs from its map key ${JSON.stringify(key)}`, 'the key is the cluster name: make them equal or drop name');
  }
  return key;
}

function readEndpoint(r: EntryReader, entry: JsonObject): string | undefined {
  const fix = 'use the https:// URL of the Kubernetes API server (the cluster resource\'s endpoint attribute)';
  const endpoint = r.string(entry, 'endpoint', { required: true, fix });
  if (endpoint === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    r.report('endpoint', endpoint, 'must be a URL', fix);
    return undefined;
  }
  if (url.username || url.password) {
    r.report('endpoint', redactUrl(url), 'must not carry credentials', CREDENTIAL_FIX);
  } else if (url.search || url.hash) {
    r.report('endpoint', redactUrl(url), 'must not have a query or fragment', fix);
  } else if (url.protocol !== 'https:') {
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
  r.report('provider', provider, 'is not a supported provider', `use one of ${allowed.join(', ')}${closest ? ` (did you mean ${JSON.stringify(closest)}?)` : ''}`);
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
      r.report('production', production, `contradicts tier ${JSON.stringify(name)}, which is ${predefined.production ? '' : 'not '}a production tier`,
        'remove it: production only describes custom tiers');
    }
    return predefined;
  }
  const sameWord = PREDEFINED_TIERS.find(t => t.name === name.toLowerCase());
  if (sameWord) {
    r.report('tier', name, `differs from the predefined tier ${JSON.stringify(sameWord.name)} only in case`, `write ${JSON.stringify(sameWord.name)}`);
    return undefined;
  }
  // Required so that a tier named e.g. "production" cannot silently be a non-production tier.
  if (production === undefined) {
    r.report('production', undefined, `is required for the custom tier ${JSON.stringify(name)}`,
      'set production = true if its clusters serve production traffic, else false');
  }
  const tier = Tier.of(name, production ?? false);
  r.reportValueProblems('tier', tier._problems);
  return tier;
}

function readAccelerator(r: EntryReader, entry: JsonObject): Accelerator | undefined {
  const name = r.string(entry, 'accelerator', { fix: 'use a family name such as "nvidia-h100", or "none"' });
  if (name === undefined) return undefined;
  const known = Accelerator.all().find(a => a.name === name);
  if (known) return known;
  const normalized = name.trim().toLowerCase().replace(/[\s_.]+/g, '-');
  const meant = ACCELERATOR_ALIASES[normalized] ?? Accelerator.all().find(a => a.name === normalized)?.name;
  if (meant !== undefined) {
    r.report('accelerator', name, `is not a family name, and would become a new family next to ${JSON.stringify(meant)}`, `write ${JSON.stringify(meant)}`);
    return undefined;
  }
  const accelerator = Accelerator.of(name);
  r.reportValueProblems('accelerator', accelerator._problems);
  return accelerator;
}

function readCaData(r: EntryReader, entry: JsonObject): string | undefined {
  const caData = r.string(entry, 'ca_data', { fix: 'use the base64-encoded PEM of the cluster CA' });
  if (caData === undefined) return undefined;
  if (caData.includes('-----BEGIN')) {
    r.report('ca_data', caData, 'must be base64-encoded, but is a raw PEM', 'wrap it in base64encode() in the output');
    return undefined;
  }
  if (!BASE64.test(caData)) {
    r.report('ca_data', caData, 'must be a base64-encoded PEM certificate', 'use the cluster resource\'s CA attribute, which is already base64');
    return undefined;
  }
  return caData;
}

function readAuth(r: EntryReader, entry: JsonObject, provider: CloudProvider | undefined, caData: string | undefined,
  argoCdMode: string | undefined): ClusterAuth | undefined {
  const tls: ClusterTlsOptions = caData === undefined ? {} : { caData };
  const auth = r.object(entry, 'auth', { fix: 'use e.g. { type = "eks" } or { type = "exec", command = "..." }' });
  const types = Object.keys(AUTH_FIELDS);
  if (auth === undefined) {
    // Without auth the fleet picks the provider's default, which would drop ca_data: pick it here.
    switch (provider) {
      case CloudProvider.AWS: return caData === undefined ? undefined : ClusterAuth.eks({}, tls);
      case CloudProvider.GCP: return caData === undefined ? undefined : ClusterAuth.gke(tls);
      case CloudProvider.AZURE: return caData === undefined ? undefined : ClusterAuth.aks({}, tls);
      default:
        // A cluster with its own Argo CD needs no auth, and without argocd the fleet's default
        // topology decides: only an explicitly central cluster is known to need it here.
        if (provider !== undefined && argoCdMode === 'central') {
          r.report('auth', undefined, `is required for provider ${JSON.stringify(provider)} with the central argo cd, as it has no workload identity default`,
            'use { type = "exec", command = "<credential plugin in the argo cd image>", args = [...] }');
        }
        return undefined;
    }
  }
  const allFields = [...new Set(Object.values(AUTH_FIELDS).flat())];
  r.unknownFields(auth, 'auth', ['type', ...allFields], {});
  const type = r.string(auth, 'type', { path: 'auth.type', required: true, fix: `use one of ${types.map(t => JSON.stringify(t)).join(', ')}` });
  if (type === undefined) return undefined;
  if (!types.includes(type)) {
    const closest = closestOf(type.toLowerCase(), types);
    r.report('auth.type', type, 'is not a supported authentication',
      `use one of ${types.map(t => JSON.stringify(t)).join(', ')}${closest ? ` (did you mean ${JSON.stringify(closest)}?)` : ''}`);
    return undefined;
  }
  for (const field of allFields) {
    if (AUTH_FIELDS[type].includes(field) || auth[field] === undefined || auth[field] === null) continue;
    const owners = types.filter(t => AUTH_FIELDS[t].includes(field)).map(t => JSON.stringify(t)).join(' or ');
    r.report(`auth.${field}`, auth[field], `applies only to auth type ${owners}, but auth.type is ${JSON.stringify(type)}`, 'remove it or change auth.type');
  }
  const str = (field: string) => r.string(auth, field, { path: `auth.${field}` });
  let result: ClusterAuth;
  switch (type) {
    case 'eks':
      result = ClusterAuth.eks({ clusterName: str('cluster_name'), roleArn: str('role_arn') }, tls);
      break;
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
    r.report('argocd.mode', mode, 'is not an argo cd topology', `use "central" or "per-cluster"${closest ? ` (did you mean ${JSON.stringify(closest)}?)` : ''}`);
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

/**
 * Reads the fields of one entry and records what is wrong with them; `failed` tells whether any
 * problem concerned this entry.
 */
class EntryReader {
  private count = 0;

  constructor(private readonly problems: string[], private readonly where: string) {}

  public get failed(): boolean {
    return this.count > 0;
  }

  public add(message: string): void {
    this.count++;
    this.problems.push(`${this.where}: ${message}`);
  }

  /** `field problem, got value; fix`, the format of every validation message of the library. */
  public report(field: string, value: unknown, problem: string, fix?: string): void {
    this.add(`${field} ${problem}, got ${preview(value)}${fix ? `; ${fix}` : ''}`);
  }

  /** Problems recorded by a value factory (`Tier.of`, `ClusterAuth.exec`, ...), in Terraform's names. */
  public reportValueProblems(field: string, problems: string[]): void {
    for (const p of problems) this.add(`${field}: ${terraformNames(p)}`);
  }

  public unknownFields(obj: JsonObject, path: string, known: string[], synonyms: Record<string, string>): void {
    for (const [key, value] of Object.entries(obj)) {
      if (known.includes(key) || isCredentialKey(key)) continue;
      const snake = snakeCase(key);
      const closest = known.includes(snake) ? snake : synonyms[snake] ?? closestOf(snake, known);
      this.report(join(path, key), value, 'is not a known field',
        closest ? `did you mean ${JSON.stringify(closest)}?` : `remove it; the known fields are ${known.join(', ')}`);
    }
  }

  public string(obj: JsonObject, key: string, options: { path?: string; required?: boolean; fix?: string } = {}): string | undefined {
    const value = this.present(obj, key, options.path ?? key, options.required, options.fix);
    if (value === undefined) return undefined;
    if (typeof value !== 'string') return this.wrongType(options.path ?? key, value, 'a string', options.fix);
    return value;
  }

  public boolean(obj: JsonObject, key: string): boolean | undefined {
    const value = this.present(obj, key, key);
    if (value === undefined) return undefined;
    if (typeof value !== 'boolean') return this.wrongType(key, value, 'true or false', 'write it without quotes');
    return value;
  }

  public wholeNumber(obj: JsonObject, key: string): number | undefined {
    const value = this.present(obj, key, key);
    if (value === undefined) return undefined;
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
      return this.wrongType(key, value, 'a whole number >= 0', typeof value === 'string' ? 'write it without quotes' : undefined);
    }
    return value;
  }

  public object(obj: JsonObject, key: string, options: { fix?: string } = {}): JsonObject | undefined {
    const value = this.present(obj, key, key);
    if (value === undefined) return undefined;
    if (!isObject(value)) return this.wrongType(key, value, 'an object', options.fix);
    return value;
  }

  /** A map of strings, without the members that hold credentials (already reported). */
  public stringMap(obj: JsonObject, key: string, path: string = key): Record<string, string> | undefined {
    const value = this.present(obj, key, path);
    if (value === undefined) return undefined;
    if (!isObject(value)) return this.wrongType(path, value, 'a map of strings', 'use e.g. { ring = "canary" }');
    const result: Record<string, string> = {};
    for (const [k, v] of Object.entries(value)) {
      if (isCredentialKey(k) || isCredentialValue(v)) continue;
      if (typeof v !== 'string') {
        this.wrongType(`${path}[${JSON.stringify(k)}]`, v, 'a string', 'Kubernetes labels and environment variables are strings: quote it');
      } else {
        result[k] = v;
      }
    }
    return result;
  }

  public stringList(obj: JsonObject, key: string, path: string): string[] | undefined {
    const value = this.present(obj, key, path);
    if (value === undefined) return undefined;
    if (!Array.isArray(value)) return this.wrongType(path, value, 'a list of strings', 'use e.g. ["ce", "cluster", "generate-token"]');
    const result: string[] = [];
    value.forEach((v, i) => {
      if (isCredentialValue(v)) return;
      if (typeof v !== 'string') {
        this.wrongType(`${path}[${i}]`, v, 'a string', 'quote it');
      } else {
        result.push(v);
      }
    });
    return result;
  }

  /** The value, or undefined when absent; null is absent, and so is a credential (already reported). */
  private present(obj: JsonObject, key: string, path: string, required?: boolean, fix?: string): unknown {
    const value = obj[key];
    if (value === undefined || value === null || isCredentialValue(value)) {
      if (required && !isCredentialValue(value)) this.report(path, value, 'is required', fix);
      return undefined;
    }
    return value;
  }

  private wrongType(path: string, value: unknown, expected: string, fix?: string): undefined {
    this.report(path, value, `must be ${expected}`, fix);
    return undefined;
  }
}

/** Reports every credential in the entry: by key name anywhere, or by value (tokens, private keys). */
function findCredentials(r: EntryReader, value: unknown, path: string): void {
  if (Array.isArray(value)) {
    value.forEach((v, i) => {
      if (isCredentialValue(v)) r.report(`${path}[${i}]`, REDACTED, 'looks like a credential', CREDENTIAL_FIX);
      else findCredentials(r, v, `${path}[${i}]`);
    });
    return;
  }
  if (!isObject(value)) return;
  for (const [key, v] of Object.entries(value)) {
    const child = join(path, key);
    if (isCredentialKey(key)) {
      // Even empty: an output whose schema has room for a credential will carry one some day.
      r.add(`${child} is a credential, got ${v === null || v === '' ? JSON.stringify(v) : REDACTED}; ${CREDENTIAL_FIX}`);
    } else if (isCredentialValue(v)) {
      r.add(`${child} looks like a credential, got ${REDACTED}; ${CREDENTIAL_FIX}`);
    } else {
      findCredentials(r, v, child);
    }
  }
}

function isCredentialKey(key: string): boolean {
  return CREDENTIAL_KEY.test(snakeCase(key).replace(/[^a-z0-9]+/g, '_'));
}

/** Bearer tokens (JWTs, EKS tokens) and private keys, plain or base64-encoded. */
function isCredentialValue(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  if (/^(Bearer\s+)?eyJ[\w-]{5,}\.[\w-]{5,}\.[\w-]*$/.test(value) || value.startsWith('k8s-aws-v1.')) return true;
  if (/PRIVATE KEY-----/.test(value)) return true;
  return value.length > 40 && BASE64.test(value) && Buffer.from(value, 'base64').toString('latin1').includes('PRIVATE KEY-----');
}

/** A copy for messages: credentials replaced, long strings shortened. */
function redact(value: unknown): unknown {
  if (isCredentialValue(value)) return REDACTED;
  if (typeof value === 'string' && value.length > 80) return `${value.slice(0, 60)}... (${value.length} characters)`;
  if (Array.isArray(value)) return value.map(redact);
  if (isObject(value)) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, isCredentialKey(k) ? REDACTED : redact(v)]));
  }
  return value;
}

function preview(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === REDACTED) return REDACTED;
  const text = JSON.stringify(redact(value));
  return text.length > 200 ? `${text.slice(0, 180)}... (${Array.isArray(value) ? 'list' : 'object'})` : text;
}

function redactUrl(url: URL): string {
  const userinfo = url.username || url.password ? `${REDACTED}@` : '';
  return `${url.protocol}//${userinfo}${url.host}${url.pathname}${url.search ? `?${REDACTED}` : ''}${url.hash ? `#${REDACTED}` : ''}`;
}

/** Two spellings of one API server (trailing slash, case, default port) are the same endpoint. */
function endpointIdentity(server: string): string {
  try {
    const url = new URL(server);
    return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
  } catch {
    return server;
  }
}

function terraformNames(message: string): string {
  const names: Record<string, string> = {
    roleArn: 'role_arn',
    clusterName: 'cluster_name',
    caData: 'ca_data',
    kargoShard: 'kargo_shard',
    loginMethod: 'login_method',
    apiVersion: 'api_version',
    installHint: 'install_hint',
  };
  return message.replace(/\b(roleArn|clusterName|caData|kargoShard|loginMethod|apiVersion|installHint)\b/g, m => names[m]);
}

function join(path: string, key: string): string {
  if (path === 'labels' || path === 'auth.env') return `${path}[${JSON.stringify(key)}]`;
  if (!/^[A-Za-z_][A-Za-z0-9_-]*$/.test(key)) return `${path}[${JSON.stringify(key)}]`;
  return path ? `${path}.${key}` : key;
}

/** Inverts { name: [alias, ...] } into { alias: name }. */
function aliases(byName: Record<string, string[]>): Record<string, string> {
  return Object.fromEntries(Object.entries(byName).flatMap(([name, others]) => others.map(o => [o, name])));
}

function snakeCase(key: string): string {
  return key.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function listOf(values: string[]): string {
  return values.map(v => JSON.stringify(v)).join(', ');
}

function lineColumn(text: string, position: number): string {
  const before = text.slice(0, position).split('\n');
  return `${before.length}, column ${before[before.length - 1].length + 1}`;
}

/** The candidate within a third of the word's length in edits, if one is. */
function closestOf(word: string, candidates: string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Math.max(1, Math.floor(word.length / 3)) + 1;
  for (const c of candidates) {
    const d = editDistance(word, c);
    if (d < bestDistance) {
      best = c;
      bestDistance = d;
    }
  }
  return best;
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length];
}
