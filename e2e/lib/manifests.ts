import { readFileSync } from 'fs';
import { parseAllDocuments } from 'yaml';
import { Obj } from './kube';

/** The documents of a multi-document YAML text (empty ones dropped; Lists flattened). */
export function parseDocs(text: string): Obj[] {
  const out: Obj[] = [];
  for (const doc of parseAllDocuments(text)) {
    const obj = doc.toJS();
    if (!obj?.kind) continue;
    if (obj.kind.endsWith('List') && Array.isArray(obj.items)) out.push(...obj.items);
    else out.push(obj);
  }
  return out;
}

export function readDocs(file: string): Obj[] {
  return parseDocs(readFileSync(file, 'utf8'));
}

/** Kinds an installation's manifests hold that the suite runs as processes itself, or that need cert-manager or a network. */
export const WORKLOAD_KINDS = new Set([
  'Deployment', 'StatefulSet', 'DaemonSet', 'CronJob', 'Job', 'Service', 'Ingress', 'NetworkPolicy', 'PodDisruptionBudget',
  'Certificate', 'Issuer', 'ClusterIssuer', 'ServiceMonitor', 'HorizontalPodAutoscaler',
]);

/** Installation order: CRDs and namespaces first, then what lives in them. */
export function installOrder(objs: Obj[]): Obj[] {
  const rank = (o: Obj) => o.kind === 'CustomResourceDefinition' ? 0 : o.kind === 'Namespace' ? 1 : 2;
  return [...objs].sort((a, b) => rank(a) - rank(b));
}

/**
 * The environment a Deployment's first container gets from the manifests: `env` values,
 * `fieldRef`s of the pod's namespace and name, and `configMapKeyRef`/`secretKeyRef`/`envFrom`
 * resolved against the other objects of the same manifests.
 */
export function containerEnv(deployment: Obj, objs: Obj[]): Record<string, string> {
  const ns = deployment.metadata.namespace ?? '';
  const find = (kind: string, name: string) => objs.find(o => o.kind === kind && o.metadata.name === name && (o.metadata.namespace ?? ns) === ns);
  const data = (kind: string, name: string): Record<string, string> => {
    const o = find(kind, name);
    if (!o) return {};
    const out: Record<string, string> = { ...o.data ?? {} };
    if (kind === 'Secret') for (const [k, v] of Object.entries(out)) out[k] = Buffer.from(String(v), 'base64').toString('utf8');
    return { ...out, ...o.stringData ?? {} };
  };
  const container = deployment.spec.template.spec.containers[0];
  const env: Record<string, string> = {};
  for (const from of container.envFrom ?? []) {
    if (from.configMapRef) Object.assign(env, data('ConfigMap', from.configMapRef.name));
    if (from.secretRef) Object.assign(env, data('Secret', from.secretRef.name));
  }
  for (const e of container.env ?? []) {
    if (e.value !== undefined) env[e.name] = String(e.value);
    const ref = e.valueFrom;
    if (ref?.fieldRef) env[e.name] = ref.fieldRef.fieldPath === 'metadata.namespace' ? ns : deployment.metadata.name;
    if (ref?.configMapKeyRef) {
      const v = data('ConfigMap', ref.configMapKeyRef.name)[ref.configMapKeyRef.key];
      if (v !== undefined) env[e.name] = v;
    }
    if (ref?.secretKeyRef) {
      const v = data('Secret', ref.secretKeyRef.name)[ref.secretKeyRef.key];
      if (v !== undefined) env[e.name] = v;
    }
  }
  return env;
}
