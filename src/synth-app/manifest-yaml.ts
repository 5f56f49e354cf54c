import { Yaml } from 'cdk8s';
import { stringifyDocument } from './yaml-document';

/**
 * Writes synthesized Kubernetes objects as YAML, byte for byte what cdk8s's `Yaml.stringify`
 * writes (the `yaml` package, schema 1.1, `lineWidth: 0`), without building the `yaml` package's
 * document model for every object: that model is most of the cost of writing a large platform.
 *
 * Objects walk the block layout of `yaml` directly. Only scalars whose spelling needs the
 * package's judgement (quoting, YAML 1.1 look-alikes such as `yes` or `0755`, block literals,
 * non-integer numbers) are asked of `Yaml.stringify`, once per distinct value. Anything outside
 * the JSON shapes `ApiObject.toJson()` produces (undefined values, a shared object, a key that
 * is not a plain scalar, a string `yaml` would spell across lines) falls back to
 * `stringifyDocument` for the whole document: cdk8s's bytes, but for the strings that
 * `Yaml.stringify` would write so that they read back as another string.
 * @internal
 */
export class ManifestYaml {
  /** Scalars as the `yaml` package spells them in value position; `undefined` = fall back. */
  private readonly scalars = new Map<string, string | null>();
  /** Each key seen so far as it starts its line (`key:`), or null if it is not written plain; a handful of keys recur in every object. */
  private readonly keyPrefixes = new Map<string, string | null>();
  /** Counts, for tests and the benchmark. */
  public documentFallbacks = 0;

  /**
   * The documents as one multi-document YAML string, as `Yaml.stringify(...docs)` returns it
   * (see `stringifyDocument` for the one kind of string it writes otherwise).
   */
  public stringify(docs: readonly unknown[]): string {
    let out = '';
    for (let i = 0; i < docs.length; i++) {
      if (i > 0) out += '---\n';
      out += this.document(docs[i]);
    }
    return out;
  }

  private document(doc: unknown): string {
    if (doc === undefined) return '\n';
    if (doc !== null && typeof doc === 'object' && !Array.isArray(doc)) {
      const map = doc as Record<string, unknown>;
      if (Object.keys(map).length === 0) return '{}\n';
      try {
        return this.map(map, '', new Set());
      } catch (e) {
        if (e !== FALLBACK) throw e;
      }
    }
    this.documentFallbacks++;
    return stringifyDocument(doc);
  }

  /** A non-empty block map whose keys start at `indent`; each entry ends with a newline. */
  private map(map: Record<string, unknown>, indent: string, seen: Seen): string {
    if (seen.has(map)) throw FALLBACK; // `yaml` would write an anchor and an alias
    seen.add(map);
    let out = '';
    let first = true;
    for (const key in map) {
      let prefix = this.keyPrefixes.get(key);
      if (prefix === undefined) {
        prefix = isPlainKey(key) ? key + ':' : null;
        this.keyPrefixes.set(key, prefix);
      }
      if (prefix === null) throw FALLBACK;
      // after "- " the first key continues the item's line; fewer concatenations, fewer rope
      // nodes for the writer to flatten
      out += first ? prefix : indent + prefix;
      first = false;
      out += this.value(map[key], indent, seen, true);
    }
    return out;
  }

  /** A non-empty block sequence whose dashes start at `indent`. */
  private seq(items: unknown[], indent: string, seen: Seen): string {
    if (seen.has(items)) throw FALLBACK;
    seen.add(items);
    let out = '';
    for (let i = 0; i < items.length; i++) {
      if (i > 0) out += indent;
      out += '-';
      out += this.value(items[i], indent, seen, false);
    }
    return out;
  }

  /**
   * The rest of the line after `key:` (inMap) or `-`, and any nested lines, for a value whose
   * parent starts at `indent`.
   */
  private value(value: unknown, indent: string, seen: Seen, inMap: boolean): string {
    switch (typeof value) {
      case 'string':
        return ' ' + this.string(value, indent) + '\n';
      case 'number':
        return ' ' + (Number.isSafeInteger(value) && !Object.is(value, -0) ? String(value) : this.scalar(value)) + '\n';
      case 'boolean':
        return value ? ' true\n' : ' false\n';
      case 'object': {
        if (value === null) return ' null\n';
        const child = deeper(indent);
        if (Array.isArray(value)) {
          if (value.length === 0) return ' []\n';
          // `yaml` indents a sequence under a key, and writes a sequence in a sequence inline
          return inMap ? '\n' + child + this.seq(value, child, seen) : ' ' + this.seq(value, child, seen);
        }
        // an empty map writes nothing (and a map with a key writes something)
        const body = this.map(value as Record<string, unknown>, child, seen);
        if (body === '') return ' {}\n';
        return inMap ? '\n' + child + body : ' ' + body;
      }
      default:
        throw FALLBACK;
    }
  }

