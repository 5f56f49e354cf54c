import { Finding, show } from './finding';
import { joinPointer } from './json-pointer';
import { checkDnsLabel, checkDnsSubdomain, checkLabelValue, checkPathSegmentName, checkQualifiedName } from './k8s-names';

/** Which syntax the object's name must follow. */
export enum NameRule {
  DNS_SUBDOMAIN = 'dns-subdomain',
  /** Names that become namespaces (Namespace, Kargo Project). */
  DNS_LABEL = 'dns-label',
  /** RBAC objects (e.g. `system:controller:foo`). */
  PATH_SEGMENT = 'path-segment',
}

export interface MetadataRules {
  readonly nameRule: NameRule;
  readonly namespaced: boolean;
}

// Everything else (uid, resourceVersion, creationTimestamp, managedFields, ...) is written by the
// API server and has no business in a manifest.
const KNOWN_FIELDS = new Set(['name', 'namespace', 'labels', 'annotations', 'finalizers', 'ownerReferences', 'generateName']);
// The API server rejects objects whose annotations exceed this many bytes in total.
const MAX_ANNOTATIONS_BYTES = 256 * 1024;

/** ObjectMeta checks. CRD schemas declare `metadata` only as `type: object`, so nothing else does them. */
export function validateObjectMeta(metadata: unknown, rules: MetadataRules): Finding[] {
  const findings: Finding[] = [];
  const add = (path: string, message: string) => findings.push({ path, message });
  if (metadata === undefined) {
    add('/metadata', 'metadata is required');
    return findings;
  }
  if (!isPlainObject(metadata)) {
    add('/metadata', `metadata must be an object, got ${show(metadata)}`);
    return findings;
  }
  for (const key of Object.keys(metadata)) {
    if (!KNOWN_FIELDS.has(key)) {
      add(joinPointer('/metadata', key), `unknown or server-managed metadata field "${key}"`);
    }
  }

  const { name, generateName, namespace } = metadata;
  if (name === undefined || name === '') {
    if (typeof generateName !== 'string' || generateName === '') {
      add('/metadata/name', 'metadata.name is required');
    }
  } else if (typeof name !== 'string') {
    add('/metadata/name', `metadata.name must be a string, got ${show(name)}`);
  } else {
    const error = checkName(name, rules.nameRule);
    if (error) {
      add('/metadata/name', `invalid name: ${error}`);
    }
  }
  if (generateName !== undefined && typeof generateName !== 'string') {
    add('/metadata/generateName', `metadata.generateName must be a string, got ${show(generateName)}`);
  }

  if (rules.namespaced) {
    if (namespace === undefined || namespace === '') {
      add('/metadata/namespace', 'metadata.namespace is required for a namespaced kind');
    } else if (typeof namespace !== 'string') {
      add('/metadata/namespace', `metadata.namespace must be a string, got ${show(namespace)}`);
    } else {
      const error = checkDnsLabel(namespace);
      if (error) {
        add('/metadata/namespace', `invalid namespace: ${error}`);
      }
    }
  } else if (namespace !== undefined) {
    add('/metadata/namespace', `metadata.namespace must not be set on a cluster-scoped kind, got ${show(namespace)}`);
  }

  findings.push(...validateStringMap(metadata.labels, '/metadata/labels', true));
  findings.push(...validateStringMap(metadata.annotations, '/metadata/annotations', false));
  if (isPlainObject(metadata.annotations)) {
    const size = Object.entries(metadata.annotations).reduce((sum, [k, v]) => sum + k.length + (typeof v === 'string' ? v.length : 0), 0);
    if (size > MAX_ANNOTATIONS_BYTES) {
      add('/metadata/annotations', `annotations total ${size} bytes, more than the ${MAX_ANNOTATIONS_BYTES} the api server accepts`);
    }
  }
  findings.push(...validateFinalizers(metadata.finalizers));
  findings.push(...validateOwnerReferences(metadata.ownerReferences));
  return findings;
}

export function checkName(name: string, rule: NameRule): string | undefined {
  switch (rule) {
    case NameRule.DNS_LABEL:
      return checkDnsLabel(name);
    case NameRule.PATH_SEGMENT:
      return checkPathSegmentName(name);
    default:
      return checkDnsSubdomain(name);
  }
}

export function isPlainObject(value: unknown): value is Record<string, any> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function validateStringMap(map: unknown, path: string, isLabels: boolean): Finding[] {
  if (map === undefined) {
    return [];
  }
  if (!isPlainObject(map)) {
    return [{ path, message: `must be a map of strings, got ${show(map)}` }];
  }
  const findings: Finding[] = [];
  for (const [key, value] of Object.entries(map)) {
    const at = joinPointer(path, key);
    const keyError = checkQualifiedName(key);
    if (keyError) {
      findings.push({ path: at, message: `invalid ${isLabels ? 'label' : 'annotation'} key: ${keyError}` });
    }
    if (typeof value !== 'string') {
      findings.push({ path: at, message: `${isLabels ? 'label' : 'annotation'} value must be a string, got ${show(value)}` });
      continue;
    }
    if (isLabels) {
      const valueError = checkLabelValue(value);
      if (valueError) {
        findings.push({ path: at, message: valueError });
      }
    }
  }
  return findings;
}

function validateFinalizers(finalizers: unknown): Finding[] {
  if (finalizers === undefined) {
    return [];
  }
  if (!Array.isArray(finalizers)) {
    return [{ path: '/metadata/finalizers', message: `must be a list of strings, got ${show(finalizers)}` }];
  }
  const findings: Finding[] = [];
  finalizers.forEach((finalizer, i) => {
    const error = typeof finalizer === 'string' ? checkQualifiedName(finalizer) : `must be a string, got ${show(finalizer)}`;
    if (error) {
      findings.push({ path: `/metadata/finalizers/${i}`, message: `invalid finalizer: ${error}` });
    }
  });
  return findings;
}

const OWNER_REFERENCE_FIELDS = new Set(['apiVersion', 'kind', 'name', 'uid', 'controller', 'blockOwnerDeletion']);

function validateOwnerReferences(refs: unknown): Finding[] {
  if (refs === undefined) {
    return [];
  }
  if (!Array.isArray(refs)) {
    return [{ path: '/metadata/ownerReferences', message: `must be a list, got ${show(refs)}` }];
  }
  const findings: Finding[] = [];
  refs.forEach((ref, i) => {
    const at = `/metadata/ownerReferences/${i}`;
    if (!isPlainObject(ref)) {
      findings.push({ path: at, message: `must be an object, got ${show(ref)}` });
      return;
    }
    for (const field of ['apiVersion', 'kind', 'name', 'uid']) {
      if (typeof ref[field] !== 'string' || ref[field] === '') {
        findings.push({ path: joinPointer(at, field), message: `missing required field "${field}"` });
      }
    }
    for (const key of Object.keys(ref)) {
      if (!OWNER_REFERENCE_FIELDS.has(key)) {
        findings.push({ path: joinPointer(at, key), message: `unknown field "${key}"` });
      }
    }
  });
  return findings;
}
