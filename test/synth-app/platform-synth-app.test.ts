import { execFileSync } from 'child_process';
import * as fs from 'fs';
import { createRequire } from 'module';
import * as os from 'os';
import * as path from 'path';
import { ApiObject, App, Chart, JsonPatch, Testing, YamlOutputType } from 'cdk8s';
import { Construct, Node } from 'constructs';
import * as fc from 'fast-check';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { defineExamples } from '../../apps';
import { defineGeneratedPlatform } from '../../bench/generated-platform';
import { ClusterFleet, PlatformReport, PlatformStandards, PlatformSynthApp } from '../../src';
import { WORKER_THRESHOLD } from '../../src/io/file-writer';

/** Every file an app writes, by name. */
function synthFiles(make: (outdir: string) => App, define: (app: App) => void): Map<string, string> {
  const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'synth-'));
  const app = make(outdir);
  define(app);
  app.synth();
  PlatformReport.write(app);
  const files = new Map(fs.readdirSync(outdir).sort().map(f => [f, fs.readFileSync(path.join(outdir, f), 'utf-8')]));
  fs.rmSync(outdir, { recursive: true, force: true });
  return files;
}

/** Files of cdk8s's own App and of PlatformSynthApp for the same definitions. */
function both(define: (app: App) => void, props: { yamlOutputType?: YamlOutputType } = {}) {
  return {
    cdk8s: synthFiles(outdir => new App({ outdir, ...props }), define),
    linear: synthFiles(outdir => new PlatformSynthApp({ outdir, ...props }), define),
  };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('PlatformSynthApp writes what cdk8s App writes', () => {
  test('the examples, byte for byte', () => {
    const { cdk8s, linear } = both(app => defineExamples(app));
    expect([...linear.keys()]).toEqual([...cdk8s.keys()]);
    for (const [file, text] of cdk8s) expect(linear.get(file), file).toBe(text);
  });

  test('a generated platform (standards included), byte for byte', () => {
    const define = (app: App) => {
      defineGeneratedPlatform(app, 24, 30);
      new PlatformStandards(app, 'standards', { maxWavePercent: 100, disabledRules: ['prod-gate'] });
    };
    const { cdk8s, linear } = both(define);
    expect(linear.size).toBeGreaterThan(WORKER_THRESHOLD); // written on another thread
    expect([...linear.keys()]).toEqual([...cdk8s.keys()]);
    for (const [file, text] of cdk8s) expect(linear.get(file), file).toBe(text);
  });

  // from WORKER_THRESHOLD charts, the files are written on another thread
  test.each([3, WORKER_THRESHOLD])('a file it cannot write fails synth() with the file system\'s error, and no file after it is written (%i charts)', (charts) => {
    const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'synth-'));
    const app = new PlatformSynthApp({ outdir });
    for (let i = 0; i < charts; i++) {
      new ApiObject(new Chart(app, `c${String(i).padStart(3, '0')}`), 'cm', { apiVersion: 'v1', kind: 'ConfigMap' });
    }
    // a directory where the first chart's file goes
    fs.mkdirSync(path.join(outdir, 'c000.k8s.yaml'));
    expect(() => app.synth()).toThrow(/EISDIR: illegal operation on a directory/);
    expect(fs.readdirSync(outdir)).toEqual(['c000.k8s.yaml']);
    fs.rmSync(outdir, { recursive: true, force: true });
  });

  test('a definition that fails validation leaves no output directory (cdk8s synth deletes the old one first: an empty one would replace it)', () => {
    const outdir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'synth-')), '.synth-out');
    const app = new PlatformSynthApp({ outdir });
    new ApiObject(new Chart(app, 'c'), 'cm', { apiVersion: 'v1', kind: 'ConfigMap' });
    app.node.addValidation({ validate: () => ['not valid'] });
    expect(() => app.synth()).toThrow(/Validation failed with the following errors:\n {2}\[\] not valid/);
    expect(fs.existsSync(outdir)).toBe(false);
    fs.rmSync(path.dirname(outdir), { recursive: true, force: true });
  });

  test('charts that depend on each other: numbered files, objects in dependency order', () => {
    const define = (app: App) => {
      const a = new Chart(app, 'a');
      const b = new Chart(app, 'b');
      const c = new Chart(b, 'c');
      const first = new ApiObject(a, 'first', { apiVersion: 'v1', kind: 'ConfigMap', data: { key: 'x' } });
      const second = new ApiObject(b, 'second', { apiVersion: 'v1', kind: 'ConfigMap' });
      const third = new ApiObject(b, 'third', { apiVersion: 'v1', kind: 'ConfigMap' });
      new ApiObject(c, 'nested', { apiVersion: 'v1', kind: 'ConfigMap' });
      second.node.addDependency(third);
      third.node.addDependency(first);
    };
    const { cdk8s, linear } = both(define);
    expect([...linear.keys()]).toEqual(['0000-b-c-c88a247b.k8s.yaml', '0001-a.k8s.yaml', '0002-b.k8s.yaml']);
    expect(linear).toEqual(cdk8s);
  });

  test('charts without dependencies, one with an id a JavaScript object would sort first', () => {
    const define = (app: App) => {
      for (const id of ['b', '7', 'a']) {
        const chart = new Chart(app, id);
        new ApiObject(chart, 'z', { apiVersion: 'v1', kind: 'ConfigMap' });
        new ApiObject(new Construct(chart, 'group'), 'y', { apiVersion: 'v1', kind: 'ConfigMap' });
      }
    };
    const { cdk8s, linear } = both(define);
    expect([...linear.keys()]).toEqual(['7.k8s.yaml', 'a.k8s.yaml', 'b.k8s.yaml']);
    expect(linear).toEqual(cdk8s);
    // one file: the charts' order shows (cdk8s's DependencyGraph puts the integer-like path first)
    const oneFile = both(define, { yamlOutputType: YamlOutputType.FILE_PER_APP });
    const text = oneFile.linear.get('app.k8s.yaml')!;
    expect([text.indexOf('name: 7-'), text.indexOf('name: b-')].every(i => i >= 0) && text.indexOf('name: 7-') < text.indexOf('name: b-')).toBe(true);
    expect(oneFile.linear).toEqual(oneFile.cdk8s);
  });

  test('one file for the app', () => {
    const { cdk8s, linear } = both(app => defineExamples(app), { yamlOutputType: YamlOutputType.FILE_PER_APP });
    expect([...linear.keys()]).toContain('app.k8s.yaml');
    expect(linear).toEqual(cdk8s);
  });

  test('validation errors are reported as cdk8s reports them', () => {
    const define = (app: App) => {
      const chart = new Chart(app, 'chart');
      new ApiObject(chart, 'cm', { apiVersion: 'v1', kind: 'ConfigMap' });
      chart.node.addValidation({ validate: () => ['always wrong'] });
    };
    const cdk8sApp = Testing.app();
    define(cdk8sApp);
    const linearApp = new PlatformSynthApp({ outdir: fs.mkdtempSync(path.join(os.tmpdir(), 'synth-')) });
    define(linearApp);
    const message = (f: () => void) => {
      try {
        f();
      } catch (e) {
        return (e as Error).message;
      }
      return undefined;
    };
    expect(message(() => linearApp.synth())).toBe(message(() => cdk8sApp.synth()));
    expect(message(() => linearApp.synth())).toContain('[chart] always wrong');
  });
});

