import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { afterAll } from 'vitest';

// Imported by a test file, the afterAll below runs when that file's tests end.
export const ROOT = path.join(__dirname, '..', '..');
const temps: string[] = [];
afterAll(() => temps.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));
export function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gitops-platform-output-test-'));
  temps.push(dir);
  return dir;
}