  /** A string in value position under a parent at `parent`; block literals are indented one step deeper. */
  private string(value: string, parent: string): string {
    // most strings are one line of printable ASCII starting with a letter (or a Kargo
    // expression's `$`, a path's `/`): decide those here
    if (SIMPLE_LINE.test(value)) {
      if (!NEEDS_QUOTES.test(value) && !isYaml11LookAlike(value)) return value;
      // `yaml` prefers double quotes; nothing in such a string needs escaping but these three
      if (!/["'\\]/.test(value)) return `"${value}"`;
    } else if (BLOCK_LITERAL.test(value) && value.includes('\n')) {
      // a block literal: strip (`|-`) or clip (`|`) the one final line break; empty lines stay
      // unindented (stringifyString.js, `blockString`, with lineWidth 0 never folded)
      const body = value.endsWith('\n') ? value.slice(0, -1) : value;
      const indent = deeper(parent);
      return `|${body === value ? '-' : ''}\n${indent}${body.replace(/\n+/g, `$&${indent}`)}`;
    }
    let spelled = this.scalars.get(value);
    if (spelled === undefined) {
      spelled = this.spell(value);
      this.scalars.set(value, spelled);
    }
    if (spelled === null) throw FALLBACK;
    // a block literal comes back indented for a top-level key: move its lines to this depth
    return spelled.startsWith('|') || spelled.startsWith('>') ? spelled.replace(/\n(?=[^\n])/g, '\n' + parent) : spelled;
  }

  private scalar(value: number): string {
    const text = Yaml.stringify(value);
    return text.slice(0, -1);
  }

  /**
   * How `yaml` spells a string as the value of a top-level key; null if it is not a single
   * quoted or plain line or a block literal at two spaces (which this emitter cannot re-indent).
   */
  private spell(value: string): string | null {
    const text = Yaml.stringify({ k: value });
    if (!text.startsWith('k: ') || !text.endsWith('\n')) return null;
    const body = text.slice(3, -1);
    if (body.startsWith('|') || body.startsWith('>')) {
      // every content line must be indented by exactly the block's two spaces (no indicator)
      const [header, ...lines] = body.split('\n');
      if (!/^[|>][-+]?$/.test(header)) return null;
      if (lines.some(l => l !== '' && !l.startsWith('  '))) return null;
      return body;
    }
    if (body.includes('\n')) return null;
    return body;
  }
}

const FALLBACK = Symbol('fallback');

/** The objects and arrays of a document written so far (a second visit means it is shared). */
type Seen = Set<object>;

/** Indents by length, made once: every nested value would otherwise make its own. */
const INDENTS: string[] = [];

/** The indent one step (two spaces) deeper than `indent`. */
function deeper(indent: string): string {
  const n = indent.length + 2;
  return INDENTS[n] ??= ' '.repeat(n);
}

/**
 * One line of printable ASCII starting with a letter, `$` or `/` (none of them an indicator that
 * `yaml` quotes for, nor the start of a YAML 1.1 number, timestamp or null). `yaml` writes such a
 * string plain unless it has `: ` or ` #` or ends in a space or colon (stringifyString.js,
 * `plainString`) or would read back as another YAML 1.1 type: a boolean or null word, or a float
 * like `e5` (schema/yaml-1.1); then it double-quotes it.
 */
const SIMPLE_LINE = /^[A-Za-z$/][\x20-\x7e]*$/;
const NEEDS_QUOTES = /: | #|[ :]$/;
/**
 * Printable ASCII lines that `yaml` writes as a block literal without an indentation indicator
 * or keep chomping: no leading whitespace, no trailing whitespace but at most one line break.
 */
const BLOCK_LITERAL = /^[!-~](?:[ -~\n]*[!-~])?\n?$/;
const YAML11_LOOKALIKE = /^(?:Y|y|[Yy]es|YES|[Tt]rue|TRUE|[Oo]n|ON|N|n|[Nn]o|NO|[Ff]alse|FALSE|[Oo]ff|OFF|[Nn]ull|NULL|[eE][-+]?[0-9]+)$/;

/** `YAML11_LOOKALIKE.test(value)`, asked only of what could match: five characters or fewer, or a leading `e`. */
function isYaml11LookAlike(value: string): boolean {
  return (value.length <= 5 || value[0] === 'e' || value[0] === 'E') && YAML11_LOOKALIKE.test(value);
}

/** Keys are written plain when they are plain strings without spaces (k8s keys always are). */
const PLAIN_KEY = /^[A-Za-z][A-Za-z0-9._/-]*$/;
function isPlainKey(key: string): boolean {
  return PLAIN_KEY.test(key) && !isYaml11LookAlike(key);
}
