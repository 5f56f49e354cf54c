import { cdk8s, TextFile } from 'projen';
import { NodePackageManager, NpmAccess, TypescriptConfig, TypescriptConfigExtends } from 'projen/lib/javascript';
import { ReleaseTrigger } from 'projen/lib/release';

// The pinned upstream CRDs the import task reads: the maintainers keep them beside the clone
// (shared/crds next to the project). Only `npx projen import` reads them; the package ships what
// it generates from them (imports/, including the schema bundle the test kit validates against).
const CRDS = '../shared/crds';

const project = new cdk8s.ConstructLibraryCdk8s({
  name: 'cdk8s-gitops-platform',
  description: 'Argo CD + Kargo release trains for a fleet of Kubernetes clusters, defined as cdk8s constructs',
  author: 'cdk8s-gitops-platform developers',
  authorAddress: 'dev@cdk8s-gitops-platform.io',
  repositoryUrl: 'https://github.com/cdk8s-gitops-platform/cdk8s-gitops-platform.git',
  defaultReleaseBranch: 'main',
  keywords: ['cdk8s', 'argocd', 'kargo', 'gitops', 'fleet', 'applicationset'],
  license: 'Apache-2.0',
  projenrcTs: true,
  npmAccess: NpmAccess.PUBLIC,
  packageManager: NodePackageManager.NPM,
  // Node: 24 (the current LTS) is the primary runtime, of the toolchain (.nvmrc, the workflows) and
  // of CI's test suite; 22 and 20 still run the library (CI runs the consumer example on each).
  // The test kit require()s cel-js, an ES module: Node runs that without a flag from 20.19.0 and
  // 22.12.0 (engines below states the range).
  minNodeVersion: '20.19.0',
  workflowNodeVersion: '24.x',
  stability: 'experimental',

  // Every jsii language: the release builds and publishes each (CONTRIBUTING.md, "Cutting a release").
  publishToPypi: { distName: 'cdk8s-gitops-platform', module: 'cdk8s_gitops_platform' },
  publishToMaven: {
    javaPackage: 'io.github.cdk8s_gitops_platform',
    mavenGroupId: 'io.github.cdk8s-gitops-platform',
    mavenArtifactId: 'cdk8s-gitops-platform',
  },
  publishToNuget: { dotNetNamespace: 'Cdk8sGitopsPlatform', packageId: 'Cdk8sGitopsPlatform' },
  publishToGo: { moduleName: 'github.com/cdk8s-gitops-platform/cdk8s-gitops-platform-go' },

  cdk8sVersion: '2.70.0',
  constructsVersion: '10.4.2',
  jsiiVersion: '~6.0.0',

  // Releases: versions from conventional commits (commit-and-tag-version), CHANGELOG.md, a tag per
  // release. A maintainer cuts one by hand (`npx projen release`: bump, changelog, build, every
  // language's package) and publishes with the publish:* tasks or the release workflow; `.ci/run`
  // runs everything up to publishing (.ci/jobs/release). The API is guarded by `compat` (jsii-diff
  // against the last release, part of the release task; below).
  github: true,
  buildWorkflow: true,
  release: true,
  // publish:git writes CHANGELOG.md and the tag; the maintainer pushes them (git push --follow-tags)
  releaseTrigger: ReleaseTrigger.manual({ changelog: true, changelogPath: 'CHANGELOG.md', gitPushCommand: '' }),
  releaseToNpm: true,
  publishTasks: true,
  // not part of compile (compat is spawned by the release task, below): a compile needs no registry
  compat: false,
  githubOptions: { mergify: false },
  depsUpgrade: false,
  pullRequestTemplate: false,

  // vitest is the only test runner (configured below).
  jest: false,

  // jsii compiles src/ and the generated imports/ together.
  entrypoint: 'lib/src/index.js',
  entrypointTypes: 'lib/src/index.d.ts',
  tsconfig: {
    compilerOptions: {
      rootDir: '.',
      // Inline source maps would carry the TypeScript sources into the package (imports/ alone
      // is 4 MB of them); the package ships JavaScript, declarations and .jsii only.
      inlineSourceMap: false,
      inlineSources: false,
    },
    include: ['src/**/*.ts', 'imports/**/*.ts'],
  },
  tsconfigDev: {
    // relative to test/tsconfig.json, where projen keeps the dev config
    include: ['**/*.ts', '../apps/**/*.ts', '../bench/**/*.ts', '../conformance/**/*.ts', '../e2e/**/*.ts', '../vitest.config.mts'],
    compilerOptions: {},
  },
  eslintOptions: {
    dirs: ['src'],
    devdirs: ['test', 'apps', 'bench', 'conformance', 'e2e'],
    ignorePatterns: ['imports/', '*.generated.ts', 'node_modules/', 'lib/', 'dist/', 'manifests/'],
    // `npm test` and CI report lint errors instead of rewriting the files (`npx projen eslint --fix` fixes)
    commandOptions: { fix: false },
  },

  peerDeps: ['cdk8s-plus-28@^2.5.6'],
  // non-jsii runtime dependencies: bundled, never in a public signature
  // secretlint: the test kit's scan of a user's output for credentials (`scanForSecrets`, `validate`);
  // 11.x is the last line that runs on Node 20 (12 and later need Node 22)
  deps: ['semver@^7.7.2', 'yaml@^2.8.1', 'ajv@^8.17.1', 'ajv-formats@^3.0.1', '@marcbachmann/cel-js@^8.0.0', '@prometheus-io/lezer-promql@~0.305.0', '@lezer/lr@^1.4.2', '@lezer/highlight@^1.2.1',
    'js-yaml@^5.5.0', '@secretlint/core@~11.7.1', '@secretlint/secretlint-rule-preset-recommend@~11.7.1'],
  // js-yaml: `status` reads a whole fleet's synthesized output (12 MB of the documents it needs at
  // 100 clusters x 1000 apps), which it parses ten times faster than the yaml package
  bundledDeps: ['semver', 'yaml', 'ajv', 'ajv-formats', '@marcbachmann/cel-js', '@prometheus-io/lezer-promql', '@lezer/lr', '@lezer/highlight', 'js-yaml',
    '@secretlint/core', '@secretlint/secretlint-rule-preset-recommend'],
  devDeps: [
    'cdk8s-cli@^2.207.0',
    'vitest@~4.1.9',
    'vite@~8.3.4',
    'tsx@^4.20.0',
    'fast-check@^4.3.0',
    '@types/semver@^7',
    'typescript@~5.9.0',
    'ts-node@^10.9.2',
  ],

});

