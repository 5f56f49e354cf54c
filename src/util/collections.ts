/**
 * Drops empty arrays and maps from the output so manifests and snapshots stay small.
 * @internal
 */
export function undefinedIfEmpty<T>(value: T[] | undefined): T[] | undefined;
export function undefinedIfEmpty<T>(value: Record<string, T> | undefined): Record<string, T> | undefined;
export function undefinedIfEmpty(value: any): any {
  if (value === undefined) return undefined;
  if (Array.isArray(value)) return value.length === 0 ? undefined : value;
  return Object.keys(value).length === 0 ? undefined : value;
}

/**
 * Returns the values that occur more than once, in order of first repetition.
 * @internal
 */
export function duplicates(values: string[]): string[] {
  const seen = new Set<string>();
  const dup = new Set<string>();
  for (const v of values) {
    if (seen.has(v)) dup.add(v);
    seen.add(v);
  }
  return [...dup];
}

/**
 * A deep copy without `undefined` members, for untyped (preserve-unknown) fields of generated
 * objects that would otherwise keep them.
 * @internal
 */
export function compact<T>(value: T): T {
  return JSON.parse(JSON.stringify(value));
}
