import * as fs from 'fs';
import * as path from 'path';
import { expect, test } from 'vitest';

const ROOT = path.join(__dirname, '..');
const CONSUMER = path.join(ROOT, 'examples', 'consumer');
const FENCE: Record<string, string> = { '.sh': 'sh', '.yaml': 'yaml', '.ts': 'ts', '.json': 'json', '.js': 'js' };

// CI runs examples/consumer/ against the packed library: the README must show what CI runs.
test.each(fs.readdirSync(CONSUMER).sort())('the README shows examples/consumer/%s verbatim', (file) => {
  const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  const content = fs.readFileSync(path.join(CONSUMER, file), 'utf8');
  expect(readme).toContain('```' + FENCE[path.extname(file)] + '\n' + content + '```\n');
});
