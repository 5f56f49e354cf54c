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
  // a JSON round trip, without the text in between: this runs for every step of every Stage
  return jsonCopy(value, true) as T;
}

/** What `JSON.parse(JSON.stringify(value))` returns, for the plain data the emitters build. */
function jsonCopy(value: any, top: boolean): any {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      return Number.isFinite(value) ? value + 0 : null; // -0 becomes 0, as in JSON
    case 'bigint':
      return JSON.stringify(value); // throws, as JSON does
    case 'object': {
      if (value === null) return null;
      if (Array.isArray(value)) {
        const items = new Array(value.length);
        for (let i = 0; i < value.length; i++) {
          const copy = jsonCopy(value[i], false);
          items[i] = copy === undefined ? null : copy;
        }
        return items;
      }
      const proto = Object.getPrototypeOf(value);
      if ((proto !== Object.prototype && proto !== null) || typeof value.toJSON === 'function') {
        return JSON.parse(JSON.stringify(value)); // Dates, class instances: let JSON decide
      }
      const out: Record<string, any> = {};
      for (const key of Object.keys(value)) {
        const copy = jsonCopy(value[key], false);
        if (copy === undefined) continue;
        // an own "__proto__" key stays data, as JSON.parse makes it; assignment would set the prototype
        if (key === '__proto__') Object.defineProperty(out, key, { value: copy, enumerable: true, writable: true, configurable: true });
        else out[key] = copy;
      }
      return out;
    }
    default:
      // undefined, functions and symbols vanish from objects (and become null in arrays);
      // JSON.parse would throw on the top level's `undefined` text
      if (top) return JSON.parse(JSON.stringify(value) as string);
      return undefined;
  }
}
