import { Yaml } from 'cdk8s';
import { yamlDocument } from './yaml-document';

/**
 * Writes documents as cdk8s's `Yaml.stringify(...docs)` does (`yaml`, schema 1.1, `lineWidth: 0`),
 * byte for byte, without `yaml`'s document model, which costs ten times the rest of a synthesis:
 * maps and sequences in `yaml`'s block layout, a scalar that needs `yaml`'s judgement asked of
 * `Yaml.stringify` once per value. A document with anything else (an object twice, which `yaml`
 * aliases; an undefined; a key that is not plain; a string over several lines) goes to `yamlDocument`.
 * @internal
 */
export class ManifestYaml {
  /** Strings as `yaml` spells them in value position; null: not by this emitter. */
  private readonly strings = new Map<string, string | null>();
  /** Each key as it starts its line (`key:`); null: not a plain key. */
  private readonly keys = new Map<string, string | null>();
  public fallbacks = 0; // how many documents went to `yamlDocument` (for tests)

  public stringify(docs: readonly unknown[]): string {
    return docs.map(doc => this.document(doc)).join('---\n');
  }

  private document(doc: unknown): string {
    if (doc === undefined) return '\n';
    try {
      const body = doc !== null && typeof doc === 'object' && !Array.isArray(doc) ? this.block(doc, '', new Set()) : '';
      if (body !== '') return body;
    } catch (e) {
      if (e !== FALLBACK) throw e;
    }
    this.fallbacks++;
    return yamlDocument(doc);
  }

  /** A block map or sequence whose keys or dashes start at `indent`, the first on the current line ('' if empty). */
  private block(collection: object, indent: string, seen: Set<object>): string {
    if (seen.has(collection)) throw FALLBACK;
    seen.add(collection);
    let out = '';
    if (Array.isArray(collection)) {
      for (let i = 0; i < collection.length; i++) out += (i === 0 ? '-' : indent + '-') + this.value(collection[i], indent, seen, false);
      return out;
    }
    for (const key in collection) {
      let prefix = this.keys.get(key);
      if (prefix === undefined) this.keys.set(key, prefix = PLAIN_KEY.test(key) && !isYaml11Word(key) ? key + ':' : null);
      if (prefix === null) throw FALLBACK;
      out += (out === '' ? prefix : indent + prefix) + this.value((collection as Record<string, unknown>)[key], indent, seen, true);
    }
    return out;
  }

  /** The rest of the line after `key:` (inMap) or `-` of a parent at `indent`, and the lines nested in it. */
  private value(value: unknown, indent: string, seen: Set<object>, inMap: boolean): string {
    switch (typeof value) {
      case 'string': return ' ' + this.string(value, indent) + '\n';
      case 'number': return ' ' + (Number.isSafeInteger(value) && !Object.is(value, -0) ? String(value) : Yaml.stringify(value).slice(0, -1)) + '\n';
      case 'boolean': return value ? ' true\n' : ' false\n';
      case 'object': {
        if (value === null) return ' null\n';
        const child = INDENTS[indent.length + 2] ??= ' '.repeat(indent.length + 2);
        const body = this.block(value, child, seen);
        if (body === '') return Array.isArray(value) ? ' []\n' : ' {}\n';
        // `yaml` starts a collection under a key on the next line, one in a sequence on the dash's
        return inMap ? '\n' + child + body : ' ' + body;
      }
      default: throw FALLBACK;
    }
  }

  /** A string in value position under a parent at `parent` (block literal lines one step deeper). */
  private string(value: string, parent: string): string {
    if (SIMPLE_LINE.test(value)) {
      if (!NEEDS_QUOTES.test(value) && !isYaml11Word(value)) return value;
      if (!/["'\\]/.test(value)) return `"${value}"`; // `yaml` prefers double quotes; nothing to escape
    } else if (BLOCK_LITERAL.test(value) && value.includes('\n')) {
      // clip (`|`) or strip (`|-`) the one final line break; empty lines stay unindented
      // (yaml dist/stringify/stringifyString.js, `blockString`, never folded at lineWidth 0)
      const body = value.endsWith('\n') ? value.slice(0, -1) : value;
      const indent = INDENTS[parent.length + 2] ??= ' '.repeat(parent.length + 2);
      return `|${body === value ? '-' : ''}\n${indent}${body.replace(/\n+/g, `$&${indent}`)}`;
    }
    let spelled = this.strings.get(value);
    if (spelled === undefined) {
      // one line as a top-level key's value is that line anywhere; anything longer is left to `yaml`
      const text = Yaml.stringify({ k: value });
      this.strings.set(value, spelled = /^k: [^\n]*\n$/.test(text) ? text.slice(3, -1) : null);
    }
    if (spelled === null) throw FALLBACK;
    return spelled;
  }
}

const FALLBACK = Symbol('fallback');

const INDENTS: string[] = []; // by length, each made once

/**
 * One line of printable ASCII starting with a letter, `$` or `/` (no indicator, nor a YAML 1.1
 * number, timestamp or null): `yaml` writes it plain unless it has `: ` or ` #`, ends in a space
 * or colon (stringifyString.js, `plainString`) or reads back as a YAML 1.1 boolean, null or float.
 */
const SIMPLE_LINE = /^[A-Za-z$/][\x20-\x7e]*$/;
const NEEDS_QUOTES = /: | #|[ :]$/;
/** Printable ASCII that `yaml` writes as a block literal without indentation indicator or keep chomping. */
const BLOCK_LITERAL = /^[!-~](?:[ -~\n]*[!-~])?\n?$/;
const YAML11_WORD = /^(?:Y|y|[Yy]es|YES|[Tt]rue|TRUE|[Oo]n|ON|N|n|[Nn]o|NO|[Ff]alse|FALSE|[Oo]ff|OFF|[Nn]ull|NULL|[eE][-+]?[0-9]+)$/;
const PLAIN_KEY = /^[A-Za-z][A-Za-z0-9._/-]*$/; // the keys written plain: every Kubernetes key

/** `YAML11_WORD.test(value)`, asked only of what could match: five characters or fewer, or a leading `e`. */
function isYaml11Word(value: string): boolean {
  return (value.length <= 5 || value[0] === 'e' || value[0] === 'E') && YAML11_WORD.test(value);
}
