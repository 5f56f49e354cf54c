import { comparePointers } from './json-pointer';

/**
 * One problem found in one object, before it is tagged with the object's identity and source.
 */
export interface Finding {
  /** JSON pointer into the object ('' = the whole object). */
  readonly path: string;
  readonly message: string;
}

/** Renders a value for a message: short, unambiguous (strings quoted). */
export function show(value: unknown): string {
  let text: string;
  try {
    text = value === undefined ? 'undefined' : JSON.stringify(value);
  } catch {
    text = String(value);
  }
  return text.length > 100 ? text.slice(0, 97) + '...' : text;
}

/** Sorts by path, then message, and drops exact duplicates (two rules may spot the same thing). */
export function normalizeFindings(findings: Finding[]): Finding[] {
  const sorted = [...findings].sort((a, b) => comparePointers(a.path, b.path) || (a.message < b.message ? -1 : a.message > b.message ? 1 : 0));
  return sorted.filter((f, i) => i === 0 || f.path !== sorted[i - 1].path || f.message !== sorted[i - 1].message);
}
