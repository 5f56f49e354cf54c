import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

/**
 * Every temporary directory of a test run, the tests' own and the ones `Testing.app()` creates,
 * goes below one directory that is removed when the run ends: the tests leave nothing behind.
 * The test workers start after this and inherit $TMPDIR.
 */
export default function setup(): () => void {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cdk8s-gitops-platform-test-'));
  const saved = process.env.TMPDIR;
  process.env.TMPDIR = dir;
  return () => {
    if (saved === undefined) {
      delete process.env.TMPDIR;
    } else {
      process.env.TMPDIR = saved;
    }
    fs.rmSync(dir, { recursive: true, force: true });
  };
}
