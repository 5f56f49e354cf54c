import { BASE64 } from './cluster-ca';
import { isObject, join, snakeCase } from './terraform-json';

// Credential detection for `terraform output -json`: the file is committed and becomes cluster
// Secrets, so a credential in it is refused, and never shown in a message.

/** Key names (snake_cased) of credentials: bearer tokens, client keys, passwords, kubeconfigs. */
const CREDENTIAL_KEY = /(^|_)(tokens?|password|passwd|kube_?config|kube_admin_config|client_key|client_certificate|private_key|credentials?)(_|$)|(^|_)(secret|key$)/;

/** What messages show in place of a credential. @internal */
export const REDACTED = '<redacted>';

/** The fix of every credential problem. @internal */
export const CREDENTIAL_FIX = 'credentials are never accepted from terraform output (the file is committed and becomes cluster Secrets): '
  + 'remove it and let Argo CD authenticate with workload identity (auth type "eks", "gke" or "aks") or an exec plugin (auth type "exec")';

/** Where credential problems are reported. @internal */
export interface CredentialReporter {
  add(message: string): void;
  report(field: string, value: unknown, problem: string, fix?: string): void;
}

/** Reports every credential in the entry: by key name anywhere, or by value (tokens, private keys). @internal */
export function findCredentials(r: CredentialReporter, value: unknown, path: string): void {
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
      r.report(child, v === null || v === '' ? v : REDACTED, 'is a credential', CREDENTIAL_FIX);
    } else if (isCredentialValue(v)) {
      r.report(child, REDACTED, 'looks like a credential', CREDENTIAL_FIX);
    } else {
      findCredentials(r, v, child);
    }
  }
}

/** @internal */
export function isCredentialKey(key: string): boolean {
  return CREDENTIAL_KEY.test(snakeCase(key).replace(/[^a-z0-9]+/g, '_'));
}

/** Bearer tokens (JWTs, EKS tokens) and private keys, plain or base64-encoded. @internal */
export function isCredentialValue(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  if (/^(Bearer\s+)?eyJ[\w-]{5,}\.[\w-]{5,}\.[\w-]*$/.test(value) || value.startsWith('k8s-aws-v1.')) return true;
  if (/PRIVATE KEY-----/.test(value)) return true;
  return value.length > 40 && BASE64.test(value) && Buffer.from(value, 'base64').toString('latin1').includes('PRIVATE KEY-----');
}

/** A copy for messages: credentials replaced, long strings shortened. @internal */
export function redact(value: unknown): unknown {
  if (isCredentialValue(value)) return REDACTED;
  if (typeof value === 'string' && value.length > 80) return `${value.slice(0, 60)}... (${value.length} characters)`;
  if (Array.isArray(value)) return value.map(redact);
  if (isObject(value)) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, isCredentialKey(k) ? REDACTED : redact(v)]));
  }
  return value;
}

/** @internal */
export function preview(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === REDACTED) return REDACTED;
  const text = JSON.stringify(redact(value));
  return text.length > 200 ? `${text.slice(0, 180)}... (${Array.isArray(value) ? 'list' : 'object'})` : text;
}

/** @internal */
export function redactUrl(url: URL): string {
  const userinfo = url.username || url.password ? `${REDACTED}@` : '';
  return `${url.protocol}//${userinfo}${url.host}${url.pathname}${url.search ? `?${REDACTED}` : ''}${url.hash ? `#${REDACTED}` : ''}`;
}
