// The npm package bundles its non-jsii runtime dependencies (bundledDeps in .projenrc.ts), and npm
// packs a bundled dependency as it is installed: its own `files` decide, not this project's
// .npmignore. Some ship what no user runs (fast-uri, which ajv requires, ships its test suite and
// benchmarks), so package:js removes those folders from the installed bundled dependencies
// before jsii-pacmak packs them: runtime code only. `npm ci` puts them back.
import * as fs from 'node:fs';
import * as path from 'node:path';

const root = path.resolve(__dirname, '..');
const NOT_RUNTIME = ['test', 'tests', '__tests__', 'benchmark', 'benchmarks', '.github'];

/** The installed directories of the bundled dependencies and of everything they depend on. */
function bundledTree(): string[] {
  const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
  const seen = new Set<string>();
  const visit = (name: string, from: string) => {
    for (let dir = from; ; dir = path.dirname(dir)) {
      const candidate = path.join(dir, 'node_modules', name);
      if (fs.existsSync(path.join(candidate, 'package.json'))) {
        if (seen.has(candidate)) return;
        seen.add(candidate);
        const deps = JSON.parse(fs.readFileSync(path.join(candidate, 'package.json'), 'utf8')).dependencies ?? {};
        for (const dep of Object.keys(deps)) visit(dep, candidate);
        return;
      }
      if (dir === root || path.dirname(dir) === dir) return;
    }
  };
  for (const name of pkg.bundledDependencies ?? []) visit(name, root);
  return [...seen].sort();
}

for (const dir of bundledTree()) {
  for (const folder of NOT_RUNTIME) {
    const target = path.join(dir, folder);
    if (fs.existsSync(target)) {
      fs.rmSync(target, { recursive: true, force: true });
      console.log(`pruned ${path.relative(root, target)}`);
    }
  }
}
