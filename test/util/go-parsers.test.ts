import * as fs from 'fs';
import * as path from 'path';
import * as zlib from 'zlib';
import { describe, expect, test } from 'vitest';
import { GO_PARSERS_WASM, goParse, goProblem } from '../../src/util/go-parsers';

// The module is Go's own code: these cases only prove that the bridge carries values and verdicts
// both ways (go/parsers has the Go tests of each parser).
describe('the Go parsers', () => {
  test('are shipped as a WASI reactor that needs no JavaScript glue from the Go toolchain', () => {
    const wasm = (globalThis as any).WebAssembly;
    const module = new wasm.Module(zlib.brotliDecompressSync(fs.readFileSync(path.join(__dirname, '..', '..', GO_PARSERS_WASM))));
    expect(wasm.Module.exports(module).map((e: { name: string }) => e.name).sort()).toEqual(['_initialize', 'alloc', 'call', 'memory', 'result']);
    expect(new Set(wasm.Module.imports(module).map((i: { module: string }) => i.module))).toEqual(new Set(['wasi_snapshot_preview1']));
  });

  test('answer with Go\'s own message', () => {
    expect(goProblem('timezone', 'europe/berlin')).toBe('unknown time zone europe/berlin');
    expect(goProblem('timezone', 'Europe/Berlin')).toBeUndefined();
    expect(goProblem('regexp', '^v\\d+\\Z')).toBe('error parsing regexp: invalid escape sequence: `\\Z`');
    expect(goProblem('semver', '>=1.0.0 && <2.0.0')).toBe('improper constraint: >=1.0.0 && <2.0.0');
    expect(goProblem('rollouts-condition', 'result < 0.05', 'vector')).toBe('invalid operation: < (mismatched types []float64 and float64) (1:8)');
  });

  test('carry text that is not ASCII both ways', () => {
    expect(goProblem('regexp', 'é+(')).toBe('error parsing regexp: missing closing ): `é+(`');
    expect(goProblem('kargo-when', "request.header('Ünïcode') == '✓'")).toBeUndefined();
  });

  test('return what the parsed value says', () => {
    expect(goParse('cron', '@weekly', 'descriptor').cron).toMatchObject({ minutes: [0], hours: [0], daysOfWeek: [0], dayOfMonthStar: true });
  });

  test('keep a long value intact', () => {
    const long = `^(${Array.from({ length: 2000 }, (_, i) => `v${i}`).join('|')})$`;
    expect(goProblem('regexp', long)).toBeUndefined();
    expect(goProblem('regexp', `${long}(`)).toMatch(/^error parsing regexp: missing closing \)/);
  });
});
