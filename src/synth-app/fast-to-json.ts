import { ApiObject, ApiObjectMetadataDefinition, App, ImplicitTokenResolver, JsonPatch, LazyResolver, NumberStringUnionResolver, resolve } from 'cdk8s';

/** cdk8s's own `ApiObject.prototype.toJson`, as the module found it. */
const cdk8sToJson = ApiObject.prototype.toJson;

/** A class `cdk8s import` generated: its `toJson` as registered, its GVK and its props converter. */
interface GeneratedClass {
  readonly toJson: () => any;
  readonly gvk: { apiVersion: string; kind: string };
  readonly convert: (resolved: any) => any;
}

const generated = new Map<Function, GeneratedClass>();

/**
 * The body `cdk8s import` writes for every generated class's `toJson()`:
 * `const resolved = super.toJson(); return { ...X.GVK, ...toJson_XProps(resolved) };`
 * (a bundler may rename the identifiers, as esbuild renames `resolved` to `resolved2`, and drop
 * the trailing comma, so any identifiers are accepted).
 */
const GENERATED_TO_JSON = /^toJson\(\)\s*\{\s*const ([\w$]+) = super\.toJson\(\);?\s*return\s*\{\s*\.\.\.[\w$]+\.GVK,\s*\.\.\.[\w$]+\(\1\),?\s*\};?\s*\}$/;

/**
 * Registers the classes of a module `cdk8s import` generated (`imports/*.ts`, cdk8s-plus's `k8s`):
 * each exported class with a static `GVK` whose `toJson()` is the generated one, with the
 * module's exported `toJson_<Class>Props`. `renderJson` then renders their objects with
 * `fastToJson` in place of `super.toJson()`. A class whose `toJson()` reads otherwise is left out
 * and rendered by its own method.
 * @internal
 */
export function registerGeneratedClasses(module: Record<string, unknown>): void {
  for (const [name, value] of Object.entries(module)) {
    if (typeof value !== 'function' || !Object.prototype.hasOwnProperty.call(value.prototype ?? {}, 'toJson')) continue;
    const gvk = (value as any).GVK;
    const convert = module[`toJson_${name}Props`];
    const toJson = value.prototype.toJson;
    if (!gvk || typeof convert !== 'function') continue;
    if (Object.getPrototypeOf(value.prototype) !== ApiObject.prototype || !GENERATED_TO_JSON.test(String(toJson))) continue;
    generated.set(value, { toJson, gvk, convert: convert as (resolved: any) => any });
  }
}

/**
 * What `obj.toJson()` returns. For a plain `ApiObject` or an object of a registered generated
 * class, computed by `fastToJson` (the same JSON, key order included, in one walk); for every
 * other object, by its own `toJson()`. Anything that could make the two differ sends the object
 * to its own method: an app with resolvers of its own, a `toJson` replaced on the object, its
 * class or `ApiObject` (a spy, a subclass), prototypes of strings, numbers or booleans given a
 * `resolve()` or a `value`.
 * @internal
 */
export function renderJson(obj: ApiObject): any {
  const how = renderedBy(obj);
  if (how === 'own') return obj.toJson();
  const json = fastToJson(obj);
  // what the generated toJson() does with super.toJson()
  const doc = how === 'fast' ? json : { ...how.gvk, ...how.convert(json) };
  // a fresh copy of every member (the converters read each member once), unless a patch moved values
  if ((obj as any).patches.length === 0) trees.add(doc);
  return doc;
}

/** Documents `renderJson` built without patches: trees, no object or array in them twice. */
const trees = new WeakSet<object>();

/**
 * Whether `renderJson` built `doc` as a tree, every object and array in it once (so a YAML
 * writer need not look for the shared ones `yaml` writes as anchors and aliases).
 * @internal
 */
export function isRenderedTree(doc: unknown): boolean {
  return typeof doc === 'object' && doc !== null && trees.has(doc);
}

/**
 * Whether `renderJson` renders `obj` with `fastToJson` (for tests: a generated class that is
 * silently left to its own method would only be slow).
 * @internal
 */
export function isFastRendered(obj: ApiObject): boolean {
  return renderedBy(obj) !== 'own';
}

function renderedBy(obj: ApiObject): 'own' | 'fast' | GeneratedClass {
  if (ApiObject.prototype.toJson !== cdk8sToJson || Object.prototype.hasOwnProperty.call(obj, 'toJson') || !plainPrimitives()) return 'own';
  if (!defaultResolvers(App.of(obj) as App)) return 'own';
  const ctor = obj.constructor;
  if (ctor === ApiObject) return 'fast';
  const cls = generated.get(ctor);
  return cls && ctor.prototype.toJson === cls.toJson ? cls : 'own';
}

