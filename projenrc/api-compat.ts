// The `compat` task, the guard on the public API (`npx projen compat`, after `npx projen compile`;
// the release task runs it after its build): jsii-diff compares the compiled assembly (.jsii) with
// the assembly of the last release and fails on any change that breaks a user of any language,
// unless .compatignore accepts it by its key.
//
// Why not projen's own `compat` (`jsii-diff npm:cdk8s-gitops-platform`): the whole API is
// `experimental`, and jsii-diff reports breaking changes of experimental APIs as warnings unless
// told `--error-on all`; it compares with whatever npm calls latest, not the last release of this
// branch; and when it cannot download the original it prints "Skipping analysis" and exits 0, so
// a registry hiccup or a wrong name would pass as "compatible". This task errors on every
// break, reads the baseline from the release machinery's tag, and fails when it cannot load it.
//
//   npx projen compat                    baseline: the last release, from the newest tag v<x.y.z>
//                                        reachable from HEAD (npm:cdk8s-gitops-platform@<x.y.z>);
//                                        with no such tag there is no release to keep: exit 0
//   npx projen compat <baseline>         a package directory (package.json, .jsii), or npm:<name>@<version>
//   npx projen compat --self-check       proves the guard works: the assembly against itself passes,
//                                        against a copy with one more class property (a removal, to
//                                        the guard) fails naming it
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

const root = path.resolve(__dirname, '..');
const IGNORE_FILE = '.compatignore';

/** Stops the task with its reason (main prints it and exits 1, after removing the scratch directory). */
function fail(message: string): never {
  throw new Error(message);
}

function currentAssembly(): any {
  const file = path.join(root, '.jsii');
  if (!fs.existsSync(file)) fail('no .jsii in the project: run `npx projen compile` first');
  return JSON.parse(fs.readFileSync(file, 'utf8'));
}

/** The last release's version, from the newest `v<x.y.z>` tag reachable from HEAD; undefined before the first release. */
function lastReleaseVersion(): string | undefined {
  const tag = spawnSync('git', ['describe', '--tags', '--abbrev=0', '--match', 'v[0-9]*.[0-9]*.[0-9]*'], { cwd: root, encoding: 'utf8' });
  return tag.status === 0 ? tag.stdout.trim().replace(/^v/, '') : undefined;
}

/**
 * The baseline as a package directory (package.json and .jsii: jsii-diff loads a bare .jsii file
 * without its dependencies and cannot compare types that extend cdk8s's): a directory, the
 * directory of a .jsii file, or an npm package version fetched with npm itself into `scratch`.
 */
function baselineDir(spec: string, scratch: string): string {
  if (spec.startsWith('npm:')) {
    // npm pack downloads the released tarball as published (a missing version fails here, loudly)
    const pack = spawnSync('npm', ['pack', spec.slice('npm:'.length), '--pack-destination', scratch, '--json'], { cwd: scratch, encoding: 'utf8' });
    if (pack.status !== 0) fail(`cannot download the baseline ${spec}: ${pack.stderr.trim().split('\n').slice(-3).join(' ')}`);
    const tarball = path.join(scratch, JSON.parse(pack.stdout)[0].filename);
    const untar = spawnSync('tar', ['-xzf', tarball, '-C', scratch, 'package/package.json', 'package/.jsii'], { encoding: 'utf8' });
    if (untar.status !== 0) fail(`the baseline ${spec} holds no .jsii: ${untar.stderr.trim()}`);
    return path.join(scratch, 'package');
  }
  const dir = fs.existsSync(spec) && fs.statSync(spec).isDirectory() ? spec : path.dirname(spec);
  if (!fs.existsSync(path.join(dir, '.jsii')) || !fs.existsSync(path.join(dir, 'package.json'))) {
    fail(`the baseline ${spec} is not a package directory with package.json and .jsii`);
  }
  return dir;
}

/** jsii-diff of the baseline against the compiled assembly: every breaking change is an error, keys shown for .compatignore. */
function diff(baseline: string, updated: string): { status: number; output: string } {
  const run = spawnSync('jsii-diff', [baseline, updated, '--keys', '--error-on', 'all', '--ignore-file', path.join(root, IGNORE_FILE)],
    { cwd: root, encoding: 'utf8' });
  const output = `${run.stdout}${run.stderr}`.split('\n').filter(l => !l.startsWith('!!')).join('\n').trim();
  // jsii-diff exits 0 when it could not load an assembly; that is no comparison
  if (/Could not load|Skipping analysis/.test(output)) fail(`jsii-diff could not compare: ${output}`);
  return { status: run.status ?? 1, output };
}

/** A package directory in `scratch` holding `assembly` (inside the project: jsii-diff finds its dependencies in node_modules/). */
function packageDir(scratch: string, name: string, assembly: unknown): string {
  const dir = path.join(scratch, name);
  fs.mkdirSync(dir);
  fs.writeFileSync(path.join(dir, '.jsii'), JSON.stringify(assembly));
  fs.copyFileSync(path.join(root, 'package.json'), path.join(dir, 'package.json'));
  return dir;
}

/** The assembly against itself must pass; against a copy with one more property, fail naming it (a removal, to the guard). */
function selfCheck(scratch: string): void {
  const assembly = currentAssembly();
  const same = diff(packageDir(scratch, 'same', assembly), root);
  if (same.status !== 0) fail(`self-check: the API against itself fails (exit ${same.status}):\n${same.output}`);
  const cls = Object.values<any>(assembly.types).find(t => t.kind === 'class' && t.fqn.endsWith('.PlatformApp'));
  if (!cls) fail('self-check: the assembly has no PlatformApp class');
  const baseline = structuredClone(assembly);
  const name = 'apiCompatSelfCheck';
  baseline.types[cls.fqn].properties = [...cls.properties ?? [], { name, immutable: true, type: { primitive: 'string' }, docs: { summary: 'x' } }];
  const { status, output } = diff(packageDir(scratch, 'more', baseline), root);
  if (status === 0 || !output.includes(`${cls.fqn}.${name}`)) {
    fail(`self-check: removing ${cls.fqn}.${name} was not reported as an error (exit ${status}):\n${output}`);
  }
  process.stdout.write(`compat self-check: the API against itself passes; removing ${cls.fqn}.${name} fails the guard, as it must\n`);
}

function main(args: string[]): void {
  // inside the project, so jsii-diff finds the baseline's dependencies (cdk8s, constructs, ...) in node_modules/
  const scratch = path.join(root, '.api-compat');
  fs.rmSync(scratch, { recursive: true, force: true });
  fs.mkdirSync(scratch);
  try {
    if (args[0] === '--self-check') return selfCheck(scratch);
    currentAssembly();
    let spec = args[0];
    if (spec === undefined) {
      const version = lastReleaseVersion();
      if (version === undefined) {
        process.stdout.write('compat: no release yet (no v<x.y.z> tag reachable from HEAD): no public API to keep compatible\n');
        return;
      }
      spec = `npm:${JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')).name}@${version}`;
    }
    const { status, output } = diff(baselineDir(spec, scratch), root);
    process.stdout.write(`${output || 'no API change'}\n`);
    if (status !== 0) {
      fail(`the public API breaks ${spec}: keep the old API, or accept each change deliberately by adding its key to ${IGNORE_FILE} `
        + '(with a comment saying why) and mark the commit as a breaking change (feat!: ...), so that the release bumps the version accordingly');
    }
    process.stdout.write(`compat: the public API keeps ${spec}\n`);
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

try {
  main(process.argv.slice(2));
} catch (e) {
  process.stderr.write(`compat: ${(e as Error).message}\n`);
  process.exitCode = 1;
}
