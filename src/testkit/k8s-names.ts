/**
 * Kubernetes name syntax (apimachinery/pkg/util/validation). Each check returns an error message
 * (lowercase, showing the value) or undefined.
 *
 * Deliberately independent of src/util/names.ts: the test kit is an oracle for what the
 * generators emit, so it must not share their code (a bug there would pass both).
 */

const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const QUALIFIED_NAME_PART = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;
const CONFIG_KEY = /^[-._a-zA-Z0-9]+$/;

export function checkDnsLabel(value: string): string | undefined {
  if (value.length > 63) {
    return `"${value}" is longer than 63 characters (dns-1123 label)`;
  }
  if (!DNS1123_LABEL.test(value)) {
    return `"${value}" is not a dns-1123 label (lowercase alphanumerics and '-', starting and ending alphanumeric)`;
  }
  return undefined;
}

export function checkDnsSubdomain(value: string): string | undefined {
  if (value.length > 253) {
    return `"${value}" is longer than 253 characters (dns-1123 subdomain)`;
  }
  if (!DNS1123_SUBDOMAIN.test(value)) {
    return `"${value}" is not a dns-1123 subdomain (lowercase alphanumerics, '-' and '.', starting and ending alphanumeric)`;
  }
  return undefined;
}

/** RBAC objects only need names that are valid URL path segments. */
export function checkPathSegmentName(value: string): string | undefined {
  if (value === '' || value === '.' || value === '..' || /[/%]/.test(value)) {
    return `"${value}" is not a valid path segment name (must not be "." or ".." or contain '/' or '%')`;
  }
  return undefined;
}

/** Label and annotation keys, finalizers: `[prefix/]name`. */
export function checkQualifiedName(value: string): string | undefined {
  const parts = value.split('/');
  if (parts.length > 2) {
    return `"${value}" is not a qualified name (at most one '/')`;
  }
  const name = parts[parts.length - 1];
  if (parts.length === 2) {
    const prefix = parts[0];
    if (prefix === '') {
      return `"${value}" has an empty prefix`;
    }
    const prefixError = checkDnsSubdomain(prefix);
    if (prefixError) {
      return `prefix of "${value}": ${prefixError}`;
    }
  }
  if (name.length === 0) {
    return `"${value}" has an empty name part`;
  }
  if (name.length > 63) {
    return `name part of "${value}" is longer than 63 characters`;
  }
  if (!QUALIFIED_NAME_PART.test(name)) {
    return `"${value}" is not a qualified name (alphanumerics, '-', '_' and '.', starting and ending alphanumeric, optional dns prefix)`;
  }
  return undefined;
}

export function checkLabelValue(value: string): string | undefined {
  if (value.length > 63) {
    return `label value "${value}" is longer than 63 characters`;
  }
  if (value !== '' && !QUALIFIED_NAME_PART.test(value)) {
    return `label value "${value}" must be empty or alphanumerics, '-', '_' and '.', starting and ending alphanumeric`;
  }
  return undefined;
}

/** Keys of ConfigMap and Secret data. */
export function checkConfigKey(value: string): string | undefined {
  if (value.length > 253 || !CONFIG_KEY.test(value) || value === '.' || value === '..') {
    return `"${value}" is not a valid config key (alphanumerics, '-', '_' and '.', at most 253 characters)`;
  }
  return undefined;
}
