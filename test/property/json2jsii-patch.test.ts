import { execFileSync } from 'child_process';
import * as fs from 'fs';
import { createRequire } from 'module';
import * as os from 'os';
import * as path from 'path';
import * as vm from 'vm';
import * as fc from 'fast-check';
import * as ts from 'typescript';
import { afterAll, describe, expect, test } from 'vitest';

// patches/json2jsii-0.5.19-linear-tojson.patch, offered upstream: the converters cdk8s import
// generates build each object once instead of once per defined value, and convert as before
const ROOT = path.join(__dirname, '..', '..');
const PATCH = path.join(ROOT, 'patches', 'json2jsii-0.5.19-linear-tojson.patch');
/** json2jsii as `cdk8s import` (cdk8s-cli) resolves it. */
const installed = path.dirname(createRequire(path.join(ROOT, 'node_modules', 'cdk8s-cli', 'package.json')).resolve('json2jsii/package.json'));
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'json2jsii-'));
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

/** A copy of the installed json2jsii with the patch applied (its dependencies resolved from the installed one's). */
function patchedJson2jsii(): string {
  const copy = path.join(scratch, 'node_modules', 'json2jsii');
  fs.cpSync(installed, copy, { recursive: true });
  const from = createRequire(path.join(installed, 'package.json'));
  for (const dep of Object.keys(JSON.parse(fs.readFileSync(path.join(installed, 'package.json'), 'utf-8')).dependencies)) {
    fs.symlinkSync(path.dirname(from.resolve(`${dep}/package.json`)), path.join(scratch, 'node_modules', dep));
  }
  execFileSync('git', ['init', '-q'], { cwd: scratch });
  execFileSync('git', ['apply', PATCH], { cwd: scratch });
  return copy;
}

// the shapes CRD schemas give converters: renamed fields, nested structs, maps of structs and of
// strings, arrays, int-or-string unions
const SCHEMA = {
  type: 'object',
  properties: {
    'name': { type: 'string' },
    'some-field': { type: 'string' },
    'port': { 'x-kubernetes-int-or-string': true },
    'labels': { type: 'object', additionalProperties: { type: 'string' } },
    'nested': { type: 'object', properties: { 'value-from': { type: 'string' }, 'count': { type: 'integer' } } },
    'byName': { type: 'object', additionalProperties: { type: 'object', properties: { 'a-b': { type: 'string' }, 'c': { type: 'boolean' } } } },
    'items': { type: 'array', items: { type: 'object', properties: { key: { type: 'string' }, optional: { type: 'string' } } } },
  },
};

/** The converter of SCHEMA that `json2jsii` (a package directory) generates, as TypeScript and as a function. */
function converter(json2jsii: string): { source: string; convert: (x: unknown) => unknown } {
  const { TypeGenerator } = createRequire(path.join(json2jsii, 'package.json'))(json2jsii);
  const source: string = TypeGenerator.forStruct('Spec', SCHEMA).render();
  const js = ts.transpileModule(source, { compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2020 } }).outputText;
  const exports: Record<string, any> = {};
  vm.runInThisContext(`(function (exports) {\n${js}\n})`)(exports);
  return { source, convert: exports.toJson_Spec };
}

describe('patches/json2jsii-0.5.19-linear-tojson.patch', () => {
  test('is made for the json2jsii cdk8s import runs', () => {
    expect(JSON.parse(fs.readFileSync(path.join(installed, 'package.json'), 'utf-8')).version).toBe('0.5.19');
  });

  test('the patched converters spread nothing in a reduce, and convert generated values as the released ones do', () => {
    const released = converter(installed);
    const patched = converter(patchedJson2jsii());
    expect(released.source).toContain('.reduce((r, i) => (i[1] === undefined) ? r : ({ ...r,');
    expect(patched.source).not.toContain('.reduce(');
    const maybe = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });
    const key = fc.oneof(fc.string({ maxLength: 4 }), fc.constantFrom('__proto__', '10', '2', 'a-b'));
    const input = fc.record({
      name: maybe(fc.string()),
      someField: maybe(fc.string()),
      port: maybe(fc.oneof(fc.integer(), fc.string()).map(value => ({ value }))),
      labels: maybe(fc.dictionary(key, maybe(fc.string()), { maxKeys: 4 })),
      nested: maybe(fc.record({ valueFrom: maybe(fc.string()), count: maybe(fc.integer()) })),
      byName: maybe(fc.dictionary(key, maybe(fc.record({ aB: maybe(fc.string()), c: maybe(fc.boolean()) })), { maxKeys: 4 })),
      items: maybe(fc.array(fc.record({ key: maybe(fc.string()), optional: maybe(fc.string()) }), { maxLength: 3 })),
    });
    fc.assert(fc.property(input, value => {
      // JSON text: key order counts, and an own `__proto__` member is written (a prototype would not be)
      expect(JSON.stringify(patched.convert(value))).toBe(JSON.stringify(released.convert(value)));
    }), { numRuns: 500 });
  });
});