project.package.addField('types', 'lib/src/index.d.ts');
// the test kit is TypeScript-only (it is not part of the jsii API): a separate entry point
project.package.addField('exports', {
  '.': { types: './lib/src/index.d.ts', default: './lib/src/index.js' },
  './testkit': { types: './lib/src/testkit/index.d.ts', default: './lib/src/testkit/index.js' },
  './cli': { types: './lib/src/cli/index.d.ts', default: './lib/src/cli/index.js' },
  './cli/plan-output.schema.json': './lib/src/cli/plan-output.schema.json',
  './cli/validate-output.schema.json': './lib/src/cli/validate-output.schema.json',
  './cli/status-output.schema.json': './lib/src/cli/status-output.schema.json',
  './package.json': './package.json',
  './.jsii': './.jsii',
});
// `moduleResolution: node` (what `cdk8s init typescript-app`'s tsconfig gets) ignores `exports`:
// typesVersions points it at the same declarations
project.package.addField('typesVersions', {
  '*': {
    testkit: ['lib/src/testkit/index.d.ts'],
    cli: ['lib/src/cli/index.d.ts'],
  },
});
// require(esm) without a flag: Node 20.19.0 and 22.12.0 (21 and 22.0-22.11 need --experimental-require-module)
project.package.addEngine('node', '^20.19.0 || >=22.12.0');
new TextFile(project, '.nvmrc', { lines: ['24'] });
// the JSON Schemas of `plan --json`, `validate --json` and `status --json`, beside the CLI that prints them (jsii
// compiles TypeScript only)
project.compileTask.exec('cp src/cli/plan-output.schema.json src/cli/validate-output.schema.json src/cli/status-output.schema.json lib/src/cli/');
// the change-review command line (`npx cdk8s-gitops-platform plan|validate`): src/cli, TypeScript only
project.addBins({ 'cdk8s-gitops-platform': 'lib/src/cli/main.js' });

