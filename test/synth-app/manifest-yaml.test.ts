import { ApiObject, Testing, Yaml } from 'cdk8s';
import * as fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { defineGeneratedPlatform } from '../../bench/generated-platform';
import { ManifestYaml } from '../../src/synth-app/manifest-yaml';

function parseAll(text: string): unknown[] {
  return parseAllDocuments(text, { version: '1.1' }).map(d => d.toJSON());
}

describe('ManifestYaml', () => {
  const TRICKY = ['', ' ', 'yes', 'No', 'ON', 'off', 'y', 'N', 'null', '~', 'true', 'False', '0755', '0x1F', '1_000', '1:20', '12:30:00', '2024-01-01',
    '.inf', '-.5', '1e3', 'E123456789', 'e-77777', 'FALSE', 'False!', '+1', '<<', '-', '- a', '? x', 'a: b', 'a:', 'a #b', '#c', '@x', '`x`', '*a', '&a', '!t', '%p', '|', '>', '"q"', "'s'",
    'https://example.com:8443/x?y=z#frag', '${{ vars.x }}', '{{args.version}}', '[1]', '{a: 1}', 'a,b', '---', '...', 'a\nb', 'a\n\nb\n', '\nlead',
    'trail\n', 'trail\n\n', '$', '/', '$x: y', '/a #b', '$ ', '/:', '$yes', '/e5', '$"q"', "/'s'", '/a\nb', ' lead space\nx', 'tab\there', 'a \nb', 'ü ß 日本', 'emoji 🚀', 'back\\slash', 'cr\r\nlf', '\u0007bell', '  x  '];
  const line = fc.string({ unit: fc.constantFrom(...'aY10: -.#"\'\\_xeE+={(,\té$/'), maxLength: 8 });
  const multiline = fc.tuple(fc.array(line, { minLength: 2, maxLength: 4 }), fc.constantFrom('', '\n', '\n\n', ' ', '\n ')).map(([ls, end]) => ls.join('\n') + end);
  const tricky = fc.oneof(
    fc.constantFrom(...TRICKY),
    multiline,
    fc.string({ maxLength: 12 }),
    fc.string({ unit: fc.constantFrom(...'aY10: -.#\n"\'\\_xeE+={(,\t\x7fé$/'), maxLength: 10 }),
    fc.string({ minLength: 80, maxLength: 300 }),
  );
  // mostly keys as Kubernetes has them: an unusual key sends the whole document to Yaml.stringify.
  // `<<` is a merge key in YAML 1.1: cdk8s's own output does not read back for it, and no manifest has it
  const key = fc.oneof(
    { arbitrary: fc.stringMatching(/^[a-z][a-zA-Z0-9./_-]{0,12}$/), weight: 12 },
    { arbitrary: fc.constantFrom('yes', 'on', 'e5', '1', 'a b', 'a: b', '', '-x', 'x\ny'), weight: 1 },
    { arbitrary: tricky.filter(k => k !== '<<'), weight: 1 },
  );
  const scalar = fc.oneof(tricky, fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.boolean(), fc.constant(null),
    fc.constantFrom(0.5, -0, 1e21, 2 ** 60, -7));
  const { value } = fc.letrec(tie => ({
    value: fc.oneof({ depthSize: 'small', withCrossShrink: true }, scalar, tie('array'), tie('object')),
    array: fc.array(tie('value'), { maxLength: 4 }),
    object: fc.dictionary(key, tie('value'), { maxKeys: 5 }),
  }));
  const doc = fc.dictionary(key, value, { maxKeys: 6 });

  test('writes exactly what Yaml.stringify writes, and it parses back to the object', () => {
    fc.assert(fc.property(fc.array(doc, { minLength: 1, maxLength: 3 }), docs => {
      const text = new ManifestYaml().stringify(docs);
      if (!JSON.stringify(docs).includes('\\n \\n')) expect(text).toBe(Yaml.stringify(...docs));
      expect(parseAll(text)).toEqual(JSON.parse(JSON.stringify(docs)));
    }), { numRuns: 600 });
  });

  // found by the property above on CI (seed 596542578); yaml-document.test.ts has the cases
  test('a long string with a line of one space reads back, in a map, a sequence and a key', () => {
    const s = 'echo "start"\n \n  echo "done"  \n ';
    const docs = [{ k: s, other: 'Plain text' }, { deep: { list: [s, { [s]: s }] } }];
    const yaml = new ManifestYaml();
    expect(parseAll(yaml.stringify(docs))).toEqual(docs);
    expect(yaml.fallbacks).toBe(2);
  });

  test('each tricky string at every depth, in maps and sequences', () => {
    const docs = TRICKY.map(t => ({ top: t, map: { inner: { deep: t } }, seq: [t, { item: t, other: [t] }, [t, [t]]] }));
    const text = new ManifestYaml().stringify(docs);
    expect(text).toBe(Yaml.stringify(...docs));
  });

  test('every object of a generated platform parses back to what was synthesized', () => {
    const app = Testing.app();
    defineGeneratedPlatform(app, 24, 6);
    const yaml = new ManifestYaml();
    const objects = app.node.findAll().filter((c): c is ApiObject => c instanceof ApiObject).map(o => o.toJson());
    expect(objects.length).toBeGreaterThan(100);
    expect(parseAll(yaml.stringify(objects))).toEqual(objects);
    expect(yaml.fallbacks).toBe(0);
  });

  test('a shared object, array, empty map or empty list is left to Yaml.stringify, which writes an alias', () => {
    for (const shared of [{ a: 1 }, ['a'], {}, []]) {
      const docs = [{ x: shared, y: [shared] }];
      expect(new ManifestYaml().stringify(docs)).toBe(Yaml.stringify(...docs));
    }
  });
});
