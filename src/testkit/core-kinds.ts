import { Finding, show } from './finding';
import { joinPointer } from './json-pointer';
import { isPlainObject, NameRule } from './object-meta';

/**
 * The few built-in kinds this library emits, without pinned schemas: hand-written top-level
 * structure (draft-07, unknown fields rejected), enough to catch typos and misplaced fields.
 */
export interface CoreKind {
  readonly apiVersion: string;
  readonly kind: string;
  readonly namespaced: boolean;
  readonly nameRule: NameRule;
  /** Built on first use: the Job schema borrows from a CRD that is costly to parse. */
  readonly schema: () => object;
}

const RBAC_GROUP = 'rbac.authorization.k8s.io';
const str = { type: 'string' };
const strings = { type: 'array', items: str };
const stringMap = { type: 'object', additionalProperties: str };
const configKeys = { maxLength: 253, pattern: '^[-._a-zA-Z0-9]+$' };
const base64Map = { type: 'object', propertyNames: configKeys, additionalProperties: { type: 'string', format: 'byte' } };

function strict(properties: Record<string, object>, required: string[] = []): object {
  return { type: 'object', properties, required, additionalProperties: false };
}

function topLevel(properties: Record<string, object>, required: string[] = []): object {
  // metadata and status are checked by the validator itself, with clearer messages.
  return strict({ apiVersion: str, kind: str, metadata: {}, status: {}, ...properties }, required);
}

const labelSelector = strict({
  matchLabels: stringMap,
  matchExpressions: { type: 'array', items: strict({ key: str, operator: { enum: ['In', 'NotIn', 'Exists', 'DoesNotExist'] }, values: strings }, ['key', 'operator']) },
});
const policyRules = {
  type: 'array',
  items: strict({ apiGroups: strings, resources: strings, resourceNames: strings, nonResourceURLs: strings, verbs: { ...strings, minItems: 1 } }, ['verbs']),
};
const subjects = {
  type: 'array',
  items: strict({ kind: { enum: ['User', 'Group', 'ServiceAccount'] }, name: { type: 'string', minLength: 1 }, apiGroup: str, namespace: str }, ['kind', 'name']),
};
function roleRef(kinds: string[]): object {
  return strict({ apiGroup: { enum: [RBAC_GROUP] }, kind: { enum: kinds }, name: { type: 'string', minLength: 1 } }, ['apiGroup', 'kind', 'name']);
}

/** `jobSpec`: the JobSpec schema of a pinned CRD that embeds one (Argo Rollouts' job metric), if any. */
export function coreKinds(jobSpec: () => object | undefined): CoreKind[] {
  const kind = (apiVersion: string, k: string, namespaced: boolean, nameRule: NameRule, schema: object | (() => object)): CoreKind =>
    ({ apiVersion, kind: k, namespaced, nameRule, schema: typeof schema === 'function' ? schema as () => object : () => schema });
  return [
    kind('v1', 'Secret', true, NameRule.DNS_SUBDOMAIN, topLevel({
      type: str,
      data: base64Map,
      stringData: { type: 'object', propertyNames: configKeys, additionalProperties: str },
      immutable: { type: 'boolean' },
    })),
    kind('v1', 'ConfigMap', true, NameRule.DNS_SUBDOMAIN, topLevel({
      data: { type: 'object', propertyNames: configKeys, additionalProperties: str },
      binaryData: base64Map,
      immutable: { type: 'boolean' },
    })),
    kind('v1', 'ServiceAccount', true, NameRule.DNS_SUBDOMAIN, topLevel({
      secrets: { type: 'array', items: strict({ apiVersion: str, kind: str, name: str, namespace: str, uid: str, resourceVersion: str, fieldPath: str }) },
      imagePullSecrets: { type: 'array', items: strict({ name: str }) },
      automountServiceAccountToken: { type: 'boolean' },
    })),
    kind('v1', 'Namespace', false, NameRule.DNS_LABEL, topLevel({ spec: strict({ finalizers: strings }) })),
    kind(`${RBAC_GROUP}/v1`, 'Role', true, NameRule.PATH_SEGMENT, topLevel({ rules: policyRules })),
    kind(`${RBAC_GROUP}/v1`, 'ClusterRole', false, NameRule.PATH_SEGMENT, topLevel({
      rules: policyRules,
      aggregationRule: strict({ clusterRoleSelectors: { type: 'array', items: labelSelector } }),
    })),
    kind(`${RBAC_GROUP}/v1`, 'RoleBinding', true, NameRule.PATH_SEGMENT, topLevel({ roleRef: roleRef(['Role', 'ClusterRole']), subjects }, ['roleRef'])),
    kind(`${RBAC_GROUP}/v1`, 'ClusterRoleBinding', false, NameRule.PATH_SEGMENT, topLevel({ roleRef: roleRef(['ClusterRole']), subjects }, ['roleRef'])),
    kind('batch/v1', 'Job', true, NameRule.DNS_SUBDOMAIN, () => topLevel({ spec: jobSpec() ?? { type: 'object', required: ['template'] } }, ['spec'])),
  ];
}

/** RBAC subject rules from the API server's validation that a schema cannot express. */
export function validateCoreRules(obj: Record<string, any>): Finding[] {
  if (obj.kind !== 'RoleBinding' && obj.kind !== 'ClusterRoleBinding') {
    return [];
  }
  const findings: Finding[] = [];
  (Array.isArray(obj.subjects) ? obj.subjects : []).forEach((subject: unknown, index: number) => {
    if (!isPlainObject(subject)) {
      return;
    }
    const at = `/subjects/${index}`;
    if (subject.kind === 'ServiceAccount') {
      if (subject.apiGroup !== undefined && subject.apiGroup !== '') {
        findings.push({ path: joinPointer(at, 'apiGroup'), message: `a ServiceAccount subject has apiGroup "", got ${show(subject.apiGroup)}` });
      }
      if (obj.kind === 'ClusterRoleBinding' && (typeof subject.namespace !== 'string' || subject.namespace === '')) {
        findings.push({ path: joinPointer(at, 'namespace'), message: `a ServiceAccount subject of a ClusterRoleBinding needs a namespace (subject ${show(subject.name)})` });
      }
    } else if ((subject.kind === 'User' || subject.kind === 'Group') && subject.apiGroup !== undefined && subject.apiGroup !== '' && subject.apiGroup !== RBAC_GROUP) {
      // An empty apiGroup is defaulted to the RBAC group for users and groups.
      findings.push({ path: joinPointer(at, 'apiGroup'), message: `a ${subject.kind} subject has apiGroup "${RBAC_GROUP}", got ${show(subject.apiGroup)}` });
    }
  });
  return findings;
}
