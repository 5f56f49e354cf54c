/**
 * Kubernetes name and label syntax, as the API server checks it
 * (k8s.io/apimachinery/pkg/util/validation).
 */

import { show } from './errors';

const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const QUALIFIED_NAME_PART = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;
const LABEL_VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;

/** @internal */
export const DNS1123_LABEL_MAX = 63;
/** @internal */
export const DNS1123_SUBDOMAIN_MAX = 253;

/**
 * Returns why `value` is not a DNS-1123 label (namespaces, Kargo projects, cluster names),
 * or undefined when it is one.
 * @internal
 */
export function dns1123LabelProblem(value: string, max: number = DNS1123_LABEL_MAX): string | undefined {
  if (value.length === 0) return 'must not be empty';
  if (value.length > max) return `must be at most ${max} characters (it has ${value.length})`;
  if (!DNS1123_LABEL.test(value)) return 'must consist of lowercase letters, digits and \'-\', and start and end with a letter or digit';
  return undefined;
}

/**
 * Returns why `value` is not a DNS-1123 subdomain (most object names), or undefined.
 * @internal
 */
export function dns1123SubdomainProblem(value: string, max: number = DNS1123_SUBDOMAIN_MAX): string | undefined {
  if (value.length === 0) return 'must not be empty';
  if (value.length > max) return `must be at most ${max} characters (it has ${value.length})`;
  if (!DNS1123_SUBDOMAIN.test(value)) return 'must consist of lowercase letters, digits, \'-\' and \'.\', and start and end with a letter or digit';
  return undefined;
}

/**
 * Returns why `key` is not a valid label key (`[prefix/]name`), or undefined.
 * @internal
 */
export function labelKeyProblem(key: string): string | undefined {
  const slash = key.lastIndexOf('/');
  const prefix = slash >= 0 ? key.slice(0, slash) : undefined;
  const name = slash >= 0 ? key.slice(slash + 1) : key;
  if (prefix !== undefined) {
    const p = dns1123SubdomainProblem(prefix);
    if (p) return `prefix ${show(prefix)} ${p}`;
  }
  if (name.length === 0) return 'name part must not be empty';
  if (name.length > 63) return `name part must be at most 63 characters (it has ${name.length})`;
  if (!QUALIFIED_NAME_PART.test(name)) return 'name part must consist of alphanumerics, \'-\', \'_\' or \'.\', and start and end with an alphanumeric';
  return undefined;
}

/**
 * Returns why `value` is not a valid label value, or undefined.
 * @internal
 */
export function labelValueProblem(value: string): string | undefined {
  if (value.length > 63) return `must be at most 63 characters (it has ${value.length})`;
  if (!LABEL_VALUE.test(value)) return 'must be empty or consist of alphanumerics, \'-\', \'_\' or \'.\', and start and end with an alphanumeric';
  return undefined;
}

const API_VERSION = /^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\/)?v[0-9]+((alpha|beta)[0-9]+)?(\/[A-Z][A-Za-z0-9]*)?$/;

/**
 * Returns why `value` is not an API version as Helm's `.Capabilities.APIVersions` holds them
 * (`v1`, `<group>/<version>`, optionally `/<Kind>`), or undefined.
 * @internal
 */
export function apiVersionProblem(value: string): string | undefined {
  return API_VERSION.test(`${value}`) ? undefined : 'must be an API version such as "monitoring.coreos.com/v1"';
}