/** The files an app writes, or the message of the error its synth() throws. */
function outcome(app: App): Map<string, string> | string {
  try {
    app.synth();
  } catch (e) {
    return (e as Error).message;
  } finally {
    scratch.push(app.outdir);
  }
  return new Map(fs.readdirSync(app.outdir).sort().map(f => [f, fs.readFileSync(path.join(app.outdir, f), 'utf-8')]));
}

// charts (some nested in an earlier one), their objects, and dependencies from an object to an
// earlier one or to an earlier object's chart: chart ids a JavaScript object would reorder,
// numbered files, dependency order, and the cycles cdk8s refuses
// never an object's id (o_0, o_1, ...): a nested chart may not take the name of an object beside it
const chartId = fc.oneof(fc.stringMatching(/^[a-z][a-z0-9-]{0,4}$/), fc.nat(12).map(String));
const generatedApp = fc.record({
  charts: fc.uniqueArray(fc.record({ id: chartId, parent: fc.option(fc.nat(), { nil: undefined }), objects: fc.nat(3) }),
    { selector: c => c.id, minLength: 1, maxLength: 5 }),
  dependencies: fc.array(fc.record({ from: fc.nat(), to: fc.nat(), onChart: fc.boolean() }), { maxLength: 4 }),
  data: fc.dictionary(fc.stringMatching(/^[a-z]{1,3}$/), fc.oneof(fc.string({ maxLength: 6 }), fc.integer(), fc.boolean()), { maxKeys: 3 }),
  perApp: fc.boolean(),
});
type GeneratedApp = typeof generatedApp extends fc.Arbitrary<infer T> ? T : never;

