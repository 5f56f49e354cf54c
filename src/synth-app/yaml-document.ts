import { createRequire } from 'module';
import { Yaml } from 'cdk8s';
import type * as YamlPackage from 'yaml';
import type * as YamlUtil from 'yaml/util';

/**
 * One document as cdk8s's `Yaml.stringify` writes it, except for the strings that `yaml`
 * writes so that they read back as another string.
 *
 * `yaml` (2.8.0 in cdk8s 2.70.0, and 2.9.1, the newest) breaks a long double-quoted string at
 * its line breaks, and escapes a space that starts a line so that folding keeps it. A line of
 * exactly one space is escaped twice over: `"...\n \n..."` comes out as `\\ `, a backslash and a
 * folded line, so `"a\"b\n \nc..."` reads back as `a"b\n\\\nc...`
 * (dist/stringify/stringifyString.js, `doubleQuotedString`: the `\n` case appends `\` for the
 * space, then the space-before-newline case appends `\ ` again). A script or an expression in a
 * manifest would reach the cluster changed. Only such a string is written on one line (the form
 * `yaml` uses below 40 characters, which escapes the space once); every other value, in the same
 * document too, keeps the bytes cdk8s writes: they are written by the copy of `yaml` that
 * cdk8s's `Yaml.stringify` uses, with its options (cdk8s `lib/yaml.js`).
 * @internal
 */
export function stringifyDocument(doc: unknown): string {
  if (!holdsString(doc, misfolded)) return Yaml.stringify(doc);
  const { yaml } = yamlOfCdk8s();
  return yaml.stringify(doc, { keepUndefined: true, lineWidth: 0, version: '1.1', customTags: withOneLineMisfolded });
}

let cdk8sYaml: { yaml: typeof YamlPackage; util: typeof YamlUtil } | undefined;

/**
 * The `yaml` package as cdk8s resolves it. cdk8s bundles its own (2.8.0 in cdk8s 2.70.0), and
 * another version spells strings differently: 2.9.1 writes `"\n \n"` as a block literal that
 * reads back as `"\n\n"`.
 */
function yamlOfCdk8s(): { yaml: typeof YamlPackage; util: typeof YamlUtil } {
  if (!cdk8sYaml) {
    const fromCdk8s = createRequire(createRequire(__filename).resolve('cdk8s'));
    cdk8sYaml = { yaml: fromCdk8s('yaml'), util: fromCdk8s('yaml/util') };
  }
  return cdk8sYaml;
}

/** Whether `yaml`'s folded double-quoted form would misspell the string (see `stringifyDocument`). */
function misfolded(value: string): boolean {
  return value.includes('\n \n');
}

function withOneLineMisfolded(tags: YamlPackage.Tags): YamlPackage.Tags {
  const { stringTag, stringifyString } = yamlOfCdk8s().util;
  return tags.map(tag => tag !== stringTag ? tag : {
    ...stringTag,
    stringify: (item, ctx, onComment, onChompKeep) => {
      const value = (item as YamlPackage.Scalar).value;
      const options = typeof value === 'string' && misfolded(value)
        ? { ...ctx.options, doubleQuotedMinMultiLineLength: Number.POSITIVE_INFINITY }
        : ctx.options;
      const oneLine = { ...ctx, options, actualString: true } as Parameters<typeof stringifyString>[1];
      return stringifyString(item as YamlPackage.Scalar, oneLine, onComment, onChompKeep);
    },
  });
}

/** Whether any string in the JSON-like value, key or value, satisfies the test. */
function holdsString(value: unknown, test: (s: string) => boolean, seen = new Set<object>()): boolean {
  if (typeof value === 'string') return test(value);
  if (value === null || typeof value !== 'object' || seen.has(value)) return false;
  seen.add(value);
  if (Array.isArray(value)) return value.some(v => holdsString(v, test, seen));
  for (const key in value) {
    if (test(key) || holdsString((value as Record<string, unknown>)[key], test, seen)) return true;
  }
  return false;
}
