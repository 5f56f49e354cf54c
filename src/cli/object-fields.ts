import { canonicalJson, compare } from './manifest-set';

/** One changed field of an object: a JSON pointer with the values before and after. */
export interface FieldChange {
  /** RFC 6901 JSON pointer, e.g. `/spec/template/metadata/name`. */
  readonly path: string;
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
 * Objects and equally long arrays are compared member by member; anything else is one leaf.
 * A Secret's `data`/`stringData` fields are listed without values.
 */
export function fieldChanges(before: unknown, after: unknown): FieldChange[] {
  const out: FieldChange[] = [];
  const walk = (b: unknown, a: unknown, pointer: string) => {
    if (isObject(b) && isObject(a)) {
      for (const k of [...new Set([...Object.keys(b), ...Object.keys(a)])].sort(compare)) walk(b[k], a[k], `${pointer}/${pointerToken(k)}`);
      return;
    }
    if (Array.isArray(b) && Array.isArray(a) && b.length === a.length) {
      b.forEach((x, i) => walk(x, a[i], `${pointer}/${i}`));
      return;
    }
    if (canonicalJson(b) === canonicalJson(a)) return;
    if (isSecretField(before, pointer) || isSecretField(after, pointer)) {
      out.push({ path: pointer, redacted: true });
      return;
    }
    out.push({ path: pointer, ...(b === undefined ? {} : { before: b }), ...(a === undefined ? {} : { after: a }) });
  };
  walk(before, after, '');
  return out;
}

/** `path: before → after` in one line (values as JSON, `(none)` when absent, `(redacted)` for secrets). */
export function describeFieldChange(f: FieldChange, maxValue = 80): string {
  if (f.redacted) return `${f.path}: (redacted)`;
  const show = (v: unknown) => {
    if (v === undefined) return '(none)';
    const text = JSON.stringify(v);
    return text.length > maxValue ? `${text.slice(0, maxValue - 1)}…` : text;
  };
  return `${f.path}: ${show(f.before)} → ${show(f.after)}`;
}
