import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { ApiObject, App, Chart, Testing, Yaml, YamlOutputType } from 'cdk8s';
import { Construct, Node } from 'constructs';
import * as fc from 'fast-check';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { defineExamples } from '../apps';
import { defineGeneratedPlatform } from '../bench/generated-platform';
import { ClusterFleet, PlatformReport, PlatformStandards, PlatformSynthApp } from '../src';
import { ManifestYaml } from '../src/synth-app/manifest-yaml';
import { compact } from '../src/util/collections';

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

function parseAll(text: string): unknown[] {
  return parseAllDocuments(text, { version: '1.1' }).map(d => d.toJSON());
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
      defineGeneratedPlatform(app, 24, 12);
      new PlatformStandards(app, 'standards', { maxWavePercent: 100, disabledRules: ['prod-gate'] });
    };
    const { cdk8s, linear } = both(define);
    expect(linear.size).toBeGreaterThan(12);
    expect([...linear.keys()]).toEqual([...cdk8s.keys()]);
    for (const [file, text] of cdk8s) expect(linear.get(file), file).toBe(text);
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

describe('ManifestYaml', () => {
  const TRICKY = ['', ' ', 'yes', 'No', 'ON', 'off', 'y', 'N', 'null', '~', 'true', 'False', '0755', '0x1F', '1_000', '1:20', '12:30:00', '2024-01-01',
    '.inf', '-.5', '1e3', '+1', '<<', '-', '- a', '? x', 'a: b', 'a:', 'a #b', '#c', '@x', '`x`', '*a', '&a', '!t', '%p', '|', '>', '"q"', "'s'",
    'https://example.com:8443/x?y=z#frag', '${{ vars.x }}', '{{args.version}}', '[1]', '{a: 1}', 'a,b', '---', '...', 'a\nb', 'a\n\nb\n', '\nlead',
    'trail\n', 'trail\n\n', ' lead space\nx', 'tab\there', 'a \nb', 'ü ß 日本', 'emoji 🚀', 'back\\slash', 'cr\r\nlf', '\u0007bell', '  x  '];
  const line = fc.string({ unit: fc.constantFrom(...'aY10: -.#"\'\\_xeE+={(,\té'), maxLength: 8 });
  const multiline = fc.tuple(fc.array(line, { minLength: 2, maxLength: 4 }), fc.constantFrom('', '\n', '\n\n', ' ', '\n ')).map(([ls, end]) => ls.join('\n') + end);
  const tricky = fc.oneof(
    fc.constantFrom(...TRICKY),
    multiline,
    fc.string({ maxLength: 12 }),
    fc.string({ unit: fc.constantFrom(...'aY10: -.#\n"\'\\_xeE+={(,\t\x7fé'), maxLength: 10 }),
    fc.string({ minLength: 80, maxLength: 300 }),
  );
  // mostly keys as Kubernetes has them: an unusual key sends the whole document to Yaml.stringify.
  // `<<` is a merge key in YAML 1.1: cdk8s's own output does not read back for it, and no manifest has it
  const key = fc.oneof(
    { arbitrary: fc.stringMatching(/^[a-z][a-zA-Z0-9./_-]{0,12}$/), weight: 12 },
    { arbitrary: fc.constantFrom('yes', 'on', 'e5', '1', 'a b', 'a: b', '', '-x', 'x\ny'), weight: 1 },
    { arbitrary: tricky.filter(k => k !== '<<'), weight: 1 },
  );
  const scalar = fc.oneof(tricky, fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.boolean(), fc.constant(null),
    fc.constantFrom(0.5, -0, 1e21, 2 ** 60, -7));
  const { value } = fc.letrec(tie => ({
    value: fc.oneof({ depthSize: 'small', withCrossShrink: true }, scalar, tie('array'), tie('object')),
    array: fc.array(tie('value'), { maxLength: 4 }),
    object: fc.dictionary(key, tie('value'), { maxKeys: 5 }),
  }));
  const doc = fc.dictionary(key, value, { maxKeys: 6 });

  test('writes exactly what Yaml.stringify writes, and it parses back to the object', () => {
    fc.assert(fc.property(fc.array(doc, { minLength: 1, maxLength: 3 }), docs => {
      const text = new ManifestYaml().stringify(docs);
      expect(text).toBe(Yaml.stringify(...docs));
      expect(parseAll(text)).toEqual(JSON.parse(JSON.stringify(docs)));
    }), { numRuns: 600 });
  });

  test('each tricky string at every depth, in maps and sequences', () => {
    const docs = TRICKY.map(t => ({ top: t, map: { inner: { deep: t } }, seq: [t, { item: t, other: [t] }, [t, [t]]] }));
    const text = new ManifestYaml().stringify(docs);
    expect(text).toBe(Yaml.stringify(...docs));
  });

  test('every object of a generated platform parses back to what was synthesized', () => {
    const app = Testing.app();
    defineGeneratedPlatform(app, 24, 6);
    const yaml = new ManifestYaml();
    const objects = app.node.findAll().filter((c): c is ApiObject => c instanceof ApiObject).map(o => o.toJson());
    expect(objects.length).toBeGreaterThan(100);
    expect(parseAll(yaml.stringify(objects))).toEqual(objects);
    expect(yaml.documentFallbacks).toBe(0);
  });

  test('a shared object is left to Yaml.stringify, which writes an alias', () => {
    const shared = { a: 1 };
    const docs = [{ x: shared, y: shared }];
    expect(new ManifestYaml().stringify(docs)).toBe(Yaml.stringify(...docs));
  });
});

describe('compact', () => {
  test('is the JSON round trip', () => {
    const outcome = (f: () => unknown) => {
      try {
        return { value: f() };
      } catch (e) {
        return { error: (e as Error).name };
      }
    };
    fc.assert(fc.property(fc.anything({ withDate: true, withNullPrototype: true, withSparseArray: true, withBoxedValues: true }), v => {
      expect(outcome(() => compact(v))).toStrictEqual(outcome(() => JSON.parse(JSON.stringify(v))));
    }), { numRuns: 500, examples: [[{ ['__proto__']: [] }], [JSON.parse('{"__proto__": {"a": 1}}')]] });
  });
});