// ---------------------------------------------------------------------------------------------
// tests: vitest only
project.testTask.reset();
project.testTask.exec('vitest run');
project.testTask.spawn(project.tasks.tryFind('eslint')!);
project.addTask('test:watch', { exec: 'vitest watch' });
project.addTask('test:update', { exec: 'vitest run --update' });

// ---------------------------------------------------------------------------------------------
// packaging: the npm package, and the code of every other jsii language. Building those packages
// needs each language's toolchain (`npx projen package-all`); generating their code needs none,
// so every build proves the API translates to Python, Java, .NET and Go.
const languages = project.addTask('package:languages', {
  description: 'Generates the Python, Java, .NET and Go code of the API into dist/code (no toolchains needed)',
  exec: 'jsii-pacmak --code-only --target python --target java --target dotnet --target go --outdir dist/code',
});
project.packageTask.reset();
project.packageTask.spawn(project.tasks.tryFind('package:js')!);
project.packageTask.spawn(languages);

// Each language's package needs the bindings of the jsii modules it depends on from its registry.
// Two are missing from the registries this project's machines reach: Maven Central serves no
// org.cdk8s:cdk8s-plus-28 (the jar's pom requires it) and the Go module proxy refuses
// github.com/cdk8s-team/cdk8s-core-go. So package:java and package:go build that binding from its
// npm package together with the library (jsii-pacmak resolves one from the other), then move it
// out of dist/ into .jsii-deps/ (publishing dist/ must never publish another project's package);
// examples/java and examples/go read it from there. (Maven's local repository is ~/.m2, or what
// MAVEN_OPTS=-Dmaven.repo.local=... names: CI keeps its downloads in its scratch.)
const DEPS = '.jsii-deps';
const javaTask = project.tasks.tryFind('package:java')!;
javaTask.reset();
javaTask.exec('jsii-pacmak -v --target java --outdir dist . node_modules/cdk8s-plus-28');
javaTask.exec(`rm -rf ${DEPS}/java && mkdir -p ${DEPS}/java/org/cdk8s && mv dist/java/org/cdk8s/cdk8s-plus-28 ${DEPS}/java/org/cdk8s/ && rmdir dist/java/org/cdk8s dist/java/org`);
const goTask = project.tasks.tryFind('package:go')!;
goTask.reset();
goTask.exec('jsii-pacmak -v --target go --outdir dist . node_modules/cdk8s');
goTask.exec(`rm -rf ${DEPS}/go && mkdir -p ${DEPS}/go && mv dist/go/cdk8s ${DEPS}/go/cdk8s`);
// .NET needs the .NET SDK, which no registry reachable here serves: without `dotnet` on PATH,
// package:dotnet says so and skips (every build still generates the .NET code: package:languages)
const dotnetTask = project.tasks.tryFind('package:dotnet')!;
dotnetTask.reset();
dotnetTask.exec('if command -v dotnet >/dev/null; then jsii-pacmak -v --target dotnet; else echo "package:dotnet: skipped: no .NET SDK (dotnet) on PATH; the .NET code is generated by package:languages"; fi');
// the bundled dependencies without their tests and benchmarks (projenrc/prune-bundled.ts), in
// every language's package (each embeds the npm package)
for (const lang of ['js', 'python', 'java', 'dotnet', 'go']) project.tasks.tryFind(`package:${lang}`)!.prependExec('tsx projenrc/prune-bundled.ts');
project.gitignore.exclude(`/${DEPS}/`, '/examples/*/dist/', '/examples/java/target/', '/examples/python/.venv/');
project.npmignore?.exclude(`/${DEPS}/`);

