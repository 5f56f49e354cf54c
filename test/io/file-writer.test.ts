import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { FileWriter, ThreadWriter, WORKER_THRESHOLD } from '../../src/io/file-writer';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'writer-'));
});
afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('FileWriter', () => {
  test.each([['in place', 1], ['on its thread', WORKER_THRESHOLD]])('writes every file before close() returns (%s)', (_, count) => {
    const files = FileWriter.open(count);
    for (let i = 0; i < count; i++) files.write(path.join(dir, `f${i}`), `ä ${i}\n`.repeat(1000));
    files.close();
    expect(fs.readdirSync(dir).length).toBe(count);
    expect(fs.readFileSync(path.join(dir, `f${count - 1}`), 'utf-8')).toBe(`ä ${count - 1}\n`.repeat(1000));
  });

  test('close() throws the first write error with its code, and quietly when told to', () => {
    const failing = () => {
      const files = FileWriter.open(WORKER_THRESHOLD);
      files.write(path.join(dir, 'missing', 'f'), 'x');
      files.write(path.join(dir, 'after'), 'x');
      return files;
    };
    let error: any;
    try {
      failing().close();
    } catch (e) {
      error = e;
    }
    expect(error?.message).toMatch(/^ENOENT: no such file or directory, open '.*missing\/f'$/);
    expect(error?.code).toBe('ENOENT');
    // it stops at the first error, as writing in place would
    expect(fs.existsSync(path.join(dir, 'after'))).toBe(false);
    expect(() => failing().close({ quiet: true })).not.toThrow();
  });

  test('a thread that never runs: close() writes what it was handed in place', () => {
    // a worker that neither says it started nor writes: what a runtime that cannot run it leaves
    const files = new ThreadWriter('require("worker_threads");', 200);
    files.write(path.join(dir, 'a'), 'ä\n');
    files.write(path.join(dir, 'b'), 'b\n');
    files.close();
    expect(fs.readFileSync(path.join(dir, 'a'), 'utf-8')).toBe('ä\n');
    expect(fs.readdirSync(dir).sort()).toEqual(['a', 'b']);
  });
});
