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

// CI runs examples/python/main.py against the built wheel: the README shows it verbatim, and
// points at the Java and Go projects CI runs against the built jar and module.
test('the README shows examples/python/main.py verbatim', () => {
  const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  const content = fs.readFileSync(path.join(ROOT, 'examples', 'python', 'main.py'), 'utf8');
  expect(readme).toContain('```python\n' + content + '```\n');
});

test.each([
  ['examples/java', ['pom.xml', 'src/main/java/com/example/platform/Main.java']],
  ['examples/go', ['go.mod', 'go.sum', 'main.go']],
])('the README points at %s, and names its files', (dir, files) => {
  const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  expect(readme).toContain(`[\`${dir}/\`](${dir})`);
  for (const file of files) {
    expect(fs.existsSync(path.join(ROOT, dir, file))).toBe(true);
    expect(readme).toContain(`\`${file}\``);
  }
});