// ---------------------------------------------------------------------------------------------
// docstring examples: jsii-rosetta translates every `@example` (strict: one that does not compile
// against rosetta/default.ts-fixture fails the build) into .jsii.tabl.json, which jsii-pacmak reads
const rosetta = project.addTask('rosetta:extract', {
  description: 'Translates the docstring examples of .jsii into every jsii language (jsii-rosetta extract --strict)',
  exec: 'tsx projenrc/rosetta-extract.ts',
});
project.postCompileTask.spawn(rosetta);
project.gitignore.exclude('.jsii.tabl.json', '.rosetta-extract/');
project.npmignore?.exclude('/rosetta/', '.rosetta-extract/');

// ---------------------------------------------------------------------------------------------
// the public API's guard, `compat` (projen's task, run by our projenrc/api-compat.ts instead of
// projen's bare `jsii-diff npm:<name>`, which compares with whatever npm calls latest, only warns on
// experimental APIs, and passes when it cannot download the baseline). jsii-diff against the last
// release (the newest v<x.y.z> tag), every breaking change an error unless .compatignore accepts
// it; `--self-check` proves it fails on a removal. Not part of compile (a compile must work
// without the registry, and CI compiles in several jobs): the release task runs it after its
// build, before it tags, and CI runs it once, in .ci/jobs/release.
const compat = project.tasks.tryFind('compat')!;
compat.reset('tsx projenrc/api-compat.ts', { receiveArgs: true });
compat.description = 'Fails on a breaking change of the public API since the last release (jsii-diff, .compatignore): compat [<baseline>|--self-check]';
const releaseTask = project.tasks.tryFind('release')!;
releaseTask.insertStep(releaseTask.steps.findIndex(step => step.spawn === 'build') + 1, { spawn: compat.name });
project.gitignore.exclude('.api-compat/');
project.npmignore?.exclude('.api-compat/', '.compatignore');
// maintainers' notes (how the code is laid out, how to build it): users read the README and docs/
project.npmignore?.exclude('/ARCHITECTURE.md');

// ---------------------------------------------------------------------------------------------
// imports: generated from the pinned CRDs, never edited by hand, not part of the build
project.addTask('import', {
  description: `Regenerates imports/ from the pinned CRDs in ${CRDS} (not part of the build)`,
  exec: `ts-node --project projenrc/tsconfig.json projenrc/import-crds.ts ${CRDS}`,
});

// ---------------------------------------------------------------------------------------------
// synth: the example fleet and apps in apps/ into manifests/ (cdk8s.yaml sets the output dir)
// cdk8s deletes its output directory before synthesizing: synthesize into a scratch directory
// and replace manifests/ only when synth succeeded, so a bad definition never leaves it partial
// (and a failed synth leaves no scratch directory). The app runs directly, as `cdk8s synth` would
// run it (CDK8S_OUTDIR), because the cdk8s CLI prints its own stack trace under the app's message.
project.addTask('synth', {
  description: 'Synthesizes the example fleet and apps in apps/ into manifests/',
  steps: [
    { exec: 'rm -rf .synth-out' },
    { exec: 'sh -c \'CDK8S_OUTDIR=.synth-out tsx apps/main.ts || { rm -rf .synth-out; exit 1; }\'' },
    { exec: 'rm -rf manifests && mv .synth-out manifests' },
  ],
});
project.addTask('bench', {
  description: 'Measures synth time and memory (100 clusters x 100/300/1000 apps, 300 x 300) against the yaml package alone and plain ApiObjects, then plan and status at 100 x 1000, the size of the npm package and the load cost of the Go parsers',
  exec: 'tsx bench/synth-bench.ts',
});