/**
 * cdk8s 2.70.0 `ApiObject.toJson()` (lib/api-object.js): the props and the rendered metadata,
 * resolved (`resolve()`), sanitized (`sanitizeValue()`: keys sorted unless CDK8S_DISABLE_SORT,
 * null and undefined members dropped), patched, `apiVersion`, `kind` and `metadata` first. The
 * resolving and sanitizing happen in one walk that copies plain JSON (strings, numbers,
 * booleans, arrays and plain objects without a `resolve` method: what cdk8s's default resolvers
 * leave as they are) and hands every other value to cdk8s's `resolve()`.
 */
function fastToJson(obj: ApiObject): any {
  try {
    const data = { ...(obj as any).props, metadata: metadataJson(obj) };
    const sortKeys = process.env.CDK8S_DISABLE_SORT ? false : true;
    const json = resolved(data, obj, sortKeys);
    const patches = (obj as any).patches as JsonPatch[];
    const patched = patches.length > 0 ? JsonPatch.apply(json, ...patches) : json;
    const result: any = {};
    for (const k of ['apiVersion', 'kind', 'metadata', ...Object.keys(patched)]) {
      if (k in patched) result[k] = patched[k];
    }
    return result;
  } catch (e) {
    throw new Error(`Failed serializing construct at path '${obj.node.path}' with name '${obj.name}': ${e}`);
  }
}

/**
 * Whether the default resolvers leave strings, numbers and booleans as they are: unless a
 * prototype was given a `resolve()` method or a `value`, which `ImplicitTokenResolver` and
 * `NumberStringUnionResolver` would act on.
 */
function plainPrimitives(): boolean {
  return !('resolve' in String.prototype) && !('value' in String.prototype) && !('resolve' in Number.prototype)
    && !('value' in Number.prototype) && !('resolve' in Boolean.prototype) && !('value' in Boolean.prototype);
}

/** Whether the app resolves with cdk8s's three default resolvers only (`App` constructor), in their order. */
function defaultResolvers(app: App): boolean {
  const r = app.resolvers;
  return r.length === 3 && r[0].constructor === LazyResolver && r[1].constructor === ImplicitTokenResolver
    && r[2].constructor === NumberStringUnionResolver;
}

/** `sanitizeValue(resolve([], value, obj), { sortKeys })`, copying plain JSON directly. */
function resolved(value: any, obj: ApiObject, sortKeys: boolean): any {
  switch (kindOf(value)) {
    case 'absent': return undefined;
    case 'primitive': return value;
    case 'resolvable': return sanitized(resolve([], value, obj), sortKeys);
    case 'plain': break;
  }
  if (Array.isArray(value)) {
    const out = new Array(value.length);
    for (let i = 0; i < value.length; i++) out[i] = resolved(value[i], obj, sortKeys);
    return out;
  }
  // resolved in the object's own order, as resolve() walks it (a Lazy may count on it), then sorted
  const keys = Object.keys(value);
  if (!sortKeys || isSorted(keys)) {
    const out: any = {};
    for (const key of keys) {
      const v = resolved(value[key], obj, sortKeys);
      if (v != null) out[key] = v;
    }
    return out;
  }
  const values = new Array(keys.length);
  for (let i = 0; i < keys.length; i++) values[i] = resolved(value[keys[i]], obj, sortKeys);
  sortByKeys(keys, values);
  const out: any = {};
  for (let i = 0; i < keys.length; i++) {
    if (values[i] != null) out[keys[i]] = values[i];
  }
  return out;
}

/**
 * Sorts `keys` (distinct) in the order of `Array.prototype.sort()` without a comparator (UTF-16
 * code units), moving `values` with them. Most objects have a handful of keys, out of order:
 * `sort()` allocates its own state and work arrays for each (at 100 clusters x 1000 apps, more
 * than the objects it sorts), insertion sort nothing.
 */
function sortByKeys(keys: string[], values?: unknown[]): void {
  if (keys.length > 32) {
    // insertion sort is quadratic: large maps (labels, data) take sort()'s allocations
    const order = keys.map((_, i) => i).sort((a, b) => compareKeys(keys[a], keys[b]));
    const [sortedKeys, sortedValues] = [order.map(i => keys[i]), order.map(i => values?.[i])];
    for (let i = 0; i < keys.length; i++) {
      keys[i] = sortedKeys[i];
      if (values) values[i] = sortedValues[i];
    }
    return;
  }
  for (let i = 1; i < keys.length; i++) {
    const key = keys[i];
    const value = values?.[i];
    let j = i - 1;
    for (; j >= 0 && keys[j] > key; j--) {
      keys[j + 1] = keys[j];
      if (values) values[j + 1] = values[j];
    }
    keys[j + 1] = key;
    if (values) values[j + 1] = value;
  }
}

