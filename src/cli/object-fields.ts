import { canonicalJson, compare } from './manifest-set';
import { redactSecrets } from '../util/redact';

/** One changed field of an object: a JSON pointer with the values before and after. */
export interface FieldChange {
  /**
   * RFC 6901 JSON pointer, e.g. `/spec/template/metadata/name`, where an element of an array whose
   * elements have names is `[name=<name>]` instead of its index: `/spec/metrics[name=error-rate]/count`.
   */
  readonly path: string;
  /** Set when the field is a whole array element that was added or removed (`before` or `after` holds it). */
  readonly element?: 'added' | 'removed';
  /** Absent when the field is new, or when it is redacted. */
  readonly before?: unknown;
  /** Absent when the field is gone, or when it is redacted. */
  readonly after?: unknown;
  /** True for a Secret's `data`/`stringData`: the values are never shown. */
  readonly redacted?: true;
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** RFC 6901: `~` → `~0`, `/` → `~1`. */
export function pointerToken(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** Whether a field of an object holds secret material: a core Secret's `data` and `stringData`. */
export function isSecretField(obj: any, pointer: string): boolean {
  return obj?.kind === 'Secret' && String(obj?.apiVersion ?? '') === 'v1' && /^\/(data|stringData)(\/|$)/.test(pointer);
}

/**
 * The leaf fields that differ between two versions of an object, as JSON pointers, sorted.
 * Objects are compared member by member. Arrays of objects are compared element by element: by
 * `name` when every element of both has a distinct string `name` (metrics, destinations, promotion
 * steps: the fields that change most, so the path names the element, `[name=x]`), else by index;
 * an element only one side has is listed whole as added or removed. Other arrays of the same length
 * are compared by index; anything else is one leaf. A Secret's `data`/`stringData` fields are listed without values.
 */
export function fieldChanges(before: unknown, after: unknown): FieldChange[] {
  const out: FieldChange[] = [];
  const leaf = (b: unknown, a: unknown, pointer: string, element?: 'added' | 'removed') => {
    if (isSecretField(before, pointer) || isSecretField(after, pointer)) {
      out.push({ path: pointer, redacted: true });
      return;
    }
    out.push({ path: pointer, ...(element ? { element } : {}), ...(b === undefined ? {} : { before: b }), ...(a === undefined ? {} : { after: a }) });
  };
  const walk = (b: unknown, a: unknown, pointer: string) => {
    if (isObject(b) && isObject(a)) {
      for (const k of [...new Set([...Object.keys(b), ...Object.keys(a)])].sort(compare)) walk(b[k], a[k], `${pointer}/${pointerToken(k)}`);
      return;
    }
    // arrays of objects element by element; a list of values (cluster names, args) of the same
    // length value by value, else whole: its before and after read better than a shifted index
    if (Array.isArray(b) && Array.isArray(a) && (b.length === a.length || [...b, ...a].every(isObject))) {
      for (const [key, x, y] of arrayElements(b, a)) {
        const at = `${pointer}${key}`;
        if (x === undefined) leaf(undefined, y, at, 'added');
        else if (y === undefined) leaf(x, undefined, at, 'removed');
        else walk(x, y, at);
      }
      return;
    }
    if (canonicalJson(b) === canonicalJson(a)) return;
    leaf(b, a, pointer);
  };
  walk(before, after, '');
  return out;
}

/** The names of an array's elements, when every element is an object with a distinct string `name`. */
function elementNames(list: unknown[]): string[] | undefined {
  const names = list.map((e) => (isObject(e) && typeof e.name === 'string' ? e.name : undefined));
  return names.every((n): n is string => n !== undefined) && new Set(names).size === names.length ? names : undefined;
}

/**
 * The elements of two arrays paired as `[pointer suffix, before, after]`: by name (in the order of
 * `after`, then the removed ones) when both sides' elements have names, else by index.
 */
function arrayElements(b: unknown[], a: unknown[]): Array<[string, unknown, unknown]> {
  const bn = elementNames(b);
  const an = elementNames(a);
  if (bn && an && (b.length > 0 || a.length > 0)) {
    const pairs: Array<[string, unknown, unknown]> = an.map((n, i) => [`[name=${n}]`, bn.includes(n) ? b[bn.indexOf(n)] : undefined, a[i]]);
    bn.forEach((n, i) => {
      if (!an.includes(n)) pairs.push([`[name=${n}]`, b[i], undefined]);
    });
    return pairs;
  }
  return Array.from({ length: Math.max(b.length, a.length) }, (_, i) => [`/${i}`, b[i], a[i]]);
}

/**
 * `path: before → after` in one line (values as JSON, `(none)` when absent, `(redacted)` for
 * secrets); an added or removed array element as `path: added` / `path: removed`. Values longer
 * than `maxValue` are shown around their first difference, so the change itself is always in
 * sight: `…result[0] < 0.01` → `…result[0] < 0.0201`. A credential in a value is masked before
 * the value is cut: a window that began inside it would show a piece the CLI's redaction of the
 * whole output no longer recognizes.
 */
export function describeFieldChange(f: FieldChange, maxValue = 80): string {
  if (f.redacted) return `${f.path}: (redacted)`;
  if (f.element) return `${f.path}: ${f.element}`;
  const before = f.before === undefined ? '(none)' : redactSecrets(JSON.stringify(f.before));
  const after = f.after === undefined ? '(none)' : redactSecrets(JSON.stringify(f.after));
  if (before.length <= maxValue && after.length <= maxValue) return `${f.path}: ${before} → ${after}`;
  let first = 0;
  while (first < before.length && first < after.length && before[first] === after[first]) first++;
  // the window starts a little before the first difference, so that it reads in context
  const start = Math.max(0, Math.min(first - Math.floor(maxValue / 3), Math.max(before.length, after.length) - maxValue));
  const window = (text: string) => {
    const from = Math.min(start, Math.max(0, text.length - maxValue));
    const end = from + maxValue;
    return `${from > 0 ? '…' : ''}${text.slice(from, end)}${end < text.length ? '…' : ''}`;
  };
  return `${f.path}: ${window(before)} → ${window(after)}`;
}