// ---------------------------------------------------------------------------------------------
// conformance: the synthesized output through Argo CD's and Argo Rollouts' own Go code (the Go
// modules under conformance/, built into .conformance/) and the test kit's model of Kargo, whose
// Go packages cannot be built here. A dev tool: needs Go, not part of the package or of npm test.
project.addTask('conformance', {
  description: 'Runs synthesized manifests through the upstream Go code in conformance/*/ and the test kit model: conformance <dir> [--before <dir>] [--now <RFC3339>]',
  exec: 'tsx conformance/run.ts',
  receiveArgs: true,
});
// npm runs it directly: projen turns every failing exit code into 1, and the suite's own failure
// (2: Go missing, a module that does not build) must stay apart from findings (1)
project.package.setScript('conformance', 'tsx conformance/run.ts');

// ---------------------------------------------------------------------------------------------
// e2e: a release from a registry to production on the real controllers (Kargo, Argo CD, Argo
// Rollouts, one kube-apiserver per cluster, kwok), built from the Go modules under e2e/ into
// .e2e/bin and run on loopback (e2e/README.md). Needs Go, etcd, redis-server and docker-registry;
// run by .ci/jobs/e2e, not part of npm test.
project.addTask('e2e', {
  description: 'Builds the control plane from the pinned Go modules and runs the end-to-end scenarios on it (e2e/README.md): e2e [--no-build] [--keep] [--scenarios=a,b]',
  exec: 'tsx e2e/run.ts',
  receiveArgs: true,
});
project.package.setScript('e2e', 'tsx e2e/run.ts');

// what the bench, synth tests and Go suites write into the checkout (.upstream-go/ and .tools/:
// scripts/upstream-go.sh and scripts/git-for-kargo.sh): neither committed nor packed
const SCRATCH_DIRS = ['.bench/', '.synth-out/', '.conformance/', '.upstream-go/', '.tools/', '.e2e/'];
project.gitignore.exclude(...SCRATCH_DIRS);
project.gitignore.include('manifests/');
project.npmignore?.exclude(...SCRATCH_DIRS);
project.npmignore?.exclude('apps/', 'manifests/', 'bench/', 'patches/', 'conformance/', 'e2e/', 'scripts/', 'test/', '.ci/', 'examples/', 'cdk8s.yaml', 'vitest.config.mts');
// The package ships compiled code, declarations, .jsii and the schema bundle; not the TypeScript
// the JavaScript was compiled from (imports/*.ts alone is 4 MB).
project.npmignore?.exclude('/imports/*.ts');
// The generated CRD classes are compiled with the library (jsii) and run, but no public type uses
// them (no shipped lib/src declaration imports lib/imports): their 2.9 MB of declarations stay out.
project.npmignore?.exclude('/lib/imports/*.d.ts');
// The Go parsers (go/parsers/, docs/go-parsers.md): the package ships the committed WebAssembly
// build the checks run, not the Go module it is built from.
project.npmignore?.exclude('/go/**/*.go', '/go/**/go.mod', '/go/**/go.sum', '/go/**/*.sh', '/go/**/*.md');
project.gitattributes.addAttributes('/go/parsers/parsers.wasm.br', 'binary', 'linguist-generated');
project.annotateGenerated('/imports/**');
project.annotateGenerated('/manifests/**');
project.annotateGenerated('/test/**/__snapshots__/**');

// apps/ and bench/ are type-checked and linted like the tests
for (const dir of ['apps', 'bench', 'conformance', 'e2e']) {
  new TypescriptConfig(project, {
    fileName: `${dir}/tsconfig.json`,
    extends: TypescriptConfigExtends.fromPaths(['../test/tsconfig.json']),
    include: ['**/*.ts'],
    compilerOptions: {},
  });
}

project.synth();