/**
 * What the default resolvers and sanitizing do with a value: drop it (`absent`), keep it
 * (`primitive`), copy it member by member (`plain`: an array or a plain `Object`), or replace it
 * (`resolvable`: a Lazy or anything with a `resolve()` method, a union class with a `value`,
 * which arrays may carry too, a function, and an object with `__proto__` as an own key, which
 * resolve()'s copy would make the prototype).
 */
function kindOf(value: any): 'absent' | 'primitive' | 'plain' | 'resolvable' {
  if (value === null || value === undefined) return 'absent';
  switch (typeof value) {
    case 'string':
    case 'number':
    case 'boolean':
      return 'primitive';
    case 'object':
      break;
    default:
      return 'resolvable';
  }
  if (typeof value.resolve === 'function') return 'resolvable';
  if (Array.isArray(value)) {
    const union = typeof (value as any).value === 'number' || typeof (value as any).value === 'string';
    return Object.getPrototypeOf(value) === Array.prototype && !union ? 'plain' : 'resolvable';
  }
  return value.constructor === Object && !Object.prototype.hasOwnProperty.call(value, '__proto__') ? 'plain' : 'resolvable';
}

/** cdk8s's own `ApiObjectMetadataDefinition.prototype.toJson`, as the module found it. */
const cdk8sMetadataToJson = ApiObjectMetadataDefinition.prototype.toJson;

/** Marks a value `plainMetadata` leaves to cdk8s (one that a resolver would act on, or sanitizing reject). */
const NOT_PLAIN = Symbol('not plain');

/**
 * `obj.metadata.toJson()`: cdk8s 2.70.0 (lib/metadata.js) resolves the attributes and sanitizes
 * them with keys sorted and empty arrays and maps dropped. Metadata of plain JSON (names, labels,
 * annotations: all of this library's) is copied that way here, in one walk; anything else, or a
 * metadata class or `toJson` of its own, goes through cdk8s.
 */
function metadataJson(obj: ApiObject): any {
  const md = obj.metadata as any;
  if (Object.getPrototypeOf(md) !== ApiObjectMetadataDefinition.prototype || md.toJson !== cdk8sMetadataToJson) return md.toJson();
  const data = {
    ...md._additionalAttributes,
    name: md.name,
    namespace: md.namespace,
    annotations: md.annotations,
    finalizers: md.finalizers,
    ownerReferences: md.ownerReferences,
    labels: md.labels,
  };
  const json = plainMetadata(data);
  return json === NOT_PLAIN ? md.toJson() : json;
}

/**
 * `sanitizeValue(value, { filterEmptyArrays: true, filterEmptyObjects: true })` of plain JSON, or
 * `NOT_PLAIN` for any value `resolved()` would hand to cdk8s's `resolve()`: nothing is resolved
 * before it returns, so cdk8s then resolves the metadata from the start.
 */
function plainMetadata(value: any): any {
  switch (kindOf(value)) {
    case 'absent': return undefined;
    case 'primitive': return value;
    case 'resolvable': return NOT_PLAIN;
    case 'plain': break;
  }
  if (Array.isArray(value)) {
    if (value.length === 0) return undefined;
    const out = new Array(value.length);
    for (let i = 0; i < value.length; i++) {
      const v = plainMetadata(value[i]);
      if (v === NOT_PLAIN) return NOT_PLAIN;
      out[i] = v;
    }
    return out;
  }
  const out: any = {};
  let empty = true;
  const keys = Object.keys(value);
  sortByKeys(keys);
  for (const key of keys) {
    const v = plainMetadata(value[key]);
    if (v === NOT_PLAIN) return NOT_PLAIN;
    if (v != null) {
      out[key] = v;
      empty = false;
    }
  }
  return empty ? undefined : out;
}

/** The order of `Array.prototype.sort()` without a comparator: UTF-16 code units (keys are distinct). */
function compareKeys(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function isSorted(keys: string[]): boolean {
  for (let i = 1; i < keys.length; i++) if (keys[i - 1] > keys[i]) return false;
  return true;
}

/** cdk8s 2.70.0 `sanitizeValue()` (lib/_util.js, not exported) with `sortKeys` only, as `toJson()` calls it. */
function sanitized(obj: any, sortKeys: boolean): any {
  if (obj == null) return undefined;
  if (typeof obj !== 'object') return obj;
  if (Array.isArray(obj)) return obj.map(x => sanitized(x, sortKeys));
  if (obj.constructor.name !== 'Object') throw new Error(`can't render non-simple object of type '${obj.constructor.name}'`);
  const out: any = {};
  const keys = sortKeys ? Object.keys(obj).sort() : Object.keys(obj);
  for (const key of keys) {
    const v = sanitized(obj[key], sortKeys);
    if (v != null) out[key] = v;
  }
  return out;
}
