import { ApiObject, App, Chart, IResolver, JsonPatch, Lazy, ResolutionContext, Testing } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { defineExamples } from '../../apps';
import * as kargo from '../../imports/kargo-kargo.akuity.io';
import { registerFastRenderedClasses } from '../../src/synth/fast-rendered-classes';
import { isFastRendered, isRenderedTree, registerGeneratedClasses, renderJson } from '../../src/synth-app/fast-to-json';

/** Each object's toJson() and renderJson(), as JSON text (key order counts). */
function bothWays(objects: ApiObject[]): { cdk8s: string[]; fast: string[] } {
  return { cdk8s: objects.map(o => JSON.stringify(o.toJson())), fast: objects.map(o => JSON.stringify(renderJson(o))) };
}

function apiObjects(app: App): ApiObject[] {
  return app.node.findAll().filter((c): c is ApiObject => c instanceof ApiObject);
}

afterEach(() => {
  delete process.env.CDK8S_DISABLE_SORT;
  vi.restoreAllMocks();
});

describe('renderJson', () => {
  test('renders every object of the examples as its toJson() does, key order included, all of them the fast way', () => {
    registerFastRenderedClasses();
    const app = Testing.app();
    defineExamples(app);
    const objects = apiObjects(app);
    expect(objects.length).toBeGreaterThan(200);
    const { cdk8s, fast } = bothWays(objects);
    expect(fast).toEqual(cdk8s);
    // a generated class left to its own method would only be slow: none is
    expect(objects.filter(o => !isFastRendered(o)).map(o => o.constructor.name)).toEqual([]);
  });

  test('tokens, unions, nulls, unsorted and odd keys, patches and cdk8s-plus objects render as cdk8s renders them', () => {
    const app = Testing.app();
    const chart = new Chart(app, 'c');
    const produced: string[] = [];
    new ApiObject(chart, 'odd', {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      data: {
        z: Lazy.any({ produce: () => produced.push('z') && 'last' }),
        a: Lazy.any({ produce: () => produced.push('a') && { b: 2, a: [1, null, { y: undefined, x: 'n' }] } }),
        implicit: { resolve: () => 'resolved' },
        nothing: null,
        gone: undefined,
        10: 'ten',
        2: 'two',
        arr: Object.assign(['x'], { value: 'union-like' }),
      },
      quantity: kplus.k8s.Quantity.fromString('10Mi'),
      port: kplus.k8s.IntOrString.fromNumber(8080),
      proto: JSON.parse('{"__proto__": {"polluted": true}, "k": "v"}'),
      big: [[], {}, [[1]], -0, 1.5, true, false, ''],
    }).addJsonPatch(JsonPatch.add('/data/patched', 'yes'));
    new kplus.Deployment(chart, 'web', { containers: [{ image: 'nginx', portNumber: 80 }] });
    const { cdk8s, fast } = bothWays(apiObjects(app));
    expect(fast).toEqual(cdk8s);
    expect(cdk8s.join()).toContain('"data":{"2":"two","10":"ten","a":{"a":[1,null,{"x":"n"}],"b":2}');
    // Lazy values are produced in the object's own order, then sorted, by both
    expect(produced).toEqual(['z', 'a', 'z', 'a']);
  });

  test('metadata renders as cdk8s renders it: sorted, empty lists and maps dropped, tokens and odd values through cdk8s', () => {
    const app = Testing.app();
    const chart = new Chart(app, 'c', { namespace: 'ns', labels: { chart: 'label' } });
    const produced: string[] = [];
    const cm = (id: string, metadata: Record<string, any>) => new ApiObject(chart, id, { apiVersion: 'v1', kind: 'ConfigMap', metadata });
    cm('plain', { name: 'plain', labels: { z: '1', a: '2' }, annotations: { 'b/x': 'y', 'a/x': '' }, finalizers: ['f'], generateName: 'g-' });
    cm('empty', { annotations: {}, finalizers: [], labels: {}, extra: { nested: [] }, list: [[], {}, null, 'x'] });
    cm('owners', { ownerReferences: [{ apiVersion: 'v1', kind: 'Secret', name: 's', uid: 'u', controller: true }], deep: { b: { d: 1, c: [2] }, a: null } });
    cm('lazy', { labels: { late: Lazy.any({ produce: () => produced.push('late') && 'value' }) } as any });
    cm('implicit', { annotations: { v: { resolve: () => 'resolved' } } as any, odd: JSON.parse('{"__proto__": {"p": 1}, "k": "v"}') });
    cm('union', { labels: { port: kplus.k8s.IntOrString.fromNumber(80) as any } });
    const added = cm('added', { name: 'added' });
    added.metadata.addLabel('later', 'yes');
    added.metadata.addAnnotation('note', 'a: b');
    added.metadata.addFinalizers('x', 'y');
    added.metadata.add('uid', 'set-after');
    const { cdk8s, fast } = bothWays(apiObjects(app));
    expect(fast).toEqual(cdk8s);
    expect(cdk8s[1]).toContain('"metadata":{"labels":{"chart":"label"},"list":[null,null,null,"x"],"name":');
    // the Lazy is produced once by each rendering, as cdk8s's metadata produces it
    expect(produced).toEqual(['late', 'late']);
  });

  test('objects of any size and order sort as cdk8s sorts them (code units, digits, case, non-ASCII)', () => {
    const app = Testing.app();
    const chart = new Chart(app, 'c');
    // a fixed shuffle (not random: a failure must reproduce) of keys that sort differently by locale or number
    const pool = ['b', 'B', 'a', 'A', '_', '-x', '10', '9', '1', '01', 'é', 'z', 'Z', 'aa', 'a-b', 'a.b', 'a/b', 'ä', '日', '~'];
    const shuffled = (n: number) => Array.from({ length: n }, (_, i) => `${pool[(i * 7) % pool.length]}${Math.floor(i / pool.length) || ''}`);
    for (const n of [2, 5, 31, 32, 33, 80]) {
      const keys = shuffled(n);
      const map = Object.fromEntries(keys.map((k, i) => [k, i % 5 === 0 ? undefined : { [keys[(i + 3) % n]]: i, [keys[(i + 1) % n]]: null }]));
      new ApiObject(chart, `n${n}`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { labels: Object.fromEntries(keys.map(k => [k, 'v'])) }, data: map });
    }
    const { cdk8s, fast } = bothWays(apiObjects(app));
    expect(fast).toEqual(cdk8s);
  });

  test('marks what it renders itself without patches as a tree: a value shared in the props is copied once per use', () => {
    registerFastRenderedClasses();
    const app = Testing.app();
    const chart = new Chart(app, 'c');
    const shared = { a: [1, { b: 2 }] };
    const lazyShared = Lazy.any({ produce: () => shared });
    const plain = new ApiObject(chart, 'plain', { apiVersion: 'v1', kind: 'ConfigMap', data: { x: shared, y: shared, z: lazyShared, w: lazyShared } });
    const stage = new kargo.Stage(chart, 'stage', { metadata: { name: 's' }, spec: { promotionTemplate: { spec: { steps: [{ uses: 'a', config: shared }, { uses: 'b', config: shared }] } } } });
    const patched = new ApiObject(chart, 'patched', { apiVersion: 'v1', kind: 'ConfigMap', data: { x: shared } });
    patched.addJsonPatch(JsonPatch.copy('/data/x', '/data/y'));
    const own = new ApiObject(chart, 'own', { apiVersion: 'v1', kind: 'ConfigMap', data: { x: shared } });
    own.toJson = () => ({ apiVersion: 'v1', kind: 'ConfigMap', data: { x: shared, y: shared } });
    /** Every object and array of `value`, each once per place it appears. */
    const nodes = (value: unknown): object[] => (typeof value === 'object' && value !== null
      ? [value, ...Object.values(value).flatMap(nodes)] : []);
    for (const obj of [plain, stage]) {
      const doc = renderJson(obj);
      expect(isRenderedTree(doc), obj.node.id).toBe(true);
      const all = nodes(doc);
      expect(new Set(all).size, obj.node.id).toBe(all.length);
    }
    expect(isRenderedTree(renderJson(patched))).toBe(false);
    expect(isRenderedTree(renderJson(own))).toBe(false);
    expect(isRenderedTree({})).toBe(false);
  });

  test('metadata with a class or toJson() of its own renders through it', () => {
    const app = Testing.app();
    const obj = new ApiObject(new Chart(app, 'c'), 'cm', { apiVersion: 'v1', kind: 'ConfigMap' });
    vi.spyOn(obj.metadata, 'toJson').mockReturnValue({ name: 'from-spy' });
    expect(renderJson(obj).metadata).toEqual({ name: 'from-spy' });
    expect(JSON.stringify(renderJson(obj))).toBe(JSON.stringify(obj.toJson()));
  });

  test('keys stay unsorted with CDK8S_DISABLE_SORT, as cdk8s leaves them', () => {
    process.env.CDK8S_DISABLE_SORT = '1';
    const app = Testing.app();
    new ApiObject(new Chart(app, 'c'), 'cm', { apiVersion: 'v1', kind: 'ConfigMap', data: { z: '1', a: '2' } });
    const { cdk8s, fast } = bothWays(apiObjects(app));
    expect(fast).toEqual(cdk8s);
    expect(fast[0]).toContain('"data":{"z":"1","a":"2"}');
  });

  test('an app with resolvers of its own is rendered by toJson(), which calls them', () => {
    const seen: string[] = [];
    const upper: IResolver = {
      resolve: (context: ResolutionContext) => {
        seen.push(context.key.join('.'));
        if (typeof context.value === 'string' && context.value !== context.value.toUpperCase()) context.replaceValue(context.value.toUpperCase());
      },
    };
    const app = new App({ resolvers: [upper] });
    const obj = new ApiObject(new Chart(app, 'c'), 'cm', { apiVersion: 'v1', kind: 'ConfigMap', data: { a: 'x' } });
    expect(isFastRendered(obj)).toBe(false);
    const { cdk8s, fast } = bothWays([obj]);
    expect(fast).toEqual(cdk8s);
    expect(fast[0]).toContain('"data":{"a":"X"}');
    expect(seen).toContain('data.a');
  });

  test('a toJson() replaced on the object, on a subclass or on ApiObject is the one that renders', () => {
    registerGeneratedClasses(kargo as unknown as Record<string, unknown>);
    const chart = new Chart(Testing.app(), 'c');
    const spied = new ApiObject(chart, 'spied', { apiVersion: 'v1', kind: 'ConfigMap' });
    spied.toJson = () => ({ mine: true });
    class MyWarehouse extends kargo.Warehouse {
      public toJson(): any {
        return { ...super.toJson(), extra: 1 };
      }
    }
    const sub = new MyWarehouse(chart, 'sub', { metadata: { name: 'w' }, spec: { subscriptions: [] } });
    const plain = new kargo.Warehouse(chart, 'plain', { metadata: { name: 'p' }, spec: { subscriptions: [] } });
    expect(renderJson(spied)).toEqual({ mine: true });
    expect(renderJson(sub).extra).toBe(1);
    expect(isFastRendered(plain)).toBe(true);
    const wrapped = vi.spyOn(ApiObject.prototype, 'toJson');
    expect(isFastRendered(plain)).toBe(false);
    renderJson(plain);
    expect(wrapped).toHaveBeenCalled();
  });

  test('registers a generated class as a bundler rewrites it (esbuild renames `resolved` and drops the trailing comma)', () => {
    const toJson_BundledProps = (p: any) => ({ metadata: p.metadata, data: p.data });
    class Bundled extends ApiObject {
      public static readonly GVK = { apiVersion: 'v1', kind: 'ConfigMap' };
      public toJson(): any { const resolved2 = super.toJson(); return { ...Bundled.GVK, ...toJson_BundledProps(resolved2) }; }
    }
    registerGeneratedClasses({ Bundled, toJson_BundledProps });
    const obj = new Bundled(new Chart(Testing.app(), 'c'), 'b', { ...Bundled.GVK, data: { z: '1', a: '2' } });
    expect(isFastRendered(obj)).toBe(true);
    expect(JSON.stringify(renderJson(obj))).toBe(JSON.stringify(obj.toJson()));
  });

  test('registers only classes whose toJson() is the generated one', () => {
    class Hand extends ApiObject {
      public static readonly GVK = { apiVersion: 'v1', kind: 'ConfigMap' };
      public toJson(): any {
        return { ...super.toJson(), hand: true };
      }
    }
    registerGeneratedClasses({ Hand, toJson_HandProps: (x: unknown) => x });
    const obj = new Hand(new Chart(Testing.app(), 'c'), 'h', { ...Hand.GVK });
    expect(isFastRendered(obj)).toBe(false);
    expect(renderJson(obj).hand).toBe(true);
  });

  test('fails if an object holds a value cdk8s cannot render, with cdk8s\'s message', () => {
    const app = Testing.app();
    const obj = new ApiObject(new Chart(app, 'c'), 'cm', { apiVersion: 'v1', kind: 'ConfigMap', data: { when: new Date(0) } });
    const message = (fn: () => unknown) => {
      try {
        fn();
      } catch (e) {
        return (e as Error).message;
      }
      return 'no error';
    };
    const cdk8s = message(() => obj.toJson());
    expect(cdk8s).toMatch(/^Failed serializing construct at path 'c\/cm' with name 'c-cm-.*': Error: can't render non-simple object of type 'Date'$/);
    expect(message(() => renderJson(obj))).toBe(cdk8s);
  });
});
