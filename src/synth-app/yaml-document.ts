import { createRequire } from 'module';
import { Yaml } from 'cdk8s';
import type * as YamlPackage from 'yaml';
import type * as YamlUtil from 'yaml/util';

/**
 * One document as cdk8s's `Yaml.stringify` writes it, but for a long string with a line of exactly
 * one space, which `yaml` (2.8.0 in cdk8s 2.70.0, and 2.9.1) folds with that space escaped twice,
 * so that it reads back with a backslash (dist/stringify/stringifyString.js, `doubleQuotedString`):
 * such a string is written on one line, as `yaml` writes short ones, by the copy of `yaml` cdk8s
 * uses, with cdk8s's options (lib/yaml.js); every other value keeps cdk8s's bytes.
 * @internal
 */
export function yamlDocument(doc: unknown): string {
  if (!holdsMisfolded(doc)) return Yaml.stringify(doc);
  const fromCdk8s = createRequire(createRequire(__filename).resolve('cdk8s'));
  const yaml: typeof YamlPackage = fromCdk8s('yaml');
  const { stringTag, stringifyString }: typeof YamlUtil = fromCdk8s('yaml/util');
  const customTags = (tags: YamlPackage.Tags) => tags.map(tag => tag !== stringTag ? tag : {
    ...stringTag,
    stringify: (item: YamlPackage.Scalar, ctx: any, onComment?: () => void, onChompKeep?: () => void) => {
      const oneLine = misfolded(item.value) ? { ...ctx.options, doubleQuotedMinMultiLineLength: Number.POSITIVE_INFINITY } : ctx.options;
      return stringifyString(item, { ...ctx, options: oneLine, actualString: true }, onComment, onChompKeep);
    },
  });
  return yaml.stringify(doc, { keepUndefined: true, lineWidth: 0, version: '1.1', customTags });
}

function misfolded(value: unknown): boolean {
  return typeof value === 'string' && value.includes('\n \n');
}

/** Whether a string in the document, key or value, may be misfolded (a false yes costs time only). */
function holdsMisfolded(doc: unknown): boolean {
  try {
    return JSON.stringify(doc)?.includes('\\n \\n') ?? false;
  } catch {
    return true;
  }
}