/** Defines the generated app under `root` with the classes of `lib` (the installed cdk8s, or a patched copy). */
function defineGenerated(root: App, spec: GeneratedApp, lib: { Chart: typeof Chart; ApiObject: typeof ApiObject } = { Chart, ApiObject }): void {
  const charts: Chart[] = [];
  const objects: ApiObject[] = [];
  for (const [i, c] of spec.charts.entries()) {
    const chart = new lib.Chart(c.parent !== undefined && i > 0 ? charts[c.parent % i] : root, c.id);
    charts.push(chart);
    for (let o = 0; o < c.objects; o++) {
      objects.push(new lib.ApiObject(chart, `o_${o}`, { apiVersion: 'v1', kind: 'ConfigMap', data: { ...spec.data, n: `${i}.${o}` } }));
    }
  }
  for (const d of spec.dependencies) {
    if (objects.length < 2) break;
    const from = 1 + d.from % (objects.length - 1);
    const to = objects[d.to % from];
    objects[from].node.addDependency(d.onChart ? Chart.of(to) : to);
  }
}

/** App props for the generated app's output type. */
function outputProps(spec: GeneratedApp, outdir: string) {
  return { outdir, yamlOutputType: spec.perApp ? YamlOutputType.FILE_PER_APP : YamlOutputType.FILE_PER_CHART };
}

describe('PlatformSynthApp writes what cdk8s App writes, for generated apps', () => {
  test('the same file names and bytes, or the same error', () => {
    fc.assert(fc.property(generatedApp, spec => {
      const cdk8s = new App(outputProps(spec, scratchDir()));
      const linear = new PlatformSynthApp(outputProps(spec, scratchDir()));
      defineGenerated(cdk8s, spec);
      defineGenerated(linear, spec);
      expect(outcome(linear)).toEqual(outcome(cdk8s));
    }), { numRuns: 150 });
  });

  test('a chart class that overrides toJson(), the hook App.synth() calls, is written by it', () => {
    class Extra extends Chart {
      public toJson(): any[] {
        return [...super.toJson(), { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'extra' } }];
      }
    }
    const definePair = (root: App) => {
      new ApiObject(new Extra(root, 'x'), 'cm', { apiVersion: 'v1', kind: 'ConfigMap' });
      new ApiObject(new Chart(root, 'y'), 'cm', { apiVersion: 'v1', kind: 'ConfigMap' });
    };
    const cdk8s = new App({ outdir: scratchDir() });
    const linear = new PlatformSynthApp({ outdir: scratchDir() });
    definePair(cdk8s);
    definePair(linear);
    const written = outcome(linear);
    expect(written).toEqual(outcome(cdk8s));
    expect((written as Map<string, string>).get('x.k8s.yaml')).toContain('name: extra');
  });
});

