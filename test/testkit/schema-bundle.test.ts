import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { describe, expect, test } from 'vitest';
import { formatIssues, ManifestValidator } from '../../src/testkit';
import { project } from '../support/testkit-objects';

describe('shippedSchemaBundle', () => {
  test('needs no argument, environment or working directory: the schemas ship in the package', () => {
    const savedCwd = process.cwd();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'testkit-cwd-'));
    process.chdir(dir);
    try {
      expect(formatIssues(ManifestValidator.load().validateObjects([project({ spec: {} })]))).toBe('inline Project/demo /spec: unknown field "spec"');
    } finally {
      process.chdir(savedCwd);
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
