import * as fs from 'fs';
import * as path from 'path';
import * as fc from 'fast-check';
import * as ts from 'typescript';
import { describe, expect, test } from 'vitest';
import { DEFINED_MEMBERS, linearConverters } from '../../projenrc/linear-converters';

// the three forms `cdk8s import` writes, as they read in imports/ before the import task rewrote them
const GENERATED = [
  'Object.entries(result).reduce((r, i) => (i[1] === undefined) ? r : ({ ...r, [i[0]]: i[1] }), {})',
  '((obj.labels) === undefined) ? undefined : (Object.entries(obj.labels).reduce((r, i) => (i[1] === undefined) ? r : ({ ...r, [i[0]]: i[1] }), {}))',
  '((obj.limits) === undefined) ? undefined : (Object.entries(obj.limits).reduce((r, i) => (i[1] === undefined) ? r : ({ ...r, [i[0]]: i[1]?.value }), {}))',
];

/** The function the rewrite appends, as JavaScript (its TypeScript types erased). */
const HELPER = ts.transpileModule(DEFINED_MEMBERS, { compilerOptions: { target: ts.ScriptTarget.ES2020 } }).outputText;

function compile(expression: string, variable: string): (input: unknown) => unknown {
  // eslint-disable-next-line @typescript-eslint/no-implied-eval
  return new Function(variable, `${HELPER}\nreturn ${expression};`) as (input: unknown) => unknown;
}

describe('linearConverters', () => {
  const key = fc.oneof(fc.string({ maxLength: 6 }), fc.constantFrom('__proto__', '0', '10', '1', 'constructor', 'toString'));
  const union = fc.record({ value: fc.oneof(fc.string(), fc.integer(), fc.constant(undefined)) });
  const value = fc.oneof(fc.constant(undefined), fc.constant(null), fc.string(), fc.integer(), union);
  const record = fc.dictionary(key, value, { maxKeys: 8 });

  test.each(GENERATED)('builds the same object as %s', generated => {
    const linear = linearConverters(generated).replace(DEFINED_MEMBERS, '');
    expect(linear).not.toContain('reduce');
    expect(linear).toContain('definedMembers(');
    const [variable, input] = generated.startsWith('Object.entries(result)') ? ['result', (x: unknown) => x] : ['obj', (x: unknown) => ({ labels: x, limits: x })];
    const before = compile(generated, variable);
    const after = compile(linear, variable);
    // `result` is the converter's own literal; a map field may be undefined
    const inputs = variable === 'result' ? record : fc.option(record, { nil: undefined });
    fc.assert(fc.property(inputs, r => {
      const [a, b] = [before(input(r)), after(input(r))] as [any, any];
      expect(b).toStrictEqual(a);
      if (a !== undefined) {
        expect(Object.getOwnPropertyNames(b)).toEqual(Object.getOwnPropertyNames(a));
        expect(Object.getPrototypeOf(b)).toBe(Object.getPrototypeOf(a));
      }
    }), { numRuns: 300 });
  });

  test('leaves no quadratic filter in the committed imports/', () => {
    const imports = path.join(__dirname, '..', '..', 'imports');
    for (const file of fs.readdirSync(imports).filter(f => f.endsWith('.ts'))) {
      const source = fs.readFileSync(path.join(imports, file), 'utf-8');
      expect(source, file).toContain('definedMembers(');
      expect(source.split(DEFINED_MEMBERS).length, file).toBe(2);
      expect(linearConverters(source), file).toBe(source);
      expect(source, file).not.toContain('.reduce((r, i)');
    }
  });
});