// cdk8s 2.70.0 lib/app.js: App.synth() renders each chart with chart.toJson(), and Chart.toJson()
// is App._synthChart(chart), which runs resolveDependencies(app) and validate(app) over the whole
// app before it renders the chart (lines 56-66). PlatformSynthApp.synth() exists because of the
// first; its prepare() relies on the second. Each test fails, with what to do, when cdk8s changes.
describe('the cdk8s behaviour PlatformSynthApp works around and relies on', () => {
  /** Three charts, and a count of the app's validation passes. */
  function threeCharts(root: App, lib: { Chart: typeof Chart; ApiObject: typeof ApiObject } = { Chart, ApiObject }): () => number {
    let passes = 0;
    for (const id of ['a', 'b', 'c']) new lib.ApiObject(new lib.Chart(root, id), 'cm', { apiVersion: 'v1', kind: 'ConfigMap' });
    root.node.addValidation({ validate: () => (passes++, []) });
    return () => passes;
  }

  test('cdk8s App.synth() validates the whole app once, then again for every chart', () => {
    const app = new App({ outdir: scratchDir() });
    const counted = threeCharts(app);
    app.synth();
    expect(counted(), 'cdk8s App.synth() no longer validates once per chart: PlatformSynthApp.synth() can defer to it (src/synth-app/README.md)').toBe(4);
  });

  test('PlatformSynthApp validates the whole app once', () => {
    const app = new PlatformSynthApp({ outdir: scratchDir() });
    const counted = threeCharts(app);
    app.synth();
    expect(counted()).toBe(1);
  });

  test('cdk8s Chart.toJson() of an empty chart validates the whole app and resolves its dependencies', () => {
    const app = new App({ outdir: scratchDir() });
    const a = new Chart(app, 'a');
    const b = new Chart(app, 'b');
    new ApiObject(b, 'cm', { apiVersion: 'v1', kind: 'ConfigMap' }).node.addDependency(new ApiObject(a, 'cm', { apiVersion: 'v1', kind: 'ConfigMap' }));
    const relied = 'cdk8s Chart.toJson() no longer prepares the whole app: PlatformSynthApp.prepare() must (src/synth-app/README.md)';
    expect(new Chart(app, 'empty').toJson()).toEqual([]);
    expect(b.node.dependencies, relied).toContain(a);
    b.node.addValidation({ validate: () => ['wrong'] });
    expect(() => new Chart(app, 'empty2').toJson(), relied).toThrow('[b] wrong');
  });

  // the upstream fix (patches/cdk8s-2.70.0-validate-once.patch), applied to a copy of the installed cdk8s
  test('with the patch offered upstream, cdk8s App.synth() validates once and writes the same files', () => {
    const dir = scratchDir();
    fs.cpSync(path.join(ROOT, 'node_modules', 'cdk8s'), path.join(dir, 'node_modules', 'cdk8s'), { recursive: true });
    fs.symlinkSync(path.join(ROOT, 'node_modules', 'constructs'), path.join(dir, 'node_modules', 'constructs'));
    execFileSync('git', ['init', '-q'], { cwd: dir });
    execFileSync('git', ['apply', path.join(ROOT, 'patches', 'cdk8s-2.70.0-validate-once.patch')], { cwd: dir });
    const patched: typeof import('cdk8s') = createRequire(path.join(dir, 'index.js'))('cdk8s');
    const app = new patched.App({ outdir: scratchDir() });
    const counted = threeCharts(app, patched);
    app.synth();
    expect(counted()).toBe(1);
    fc.assert(fc.property(generatedApp, spec => {
      const fixed = new patched.App(outputProps(spec, scratchDir()));
      const cdk8s = new App(outputProps(spec, scratchDir()));
      defineGenerated(fixed, spec, patched);
      defineGenerated(cdk8s, spec);
      expect(outcome(fixed)).toEqual(outcome(cdk8s));
    }), { numRuns: 40 });
  });

  test('the chart PlatformSynthApp prepares with is gone after synth(), and never collides', () => {
    const app = new PlatformSynthApp({ outdir: scratchDir() });
    new Chart(app, 'PlatformSynthApp.prepare');
    const before = app.node.children.length;
    app.synth();
    expect(app.node.children.length).toBe(before);
  });
});

