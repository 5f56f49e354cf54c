import * as fs from 'fs';
import * as path from 'path';
import { expect, test } from 'vitest';

const ROOT = path.join(__dirname, '..');
const CONSUMER = path.join(ROOT, 'examples', 'consumer');
const read = (file: string) => fs.readFileSync(path.join(ROOT, file), 'utf8');

// CI runs examples/consumer/ against the packed library: the docs show every file of it, whole
// (test/docs.test.ts holds each marked block to its file).
test.each(fs.readdirSync(CONSUMER).sort())('the README or docs/getting-started.md shows examples/consumer/%s', (file) => {
  const marker = `<!-- file: examples/consumer/${file} -->`;
  expect(read('README.md').includes(marker) || read('docs/getting-started.md').includes(marker)).toBe(true);
});

// The local-package route is the published one with the built tarball in place of the name: CI
// runs the README's local route (.ci/jobs/consumer), so the published one is the same commands.
test('the README\'s local-package route installs what examples/consumer/install.sh installs', () => {
  const published = read('examples/consumer/install.sh').split('\n').filter((l) => l.startsWith('npm install'));
  const readme = read('README.md');
  for (const line of published) {
    expect(readme).toContain(line.replace('npm install cdk8s-gitops-platform ', 'npm install ../cdk8s-gitops-platform/dist/js/cdk8s-gitops-platform@0.0.0.jsii.tgz ') + '\n');
  }
});

// CI runs examples/python/main.py against the built wheel, and the Java and Go projects against
// the built jar and module, by docs/languages.md's commands
test('docs/languages.md shows examples/python/main.py whole, and points at the Java and Go projects', () => {
  const page = read('docs/languages.md');
  expect(page).toContain('<!-- file: examples/python/main.py -->');
  for (const file of ['examples/java/pom.xml', 'examples/java/src/main/java/com/example/platform/Main.java', 'examples/go/go.mod']) {
    expect(page).toContain(`(../${file})`);
  }
});
