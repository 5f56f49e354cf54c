import { ArgoCdTopologyKind } from './argocd-topology';
import { ClusterOptions, endpointIdentity } from './cluster';
import { preview } from './terraform-credentials';
import { readCluster } from './terraform-entries';
import { EntryReader } from './terraform-entry-reader';
import { closestOf, isObject, JsonObject, lineColumn, listOf } from './terraform-json';
import { describe, problemListing, show, userError, within } from '../util/errors';

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

/**
 * Parses `terraform output -json` and returns the clusters of one of its outputs, sorted by name.
 * Throws one error listing every problem found.
 *
 * @param text the JSON printed by `terraform output -json`
 * @param options.source where the text came from, for error messages
 * @param options.outputName the output holding the clusters (default `clusters`): a list of
 *   cluster objects, or a map from cluster name to cluster object
 * @param options.centralByDefault whether a cluster without `argocd` is served by the central
 *   Argo CD (the fleet's topology; default true), which needs its auth and CA
 * @internal
 */
export function clustersFromTerraformOutput(text: string,
  options: { source: string; outputName?: string; customAccelerators?: string[]; centralByDefault?: boolean }): ClusterOptions[] {
  const source = options.source;
  const outputName = options.outputName ?? 'clusters';
  const value = outputValue(text, source, outputName);

  const problems: string[] = [];
  const entries = Array.isArray(value)
    ? value.map((entry, index) => ({ entry, index, key: undefined as string | undefined }))
    : Object.entries(value).map(([key, entry], index) => ({ entry, index, key }));
  const byName = new Map<string, string>();
  const byEndpoint = new Map<string, string>();
  const byShard = new Map<string, string>();
  const clusters: ClusterOptions[] = [];
  for (const { entry, index, key } of entries) {
    const listName = key === undefined && isObject(entry) && typeof entry.name === 'string' ? entry.name : undefined;
    const where = key === undefined
      ? `${outputName}[${index}]${listName !== undefined ? ` (${show(listName)})` : ''}`
      : `${outputName}[${show(key)}]`;
    const reader = new EntryReader(problems, `${source}: ${where}`);
    const { name, server, cluster } = readCluster(reader, entry, key, options.customAccelerators, options.centralByDefault ?? true);

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
    // a Kargo shard talks to one Argo CD: reported here in the file's terms (argocd.kargo_shard),
    // not later by the fleet in the TypeScript ones
    const shard = cluster?.argoCd?.kind === ArgoCdTopologyKind.PER_CLUSTER ? cluster.argoCd.kargoShard ?? name : undefined;
    if (shard !== undefined) {
      const firstWithShard = byShard.get(shard);
      if (firstWithShard !== undefined) {
        reader.report('argocd.kargo_shard', shard, `is also the Kargo shard of ${firstWithShard}`,
          'a Kargo shard talks to exactly one Argo CD, so every cluster with its own Argo CD needs its own shard');
      } else {
        byShard.set(shard, where);
      }
    }
    if (cluster && !reader.failed) clusters.push(cluster);
  }

  if (problems.length === 1) throw userError(problems[0]);
  if (problems.length > 1) {
    throw userError(problemListing(`cannot read clusters from terraform output ${source}`, problems));
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
    // the message states the line and column itself: the one newer V8 versions append to their
    // message (Node 24: `... at position 37 (line 4 column 3)`) goes, so every Node prints the same
    const message = (e as Error).message.replace(/ \(line \d+ column \d+\)$/, '');
    const position = /at position (\d+)/.exec(message);
    const at = position ? ` at line ${lineColumn(text, Number(position[1]))}` : '';
    throw userError(within(source, describe('content', message, `is not valid JSON${at}`, regenerate)));
  }
  if (!isObject(doc)) {
    throw userError(within(source, describe('content', doc, 'must be the output of `terraform output -json` (an object keyed by output name)',
      `if it came from \`terraform output -json ${outputName}\`, ${regenerate} (all outputs, without a name)`, preview)));
  }
  if ('terraform_version' in doc && 'outputs' in doc) {
    throw userError(within(source, describe('content', 'a Terraform state file', 'must be the output of `terraform output -json`',
      `state files hold secrets and must never be committed: delete it and ${regenerate}`, String)));
  }
  const wrapper = doc[outputName];
  if (wrapper === undefined) {
    const outputs = Object.keys(doc);
    if (outputs.length > 0 && !outputs.some(o => isObject(doc[o]) && 'value' in (doc[o] as JsonObject))) {
      throw userError(within(source, describe(`output ${show(outputName)}`, outputs,
        'not found, and no entry looks like a terraform output ({ "sensitive", "type", "value" })',
        `if it came from \`terraform output -json ${outputName}\`, ${regenerate} (all outputs, without a name)`, () => `keys ${listOf(outputs)}`)));
    }
    const closest = closestOf(outputName, outputs);
    const add = `add \`output "${outputName}"\` to the Terraform configuration, apply it and regenerate the file`;
    throw userError(within(source, describe(`output ${show(outputName)}`, outputs, 'not found',
      closest ? `did you mean ${show(closest)}? pass it as the output name, or ${add}` : add,
      () => `outputs ${outputs.length > 0 ? listOf(outputs) : 'none'}`)));
  }
  if (!isObject(wrapper) || !('value' in wrapper)) {
    throw userError(within(source, describe(`output ${show(outputName)}`, wrapper, 'has no "value"', regenerate, preview)));
  }
  const value = wrapper.value;
  if (Array.isArray(value)) return value;
  if (isObject(value)) {
    if (typeof value.endpoint === 'string' || typeof value.provider === 'string') {
      throw userError(within(source, describe(`output ${show(outputName)}`, value, 'must be a list or a map of clusters',
        'wrap it in a list ([{ ... }]) or a map keyed by cluster name ({ name = { ... } })', v => `one cluster object ${preview(v)}`)));
    }
    return value;
  }
  // the value is shown with its terraform type, both through the redacting preview
  throw userError(within(source, describe(`output ${show(outputName)}`, value, 'must be a list or a map of cluster objects',
    'output a list ([{ name = ..., endpoint = ... }]) or a map keyed by cluster name', v => `${preview(v)} (terraform type ${preview(wrapper.type)})`)));
}
