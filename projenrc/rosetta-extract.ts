// Translates the docstring examples (`@example`) of the jsii assembly into every jsii language with
// `jsii-rosetta extract --strict`: an example that does not compile against rosetta/default.ts-fixture,
// or that rosetta cannot translate, fails the build. The tablet it writes (.jsii.tabl.json, beside
// .jsii) is what jsii-pacmak puts into the Python, Java, .NET and Go docstrings.
//
// Rosetta extracts the README's `ts` blocks from the assembly too, and --strict applies to the whole
// assembly. The README's blocks are a TypeScript walkthrough (try/catch, arrow functions, vitest,
// './platform' imports) that rosetta refuses to translate, and the README has its own Python
// section; so rosetta reads a copy of the assembly without the README (pacmak keeps the README
// verbatim, as before). The copy sits in a scratch directory whose package.json, lib/, rosetta/ and
// node_modules/ are links to the project's, so rosetta resolves the package and the fixture as usual.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

const root = path.resolve(__dirname, '..');
const scratch = path.join(root, '.rosetta-extract');
const tablet = '.jsii.tabl.json';

fs.rmSync(scratch, { recursive: true, force: true });
fs.rmSync(path.join(root, tablet), { force: true });
fs.mkdirSync(scratch);
let status = 1;
try {
  for (const entry of ['package.json', 'lib', 'rosetta', 'node_modules']) {
    fs.symlinkSync(path.join('..', entry), path.join(scratch, entry));
  }
  const assembly = JSON.parse(fs.readFileSync(path.join(root, '.jsii'), 'utf8'));
  delete assembly.readme;
  fs.writeFileSync(path.join(scratch, '.jsii'), JSON.stringify(assembly));
  const run = spawnSync('jsii-rosetta', ['extract', '--strict', path.join(scratch, '.jsii')], { stdio: 'inherit' });
  status = run.status ?? 1;
  if (status === 0) fs.copyFileSync(path.join(scratch, tablet), path.join(root, tablet));
} finally {
  fs.rmSync(scratch, { recursive: true, force: true });
}
process.exit(status);
