import { Finding, show } from './finding';
import { joinPointer } from './json-pointer';
import { KargoJsonSchemas } from './kargo-json-schemas';
import { isPlainObject } from './object-meta';

const SUBSCRIPTION_KINDS = ['image', 'git', 'chart', 'subscription'];

/**
 * Warehouse `spec.subscriptions[]`: the CRD leaves the items untyped (preserve-unknown); the
 * webhook validates them against Kargo's JSON Schemas and rejects duplicates.
 */
export function validateSubscriptions(subscriptions: unknown, basePath: string, schemas: KargoJsonSchemas): Finding[] {
  if (!Array.isArray(subscriptions)) {
    return [];
  }
  const findings: Finding[] = [];
  const seen = new Map<string, string>();
  subscriptions.forEach((item, index) => {
    const at = joinPointer(basePath, index);
    if (!isPlainObject(item)) {
      findings.push({ path: at, message: `subscription must be an object, got ${show(item)}` });
      return;
    }
    const kinds = Object.keys(item).filter((k) => SUBSCRIPTION_KINDS.includes(k));
    for (const key of Object.keys(item).filter((k) => !SUBSCRIPTION_KINDS.includes(k))) {
      findings.push({ path: joinPointer(at, key), message: `unknown field "${key}" (a subscription has exactly one of ${SUBSCRIPTION_KINDS.join(', ')})` });
    }
    if (kinds.length !== 1) {
      findings.push({ path: at, message: `subscription must set exactly one of ${SUBSCRIPTION_KINDS.join(', ')}, found ${kinds.length === 0 ? 'none' : kinds.join(', ')}` });
      return;
    }
    const kind = kinds[0];
    const body = item[kind];
    const bodyPath = joinPointer(at, kind);
    if (kind === 'subscription') {
      findings.push(...checkGenericSubscription(body, bodyPath));
    } else {
      findings.push(...schemas.validateSubscription(kind, body, bodyPath));
      if (kind === 'chart') {
        findings.push(...checkChartName(body, bodyPath));
      }
      if (kind === 'image') {
        findings.push(...checkRemovedImageFilters(body, bodyPath));
      }
    }
    const identity = subscriptionIdentity(kind, body);
    if (identity !== undefined) {
      const first = seen.get(identity.key);
      if (first !== undefined) {
        findings.push({ path: at, message: `duplicate ${kind} subscription to ${identity.label} (also subscribed at ${first})` });
      } else {
        seen.set(identity.key, at);
      }
    }
  });
  return findings;
}

/** chart.json cannot express this; the webhook does. */
function checkChartName(chart: unknown, at: string): Finding[] {
  if (!isPlainObject(chart) || typeof chart.repoURL !== 'string') {
    return [];
  }
  const hasName = typeof chart.name === 'string' && chart.name !== '';
  if (chart.repoURL.startsWith('oci://') && hasName) {
    return [{ path: joinPointer(at, 'name'), message: `name must be empty for an oci:// repository (the url names the chart), got ${show(chart.name)} for ${show(chart.repoURL)}` }];
  }
  if (/^https?:\/\//.test(chart.repoURL) && !hasName) {
    return [{ path: joinPointer(at, 'name'), message: `name is required for a classic http(s) chart repository ${show(chart.repoURL)}` }];
  }
  return [];
}

/** Still in image.json, but since Kargo v1.11 artifact discovery fails when they are non-empty. */
function checkRemovedImageFilters(image: unknown, at: string): Finding[] {
  if (!isPlainObject(image)) {
    return [];
  }
  const findings: Finding[] = [];
  for (const [field, replacement] of [['allowTags', 'allowTagsRegexes'], ['ignoreTags', 'ignoreTagsRegexes']]) {
    const value = image[field];
    if ((typeof value === 'string' || Array.isArray(value)) && value.length > 0) {
      findings.push({ path: joinPointer(at, field), message: `${field} ${show(value)} makes artifact discovery fail since kargo v1.11; use ${replacement}` });
    }
  }
  return findings;
}

function checkGenericSubscription(body: unknown, at: string): Finding[] {
  if (!isPlainObject(body)) {
    return [{ path: at, message: `subscription must be an object, got ${show(body)}` }];
  }
  const findings: Finding[] = [];
  for (const field of ['subscriptionType', 'name']) {
    if (typeof body[field] !== 'string' || body[field] === '') {
      findings.push({ path: joinPointer(at, field), message: `missing required field "${field}"` });
    }
  }
  const limit = body.discoveryLimit;
  if (limit !== undefined && (!Number.isInteger(limit) || limit < 1 || limit > 100)) {
    findings.push({ path: joinPointer(at, 'discoveryLimit'), message: `${show(limit)} must be an integer from 1 to 100` });
  }
  return findings;
}

/** What makes two subscriptions the same artifact source, roughly as the webhook normalizes it. */
function subscriptionIdentity(kind: string, body: unknown): { key: string; label: string } | undefined {
  if (!isPlainObject(body)) {
    return undefined;
  }
  if (kind === 'subscription') {
    return typeof body.name === 'string' ? { key: `subscription:${body.name}`, label: `name ${show(body.name)}` } : undefined;
  }
  if (typeof body.repoURL !== 'string') {
    return undefined;
  }
  let url = body.repoURL.trim().toLowerCase().replace(/\/+$/, '');
  if (kind === 'git') {
    url = url.replace(/\.git$/, '');
  }
  if (kind === 'chart') {
    // A classic repository serves many charts: the chart name is part of the identity.
    const name = typeof body.name === 'string' ? body.name : '';
    return { key: `chart:${url}#${name}`, label: name ? `${show(body.repoURL)} chart ${show(name)}` : show(body.repoURL) };
  }
  return { key: `${kind}:${url}`, label: show(body.repoURL) };
}
