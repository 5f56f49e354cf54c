import { Finding, show } from './finding';
import { joinPointer } from './json-pointer';
import { checkDnsLabel, checkDnsSubdomain } from './k8s-names';
import { isPlainObject } from './object-meta';

export const AUTHORIZED_STAGE_ANNOTATION = 'kargo.akuity.io/authorized-stage';

const GENERATOR_KEYS = ['clusterDecisionResource', 'clusters', 'git', 'list', 'matrix', 'merge', 'plugin', 'pullRequest', 'scmProvider'];
// `selector` post-filters the generated parameters; it is not a generator.
const GENERATOR_ITEM_KEYS = new Set([...GENERATOR_KEYS, 'selector']);

/** Argo CD (and Kargo-on-Argo CD) rules that the CRDs cannot express. */
export function validateArgoCdRules(obj: Record<string, any>): Finding[] {
  switch (obj.kind) {
    case 'Application':
      return checkAuthorizedStage(obj.metadata?.annotations, '/metadata/annotations', false);
    case 'ApplicationSet':
      return [
        ...checkAuthorizedStage(obj.spec?.template?.metadata?.annotations, '/spec/template/metadata/annotations', true),
        ...checkGeneratedAuthorizedStage(obj.spec),
        ...checkGenerators(obj.spec?.generators, '/spec/generators', 0),
      ];
    case 'AppProject':
      return checkAppProject(obj.spec);
    default:
      return [];
  }
}

/**
 * Kargo's `argocd-update` only touches Applications that name the Stage: `<project>:<stage>`,
 * comma-separated since v1.11; globs are rejected. `templated`: ApplicationSet templates carry
 * `{{ }}` placeholders, so only the shape of each entry is checked there.
 */
function checkAuthorizedStage(annotations: unknown, basePath: string, templated: boolean): Finding[] {
  if (!isPlainObject(annotations) || annotations[AUTHORIZED_STAGE_ANNOTATION] === undefined) {
    return [];
  }
  const value = annotations[AUTHORIZED_STAGE_ANNOTATION];
  const at = joinPointer(basePath, AUTHORIZED_STAGE_ANNOTATION);
  if (typeof value !== 'string') {
    return [];
  }
  const findings: Finding[] = [];
  // wholly a parameter: what each generator gives it is checked there (checkGeneratedAuthorizedStage)
  if (templated && parameterOf(value) !== undefined) return [];
  for (const raw of value.split(',')) {
    const entry = raw.trim();
    const colon = entry.indexOf(':');
    if (entry.includes('*')) {
      findings.push({ path: at, message: `authorized-stage entry ${show(entry)} contains "*": wildcards are not supported, list every <project>:<stage>` });
    } else if (colon <= 0 || colon === entry.length - 1) {
      findings.push({ path: at, message: `authorized-stage entry ${show(entry)} in ${show(value)} is not <project>:<stage>` });
    } else if (!templated || !entry.includes('{{')) {
      const projectError = checkDnsLabel(entry.slice(0, colon).trim());
      const stageError = checkDnsSubdomain(entry.slice(colon + 1).trim());
      if (projectError || stageError) {
        findings.push({ path: at, message: `authorized-stage entry ${show(entry)}: ${projectError ? 'project ' + projectError : 'stage ' + stageError}` });
      }
    }
  }
  return findings;
}

/** The generator parameter a template value is wholly made of: `values.<key>` (clusters) or `<key>` (list). */
function parameterOf(value: string): string | undefined {
  return /^\{\{\s*\.([\w.]+)\s*\}\}$/.exec(value.trim())?.[1];
}

/**
 * A template whose authorized stage is wholly one parameter gets it from each generator: a
 * `clusters` generator's `values` (`.values.<key>`, argo-cd `applicationset/generators/
 * value_interpolation.go` `appendTemplatedValues`) or a `list` generator's elements. Each value is
 * checked like an Application's; a generator without it fails to render (`missingkey=error`).
 */
function checkGeneratedAuthorizedStage(spec: any): Finding[] {
  const value = spec?.template?.metadata?.annotations?.[AUTHORIZED_STAGE_ANNOTATION];
  const param = typeof value === 'string' ? parameterOf(value) : undefined;
  if (param === undefined || !Array.isArray(spec.generators)) return [];
  const findings: Finding[] = [];
  spec.generators.forEach((item: any, index: number) => {
    const sources: Array<[string, unknown]> = [];
    if (isPlainObject(item?.clusters) && param.startsWith('values.')) {
      const key = param.slice('values.'.length);
      sources.push([joinPointer('/spec/generators', index, 'clusters', 'values', key), item.clusters.values?.[key]]);
    } else if (isPlainObject(item?.list) && Array.isArray(item.list.elements)) {
      item.list.elements.forEach((e: any, i: number) => sources.push([joinPointer('/spec/generators', index, 'list', 'elements', i, param), e?.[param]]));
    }
    for (const [path, given] of sources) {
      if (given === undefined) {
        findings.push({ path, message: `the template's authorized-stage ${show(value)} needs ${show(param)}, which this generator does not give` });
      } else {
        findings.push(...checkAuthorizedStage({ [AUTHORIZED_STAGE_ANNOTATION]: given }, '', false).map((f) => ({ ...f, path })));
      }
    }
  });
  return findings;
}

/**
 * Each generator item holds exactly one generator; a matrix combines exactly two. The CRD types
 * the children of a top-level matrix/merge but not those of a nested one (preserve-unknown), so
 * unknown keys are checked here from that depth on.
 */
function checkGenerators(generators: unknown, basePath: string, depth: number): Finding[] {
  if (!Array.isArray(generators)) {
    return [];
  }
  const findings: Finding[] = [];
  generators.forEach((item, index) => {
    const at = joinPointer(basePath, index);
    if (!isPlainObject(item)) {
      return;
    }
    const present = Object.keys(item).filter((k) => GENERATOR_KEYS.includes(k));
    for (const key of present) {
      // A generator's own template patches spec.template, annotations included.
      findings.push(...checkAuthorizedStage(item[key]?.template?.metadata?.annotations, joinPointer(at, key, 'template', 'metadata', 'annotations'), true));
    }
    if (present.length !== 1) {
      findings.push({ path: at, message: `generator item must have exactly one generator (${GENERATOR_KEYS.join(', ')}), found ${present.length === 0 ? 'none' : present.join(', ')}` });
    }
    if (depth >= 2) {
      for (const key of Object.keys(item).filter((k) => !GENERATOR_ITEM_KEYS.has(k))) {
        findings.push({ path: joinPointer(at, key), message: `unknown field "${key}" in a nested generator` });
      }
    }
    for (const combining of ['matrix', 'merge']) {
      const children = item[combining]?.generators;
      if (combining === 'matrix' && Array.isArray(children) && children.length !== 2) {
        findings.push({ path: joinPointer(at, 'matrix', 'generators'), message: `a matrix generator combines exactly 2 generators, got ${children.length}` });
      }
      findings.push(...checkGenerators(children, joinPointer(at, combining, 'generators'), depth + 1));
    }
  });
  return findings;
}

function checkAppProject(spec: unknown): Finding[] {
  if (!isPlainObject(spec)) {
    return [];
  }
  // Absent means "everything namespaced is allowed"; an explicit [] means nothing is.
  if (Array.isArray(spec.namespaceResourceWhitelist) && spec.namespaceResourceWhitelist.length === 0) {
    return [{ path: '/spec/namespaceResourceWhitelist', message: 'warning: an empty namespaceResourceWhitelist ([]) forbids every namespaced resource; omit the field to allow all' }];
  }
  return [];
}