describe('whole-app passes run once per synthesis, however many apps', () => {
  function count(apps: number) {
    const root = new PlatformSynthApp({ outdir: fs.mkdtempSync(path.join(os.tmpdir(), 'synth-')) });
    defineGeneratedPlatform(root, 20, apps);
    const standards = new PlatformStandards(root, 'standards', { maxWavePercent: 100, disabledRules: ['prod-gate'] });
    const fleet = root.node.findAll().find(c => ClusterFleet.isClusterFleet(c)) as ClusterFleet;
    const review = vi.spyOn(PlatformStandards.prototype, 'review');
    const validate = vi.spyOn(Node.prototype, 'validate');
    const findAll = vi.spyOn(Node.prototype, 'findAll');
    const clusters = vi.spyOn(fleet, 'clusters', 'get');
    root.synth();
    PlatformReport.write(root);
    const walks = findAll.mock.contexts.filter(n => n === root.node).length;
    const counts = {
      charts: root.charts.length,
      reviews: review.mock.calls.length,
      // validations of the standards construct: one per whole-app validation pass
      standardsValidations: validate.mock.contexts.filter(n => n === standards.node).length,
      wholeTreeWalks: walks,
      clustersReads: clusters.mock.calls.length,
    };
    vi.restoreAllMocks();
    return counts;
  }

  test('with 4 apps and with 24 apps', () => {
    const few = count(4);
    const many = count(24);
    expect(many.charts).toBeGreaterThan(few.charts * 4);
    for (const c of [few, many]) {
      expect(c.reviews).toBe(1);
      expect(c.standardsValidations).toBe(1);
    }
    // validate + dependencies share one walk, `charts` and the reports one each; none per chart
    expect(many.wholeTreeWalks).toBe(few.wholeTreeWalks);
    expect(many.wholeTreeWalks).toBeLessThanOrEqual(6);
    // each app's own check reads the fleet once: per app, not per chart written
    expect(many.clustersReads - 24).toBe(few.clustersReads - 4);
  });
});

const ROOT = path.join(__dirname, '..', '..');
const scratch: string[] = [];

function scratchDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'synth-app-'));
  scratch.push(dir);
  return dir;
}

afterEach(() => {
  for (const dir of scratch.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

/** Every file the app writes, by name. */
function synthesized(app: App): Map<string, string> {
  const a = new Chart(app, 'a');
  const b = new Chart(app, 'b');
  new ApiObject(a, 'first', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'first' } });
  new ApiObject(b, 'second', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'second' } }).node.addDependency(a);
  app.synth();
  return new Map(fs.readdirSync(app.outdir).sort().map(f => [f, fs.readFileSync(path.join(app.outdir, f), 'utf-8')]));
}

describe('synth-app names the cdk8s it works around', () => {
  // src/synth-app/README.md cites that release's lib/app.js line by line: an upgrade must make someone read it again
  test('the installed cdk8s is the version src/synth-app/README.md names', () => {
    const installed = JSON.parse(fs.readFileSync(path.join(ROOT, 'node_modules', 'cdk8s', 'package.json'), 'utf-8')).version;
    const readme = fs.readFileSync(path.join(ROOT, 'src', 'synth-app', 'README.md'), 'utf-8');
    expect(readme.match(/\*\*cdk8s (\S+)\*\*/)?.[1], 'read cdk8s lib/app.js again and update src/synth-app/README.md').toBe(installed);
  });

  test('construct metadata, as cdk8s App writes it', () => {
    const cdk8s = synthesized(new App({ outdir: scratchDir(), recordConstructMetadata: true }));
    const linear = synthesized(new PlatformSynthApp({ outdir: scratchDir(), recordConstructMetadata: true }));
    expect([...linear.keys()]).toEqual(['0000-a.k8s.yaml', '0001-b.k8s.yaml', 'construct-metadata.json']);
    expect(linear).toEqual(cdk8s);
  });
});

describe('PlatformSynthApp._synthesizedJson', () => {
  test('is what synth wrote for each object, until the next synth writes the object again', () => {
    const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'synth-'));
    const app = new PlatformSynthApp({ outdir });
    const obj = new ApiObject(new Chart(app, 'c'), 'cm', { apiVersion: 'v1', kind: 'ConfigMap', data: { a: '1' } });
    expect(PlatformSynthApp._synthesizedJson(app, obj)).toBeUndefined();
    app.synth();
    expect(PlatformSynthApp._synthesizedJson(app, obj)).toEqual(obj.toJson());
    obj.addJsonPatch(JsonPatch.replace('/data/a', '2'));
    expect((PlatformSynthApp._synthesizedJson(app, obj) as any).data).toEqual({ a: '1' });
    app.synth();
    expect((PlatformSynthApp._synthesizedJson(app, obj) as any).data).toEqual({ a: '2' });
    fs.rmSync(outdir, { recursive: true, force: true });
  });

  test('a plain cdk8s App keeps nothing', () => {
    const app = Testing.app();
    const obj = new ApiObject(new Chart(app, 'c'), 'cm', { apiVersion: 'v1', kind: 'ConfigMap' });
    app.synth();
    expect(PlatformSynthApp._synthesizedJson(app, obj)).toBeUndefined();
  });
});
