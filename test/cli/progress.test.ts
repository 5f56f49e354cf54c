import * as fs from 'fs';
import * as path from 'path';
import { describe, expect, test } from 'vitest';
import { run } from '../../src/cli';
import { Progress } from '../../src/cli/progress';
import { recordingIo } from '../support/cli-fixtures';
import { ROOT, tempDir } from '../support/cli-temp-dirs';

describe('progress', () => {
  const slow = () => new Promise<string>((resolve) => setTimeout(() => resolve('done'), 1300));

  test('on a terminal, a step longer than a second shows its label and elapsed time, then erases it', async () => {
    const err: string[] = [];
    expect(await new Progress({ stderr: (t) => err.push(t), stderrIsTty: true }).around('synthesizing', slow)).toBe('done');
    expect(err).toEqual(['\rsynthesizing… 1s\x1b[K', '\r\x1b[K']);
  });

  test('validate on a terminal: the blocking check is announced, then erased; nothing without a TTY or with --quiet', async () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, 'cm.yaml'), 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  namespace: a\n');
    const tty = recordingIo(ROOT, true);
    expect(await run(['validate', dir], tty.io)).toBe(0);
    const rel = path.relative(ROOT, dir);
    expect(tty.err).toEqual([`\rvalidating ${rel}…\x1b[K`, '\r\x1b[K', `no problems below ${rel}\n`]);
    for (const [argv, isTty] of [[['validate', dir], false], [['validate', '--quiet', dir], true]] as const) {
      const other = recordingIo(ROOT, isTty);
      await run([...argv], other.io);
      expect(other.err).toEqual([`no problems below ${rel}\n`]);
    }
  }, 60_000);

  test('off without a TTY, with --quiet, and for short steps', async () => {
    const err: string[] = [];
    await new Progress({ stderr: (t) => err.push(t) }).around('synthesizing', slow);
    await new Progress({ stderr: (t) => err.push(t), stderrIsTty: true }, true).around('synthesizing', slow);
    await new Progress({ stderr: (t) => err.push(t), stderrIsTty: true }).around('synthesizing', async () => 'quick');
    expect(err).toEqual([]);
  });
});
