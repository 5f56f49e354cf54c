// Small helpers for reading the JSON that `terraform output -json` prints, in Terraform's names.

import { show } from '../util/errors';

/** A JSON object. @internal */
export type JsonObject = { [key: string]: unknown };

/** @internal */
export function join(path: string, key: string): string {
  if (path === 'labels' || path === 'auth.env') return `${path}[${show(key)}]`;
  if (!/^[A-Za-z_][A-Za-z0-9_-]*$/.test(key)) return `${path}[${show(key)}]`;
  return path ? `${path}.${key}` : key;
}

/** Inverts { name: [alias, ...] } into { alias: name }. @internal */
export function aliases(byName: Record<string, string[]>): Record<string, string> {
  return Object.fromEntries(Object.entries(byName).flatMap(([name, others]) => others.map(o => [o, name])));
}

/** @internal */
export function snakeCase(key: string): string {
  return key.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();
}

/** @internal */
export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** @internal */
export function listOf(values: string[]): string {
  return values.map(show).join(', ');
}

/** @internal */
export function lineColumn(text: string, position: number): string {
  const before = text.slice(0, position).split('\n');
  return `${before.length}, column ${before[before.length - 1].length + 1}`;
}

// one "did you mean" rule for the whole library
export { closestOf } from '../util/closest';

/** @internal */
export function terraformNames(message: string): string {
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
