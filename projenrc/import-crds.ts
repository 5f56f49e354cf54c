/**
 * Regenerates `imports/` from a directory of the pinned upstream CRDs (argument; `npx projen import`
 * passes `../shared/crds`): the classes `cdk8s import` generates, and `imports/schema-bundle.json`,
 * the compact schemas the test kit validates against (see src/testkit/schema-bundle.ts).
 *
 * `cdk8s import` keeps only the last CRD of a module when it is called once per file, so the
 * CRDs of one module are concatenated into a single multi-document input first.
 * The CRD YAML is read in place and never copied into the project. `cdk8s import` runs with the
 * fix offered to its generator upstream (`patchedCdk8sImport`); what it writes is kept as it is.
 */
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import { createRequire } from 'module';
import * as os from 'os';
import * as path from 'path';
import { formatSchemaBundle, readCrdsDir, SCHEMA_BUNDLE_HEADER, SCHEMA_BUNDLE_PATH } from '../src/testkit/schema-bundle';

export const CRD_MODULES: Record<string, string[]> = {
  argocd: ['argocd/application-crd.yaml', 'argocd/applicationset-crd.yaml', 'argocd/appproject-crd.yaml'],
  kargo: [
    'kargo/kargo.akuity.io_projects.yaml',
    'kargo/kargo.akuity.io_projectconfigs.yaml',
    'kargo/kargo.akuity.io_warehouses.yaml',
    'kargo/kargo.akuity.io_stages.yaml',
    'kargo/kargo.akuity.io_promotiontasks.yaml',
    'kargo/kargo.akuity.io_clusterpromotiontasks.yaml',
  ],
  rollouts: ['argo-rollouts/analysis-template-crd.yaml'],
};

/**
 * The command line of `cdk8s import` with patches/json2jsii-0.5.19-linear-tojson.patch applied to
 * its code generator: the converters it writes build each object once instead of once per defined
 * value (cdklabs/json2jsii; test/property/json2jsii-patch.test.ts shows they convert as the
 * released ones do). cdk8s-cli runs through a link in `tmp/node_modules`, beside a patched copy of
 * the json2jsii it resolves; every other module comes from the project's (NODE_PATH).
 */
function patchedCdk8sImport(tmp: string): { command: string[]; env: NodeJS.ProcessEnv } {
  const modules = path.resolve('node_modules');
  const json2jsii = path.dirname(createRequire(path.join(modules, 'cdk8s-cli', 'package.json')).resolve('json2jsii/package.json'));
  fs.mkdirSync(path.join(tmp, 'node_modules'));
  fs.symlinkSync(path.join(modules, 'cdk8s-cli'), path.join(tmp, 'node_modules', 'cdk8s-cli'));
  fs.cpSync(json2jsii, path.join(tmp, 'node_modules', 'json2jsii'), { recursive: true });
  execFileSync('git', ['init', '-q'], { cwd: tmp });
  execFileSync('git', ['apply', path.resolve('patches', 'json2jsii-0.5.19-linear-tojson.patch')], { cwd: tmp });
  const cli = path.join(tmp, 'node_modules', 'cdk8s-cli', 'bin', 'cdk8s');
  return { command: ['--preserve-symlinks', '--preserve-symlinks-main', cli], env: { ...process.env, NODE_PATH: modules } };
}

function main() {
  if (process.argv[2] === undefined) {
    throw new Error('usage: import-crds.ts <directory of the pinned crds>');
  }
  const crds = path.resolve(process.argv[2]);
  if (!fs.existsSync(path.join(crds, 'kargo', 'schemas'))) {
    throw new Error(`${crds} is not a crds directory (it has no kargo/schemas/)`);
  }
  const out = path.resolve('imports');
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'crd-import-'));
  const cdk8sImport = patchedCdk8sImport(tmp);
  fs.rmSync(out, { recursive: true, force: true });
  for (const [module, files] of Object.entries(CRD_MODULES)) {
    const input = path.join(tmp, `${module}.yaml`);
    fs.writeFileSync(input, files.map(f => fs.readFileSync(path.join(crds, f), 'utf-8')).join('\n---\n'));
    execFileSync(process.execPath, [...cdk8sImport.command, 'import', `${module}:=${input}`, '--language', 'typescript', '--output', out, '--no-save', '--no-check-upgrade'],
      { stdio: 'inherit', env: cdk8sImport.env });
  }
  fs.rmSync(tmp, { recursive: true, force: true });
  const bundle = readCrdsDir(crds, { stripDescriptions: true });
  fs.writeFileSync(path.join(out, '..', SCHEMA_BUNDLE_PATH), formatSchemaBundle(bundle, SCHEMA_BUNDLE_HEADER));
}

main();
