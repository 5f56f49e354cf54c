import { Finding } from './finding';
import { joinPointer } from './json-pointer';
import { isPlainObject } from './object-meta';

/**
 * Keys that hold credentials in the Secrets Argo CD and Kargo read (cluster `config`, repository
 * credentials, webhook receivers). Generated manifests are committed to Git: they must carry
 * references to identities (IAM roles, workload identity, exec plugins), never the material.
 * `caData` is deliberately absent: a CA certificate is public.
 */
export const SECRET_MATERIAL_KEYS = [
  'bearerToken', 'password', 'keyData', 'certData', 'privateKey', 'sshPrivateKey', 'token', 'secret',
  'awsSecretAccessKey', 'githubAppPrivateKey', 'gcpServiceAccountKey', 'clientSecret',
  'secret-token', 'auth-header', 'accessToken', 'refreshToken', 'apiKey', 'secretAccessKey',
];
const SENSITIVE = new Set(SECRET_MATERIAL_KEYS.map((k) => k.toLowerCase()));

/** Reports every sensitive key with a non-empty value in `data`/`stringData`, including inside JSON values. */
export function findSecretMaterial(secret: Record<string, any>): Finding[] {
  const findings: Finding[] = [];
  for (const field of ['stringData', 'data']) {
    const map = secret[field];
    if (!isPlainObject(map)) {
      continue;
    }
    for (const [key, raw] of Object.entries(map)) {
      if (typeof raw !== 'string') {
        continue;
      }
      const value = field === 'data' ? decodeBase64(raw) : raw;
      const at = joinPointer(`/${field}`, key);
      if (SENSITIVE.has(key.toLowerCase()) && value.trim() !== '') {
        findings.push({ path: at, message: `secret material: ${field}.${key} carries a value; reference an identity (iam role, workload identity, exec plugin) or an external secret instead` });
      }
      for (const nested of sensitiveJsonKeys(value)) {
        findings.push({ path: at, message: `secret material: ${field}.${key} json has a value at "${nested}"; use exec/iam-based auth instead of credentials in git` });
      }
    }
  }
  return findings;
}

/** Dotted paths of sensitive keys with non-empty values inside a JSON document (e.g. a cluster `config`). */
function sensitiveJsonKeys(text: string): string[] {
  const trimmed = text.trim();
  if (!trimmed.startsWith('{') && !trimmed.startsWith('[')) {
    return [];
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(trimmed);
  } catch {
    return [];
  }
  const found: string[] = [];
  const walk = (node: unknown, path: string): void => {
    if (Array.isArray(node)) {
      node.forEach((item, i) => walk(item, `${path}[${i}]`));
    } else if (isPlainObject(node)) {
      for (const [key, value] of Object.entries(node)) {
        const at = path ? `${path}.${key}` : key;
        if (SENSITIVE.has(key.toLowerCase()) && isNonEmpty(value)) {
          found.push(at);
        } else {
          walk(value, at);
        }
      }
    }
  };
  walk(parsed, '');
  return found;
}

function isNonEmpty(value: unknown): boolean {
  if (typeof value === 'string') {
    return value.trim() !== '';
  }
  if (Array.isArray(value)) {
    return value.length > 0;
  }
  if (isPlainObject(value)) {
    return Object.keys(value).length > 0;
  }
  return value !== null && value !== undefined && value !== false;
}

function decodeBase64(value: string): string {
  try {
    return Buffer.from(value, 'base64').toString('utf8');
  } catch {
    return value;
  }
}
