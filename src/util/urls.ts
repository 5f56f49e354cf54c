import { hasSecretQuery } from './redact';

/**
 * The one URL rule: what a URL the library accepts must not be. Callers word the message for
 * their field (and redact what they show); the defects are found in one order everywhere, with
 * credentials first, so a URL carrying credentials is always reported as such.
 */

/** What a URL is checked for. @internal */
export interface UrlRule {
  /** The accepted schemes, e.g. `['https:']`. */
  readonly schemes: string[];
  /** Refuse a query or fragment. */
  readonly noQueryOrFragment?: boolean;
  /** Require a path beyond `/` (a repository, not a host). */
  readonly requirePath?: boolean;
}

/** The first thing wrong with a URL. @internal */
export type UrlDefect = 'not-a-url' | 'credentials' | 'query-or-fragment' | 'scheme' | 'no-path';

/** The first defect of `url` under `rule`, or undefined when it has none. @internal */
export function urlDefect(url: string, rule: UrlRule): UrlDefect | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'not-a-url';
  }
  if (parsed.username || parsed.password || hasSecretQuery(parsed)) return 'credentials';
  if (rule.noQueryOrFragment && (parsed.search || parsed.hash)) return 'query-or-fragment';
  if (!rule.schemes.includes(parsed.protocol)) return 'scheme';
  if (rule.requirePath && parsed.pathname.length <= 1) return 'no-path';
  return undefined;
}
