import * as fs from 'fs';
import * as path from 'path';
import { load } from 'js-yaml';
import { CLUSTER_VARIABLES } from '../../contracts/cluster-variables';
import { PlatformLabels } from '../../contracts/labels';
import { LegacyArtifact, RecordedKind } from '../../contracts/release-record';
import { listYamlFiles } from '../../testkit/yaml-files';
import { describe } from '../../util/errors';
import { compare, FLEET_GROUP, ManifestObject, ManifestSet } from '../manifest-set';
import { AppModel, ModelOptions, readModels } from '../release-model';
import { UsageError } from '../synth-tree';

/** An artifact an app's Warehouse subscribes to. */
export interface PlanArtifact extends LegacyArtifact {
  /** An image followed by digest (a mutable tag): its version is the digest, not the tag. */
  readonly byDigest: boolean;
}

/** What the synthesized output says each app deploys where: what `status` compares the release record with. */
export interface StatusPlan {
  /** The apps, by name, sorted. */
  readonly apps: AppModel[];
  readonly artifacts: Map<string, PlanArtifact[]>;
  /** The labels of every cluster of the fleet (its Argo CD cluster Secret's). */
  readonly clusterLabels: Map<string, Record<string, string>>;
}

/**
 * The kinds `status` reads. The release model needs the Stages (order, waves), the Applications
 * and ApplicationSets (clusters, branches, folders) with the fleet's cluster Secrets, the
 * Warehouses (artifacts) and the Projects; the rest of the output (AnalysisTemplates, RBAC,
 * PromotionTasks: most of its bytes at fleet size) is not parsed, nor a Stage's promotion steps:
 * gates and checks of the model read from this set are therefore not complete (status shows neither).
 */
const KINDS = new Set(['Secret', 'Application', 'ApplicationSet', 'Stage', 'Warehouse', 'Project', 'ProjectConfig']);
const KIND = /^kind:[ \t]*["']?([A-Za-z]+)["']?[ \t]*$/m;
const DOCUMENT_START = /^---[ \t]*$/m;

/** Reads the plan from a synthesized directory (see `KINDS`). */
export function loadStatusPlan(dir: string, options: ModelOptions = {}): StatusPlan {
  const objects: Array<{ file: string; obj: any }> = [];
  const rendered = new Map<string, Record<string, string>>();
  for (const file of listYamlFiles(dir)) {
    const rel = path.relative(dir, file).split(path.sep).join('/');
    for (const doc of fs.readFileSync(file, 'utf8').split(DOCUMENT_START)) {
      const kind = KIND.exec(doc)?.[1];
      if (kind === undefined || !KINDS.has(kind)) continue;
      if (kind === 'Stage') renderedClusterLabels(doc, rendered);
      const obj = parseDocument(rel, kind === 'Stage' ? withoutBlock(doc, 'promotionTemplate') : doc) ?? parseDocument(rel, doc, true);
      if (obj !== null && typeof obj === 'object') objects.push({ file: rel, obj });
    }
  }
  const set = ManifestSet.fromObjects(objects);
  const apps = [...readModels(set, options).values()].sort((a, b) => compare(a.name, b.name));
  const clusterLabels = clusterLabelsOf(set.ofGroup(FLEET_GROUP));
  // a cluster with its own Argo CD has no cluster Secret on the hub: its attributes come from its render
  for (const [cluster, labels] of rendered) if (!clusterLabels.has(cluster)) clusterLabels.set(cluster, labels);
  return { apps, artifacts: artifactsOf(set, apps), clusterLabels };
}

/**
 * One document, parsed with js-yaml (YAML 1.2 core schema, as the `yaml` package reads it): at
 * fleet size the documents `status` needs are about 12 MB, which js-yaml parses in well under
 * a second and the `yaml` package in about six.
 */
function parseDocument(rel: string, text: string, strict = false): any {
  try {
    return load(text);
  } catch (e) {
    if (!strict) return undefined;
    throw new UsageError(describe(rel, String((e as Error).message).split('\n')[0], 'does not parse as YAML', 'synthesize again, or fix the YAML there'));
  }
}

/**
 * The document without one block of `spec` (`  <key>:` and the lines indented below it): block
 * YAML as cdk8s writes it. If the cut text does not parse, the caller parses the whole document.
 */
function withoutBlock(doc: string, key: string): string {
  const start = doc.indexOf(`\n  ${key}:`);
  if (start < 0) return doc;
  const rest = /\n {0,2}\S/g;
  rest.lastIndex = start + 1;
  const end = rest.exec(doc);
  return doc.slice(0, start) + (end ? doc.slice(end.index) : '\n');
}

const VAR_NAME = /^\s+- name: (\S+)\s*$/;
const VAR_VALUE = /^\s+value: (.*?)\s*$/;

/**
 * The attributes each render step of a Stage gives its cluster (`vars` of the render task call:
 * `contracts/cluster-variables.ts`), as the labels the fleet's cluster Secrets carry them under
 * (`gitops-platform.io/<attribute>`), read from the text without parsing the steps.
 */
function renderedClusterLabels(doc: string, into: Map<string, Record<string, string>>): void {
  const lines = doc.split('\n');
  let vars: Record<string, string> = {};
  const flush = () => {
    const given = CLUSTER_VARIABLES.filter((v) => vars[v] !== undefined);
    if (vars.cluster) into.set(vars.cluster, Object.fromEntries(given.map((v) => [labelOf(v), vars[v]])));
    vars = {};
  };
  for (let i = 0; i < lines.length; i++) {
    if (/^\s+- as: /.test(lines[i])) flush();
    const name = VAR_NAME.exec(lines[i])?.[1];
    const value = name !== undefined ? VAR_VALUE.exec(lines[i + 1] ?? '')?.[1] : undefined;
    if (name !== undefined && value !== undefined) vars[name] = value.startsWith('"') ? String(load(value)) : value;
  }
  flush();
}

function labelOf(variable: string): string {
  return variable === 'cluster' ? PlatformLabels.CLUSTER : `${PlatformLabels.PREFIX}/${variable}`;
}

function artifactsOf(set: ManifestSet, apps: AppModel[]): Map<string, PlanArtifact[]> {
  const out = new Map<string, PlanArtifact[]>();
  for (const app of apps) {
    const warehouses = set.ofGroup(app.name).filter((o) => o.obj?.kind === 'Warehouse');
    out.set(app.name, warehouses.flatMap((w: ManifestObject) => (w.obj.spec?.subscriptions ?? []).flatMap(subscriptionArtifact)));
  }
  return out;
}

function subscriptionArtifact(sub: any): PlanArtifact[] {
  for (const kind of ['image', 'chart', 'git'] as RecordedKind[]) {
    const body = sub?.[kind];
    if (typeof body?.repoURL !== 'string') continue;
    return [{ kind, repoUrl: body.repoURL, name: kind === 'chart' && body.name ? String(body.name) : undefined, byDigest: kind === 'image' && body.imageSelectionStrategy === 'Digest' }];
  }
  return [];
}

function clusterLabelsOf(fleet: ManifestObject[]): Map<string, Record<string, string>> {
  const out = new Map<string, Record<string, string>>();
  for (const { obj } of fleet) {
    if (obj?.kind !== 'Secret') continue;
    const labels: Record<string, string> = obj.metadata?.labels ?? {};
    const name = labels[PlatformLabels.CLUSTER] ?? obj.stringData?.name;
    if (typeof name === 'string') out.set(name, { ...labels });
  }
  return out;
}
