import { PlatformLabels } from '../../contracts/labels';
import { RecordedArtifact } from '../../contracts/release-record';
import { ClusterSelector, SelectorOperator, SelectorRequirement } from '../../fleet/cluster-selector';
import { didYouMean } from '../../util/closest';
import { describe, within } from '../../util/errors';
import { UsageError } from '../synth-tree';

/** Names, or `*` globs of them; an empty list matches everything. */
export function nameMatcher(patterns: string[]): (name: string) => boolean {
  if (patterns.length === 0) return () => true;
  const regexes = patterns.map((p) => new RegExp(`^${p.split('*').map(escapeRegex).join('.*')}$`));
  return (name) => regexes.some((r) => r.test(name));
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The comma-separated values of a repeatable option (commas inside parentheses belong to a selector term). */
export function splitTerms(value: string | undefined): string[] {
  if (value === undefined) return [];
  const terms: string[] = [];
  let depth = 0;
  let current = '';
  for (const ch of value) {
    if (ch === '(') depth++;
    if (ch === ')') depth = Math.max(0, depth - 1);
    if (ch === ',' && depth === 0) {
      terms.push(current.trim());
      current = '';
    } else {
      current += ch;
    }
  }
  terms.push(current.trim());
  return terms.filter((t) => t !== '');
}

const SELECTOR_TERM = /^(!?)([A-Za-z0-9][-A-Za-z0-9_./]*)\s*(?:(==?|!=)\s*(\S*)|\s+(in|notin)\s*\(([^)]*)\))?$/;

/**
 * `--cluster`: cluster names or globs (any of them), and label selector terms in `kubectl -l`
 * syntax (`tier=prod`, `ring!=canary`, `region in (eu-west-1,eu-central-1)`, `!legacy`; all of
 * them). A key without a prefix is also looked up as a `gitops-platform.io/` label, so
 * `tier=prod` selects what `ClusterSelector.tier(Tier.PROD)` does.
 */
export function clusterMatcher(value: string | undefined, clusterLabels: Map<string, Record<string, string>>): (cluster: string) => boolean {
  const names: string[] = [];
  const requirements: SelectorRequirement[] = [];
  const knownKeys = new Set([...clusterLabels.values()].flatMap((l) => Object.keys(l)));
  for (const term of splitTerms(value)) {
    const m = SELECTOR_TERM.exec(term);
    const isSelector = m && (m[1] === '!' || m[3] !== undefined || m[5] !== undefined);
    if (!isSelector) {
      names.push(term);
      continue;
    }
    const key = labelKey(m![2], knownKeys);
    if (m![1] === '!') requirements.push({ key, operator: SelectorOperator.DOES_NOT_EXIST });
    else if (m![3] === '!=') requirements.push({ key, operator: SelectorOperator.NOT_IN, values: [m![4]] });
    else if (m![3] !== undefined) requirements.push({ key, operator: SelectorOperator.IN, values: [m![4]] });
    else requirements.push({ key, operator: m![5] === 'in' ? SelectorOperator.IN : SelectorOperator.NOT_IN, values: m![6].split(',').map((v) => v.trim()) });
  }
  const selector = ClusterSelector.fromLabelSelector({ matchExpressions: requirements });
  if (selector._problems.length > 0) throw new UsageError(within('--cluster', selector._problems.join('; ')));
  const named = nameMatcher(names);
  return (cluster) => named(cluster) && selector.matches(clusterLabels.get(cluster) ?? { [PlatformLabels.CLUSTER]: cluster });
}

function labelKey(key: string, known: Set<string>): string {
  if (known.has(key)) return key;
  const prefixed = `${PlatformLabels.PREFIX}/${key}`;
  if (known.has(prefixed)) return prefixed;
  const candidates = [...known].flatMap((k) => (k.startsWith(`${PlatformLabels.PREFIX}/`) ? [k, k.slice(PlatformLabels.PREFIX.length + 1)] : [k])).sort();
  throw new UsageError(describe('--cluster label', key, 'is on no cluster of the fleet', didYouMean(key, candidates)));
}

/** A release asked about: `<artifact>@<version>`, or `<image>:<tag>`. */
export interface ReleaseQuery {
  readonly text: string;
  readonly artifact: string;
  readonly version: string;
}

export function parseReleaseQuery(flag: string, text: string): ReleaseQuery {
  const at = text.lastIndexOf('@');
  const colon = text.lastIndexOf(':');
  let split = -1;
  if (at > 0) split = at;
  else if (colon > 0 && !text.slice(colon + 1).includes('/')) split = colon;
  if (split < 0 || split === text.length - 1) {
    throw new UsageError(describe(flag, text, 'names no version', `write ${flag} <artifact>@<version>, e.g. ${flag} checkout-api@1.4.2`));
  }
  return { text, artifact: text.slice(0, split), version: text.slice(split + 1) };
}

/** A repository URL without scheme, user, `.git` and trailing slash, lower case: `github.com/acme/app`. */
export function normalizeRepo(url: string): string {
  return url.trim().toLowerCase()
    .replace(/^[a-z][a-z0-9+.-]*:\/\//, '')
    .replace(/^[^@/]+@/, '')
    .replace(/^([^/:]+):(?!\d+\/)/, '$1/')
    .replace(/\/+$/, '').replace(/\.git$/, '');
}

/** What a column or a query calls an artifact: the chart name, else the repository's last part. */
export function artifactLabel(a: { repoUrl: string; name?: string }): string {
  if (a.name) return a.name;
  const parts = normalizeRepo(a.repoUrl).split('/');
  return parts[parts.length - 1];
}

/** Whether `query` (a URL, a path suffix of it, or a chart name) names the artifact. */
export function namesArtifact(query: string, a: { repoUrl: string; name?: string }): boolean {
  const q = normalizeRepo(query);
  const repo = normalizeRepo(a.repoUrl);
  return q === repo || repo.endsWith(`/${q}`) || (a.name !== undefined && q === a.name.toLowerCase())
    || (a.name !== undefined && q === `${repo}/${a.name.toLowerCase()}`);
}

/** Whether a recorded artifact is at `version`: an image's tag or digest, a chart's version, a commit (or its first 7+ characters). */
export function atVersion(a: RecordedArtifact, version: string): boolean {
  if (a.kind === 'git') return version.length >= 7 && a.version.toLowerCase().startsWith(version.toLowerCase());
  if (a.kind === 'image') return a.version === version || (a.digest !== undefined && (a.digest === version || (version.length >= 19 && a.digest.startsWith(version))));
  return a.version === version;
}
