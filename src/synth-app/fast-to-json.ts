import { ApiObject, App, ImplicitTokenResolver, JsonPatch, LazyResolver, NumberStringUnionResolver, resolve } from 'cdk8s';

/** cdk8s's own `ApiObject.prototype.toJson`, as the module found it. */
const cdk8sToJson = ApiObject.prototype.toJson;

/**
 * Runs `fn` with `ApiObject.prototype.toJson` replaced by `fastToJson`, which returns what cdk8s
 * 2.70.0's returns (see README.md in this folder), and puts cdk8s's back afterwards, however
 * `fn` ends. The generated classes (`KubeStage`, `KubeJob`, ...) reach it through `super.toJson()`.
 * Nothing is replaced when something else already replaced cdk8s's method (a benchmark's or a
 * test's spy): that one keeps running.
 * @internal
 */
export function withFastToJson<T>(fn: () => T): T {
  if (ApiObject.prototype.toJson !== cdk8sToJson || !plainPrimitives()) return fn();
  ApiObject.prototype.toJson = function (this: ApiObject) {
    return fastToJson(this);
  };
  try {
    return fn();
  } finally {
    ApiObject.prototype.toJson = cdk8sToJson;
  }
}

/**
 * cdk8s 2.70.0 `ApiObject.toJson()` (lib/api-object.js): the props and the rendered metadata,
 * resolved (`resolve()`), sanitized (`sanitizeValue()`: keys sorted unless CDK8S_DISABLE_SORT,
 * null and undefined members dropped), patched, `apiVersion`, `kind` and `metadata` first. The
 * resolving and sanitizing happen in one walk that copies plain JSON (strings, numbers,
 * booleans, arrays and plain objects without a `resolve` method: what cdk8s's default resolvers
 * leave as they are) and hands every other value to cdk8s's `resolve()`. An app with resolvers
 * of its own gets cdk8s's method.
 */
function fastToJson(obj: ApiObject): any {
  if (!defaultResolvers(App.of(obj) as App)) return cdk8sToJson.call(obj);
  try {
    const data = { ...(obj as any).props, metadata: obj.metadata.toJson() };
    const sortKeys = process.env.CDK8S_DISABLE_SORT ? false : true;
    const json = resolved(data, obj, sortKeys);
    const patched = JsonPatch.apply(json, ...(obj as any).patches);
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
  return [String.prototype, Number.prototype, Boolean.prototype].every(p => !('resolve' in p) && !('value' in p));
}

/** Whether the app resolves with cdk8s's three default resolvers only (`App` constructor), in their order. */
function defaultResolvers(app: App): boolean {
  const r = app.resolvers;
  return r.length === 3 && r[0].constructor === LazyResolver && r[1].constructor === ImplicitTokenResolver
    && r[2].constructor === NumberStringUnionResolver;
}

/** `sanitizeValue(resolve([], value, obj), { sortKeys })`, copying plain JSON directly. */
function resolved(value: any, obj: ApiObject, sortKeys: boolean): any {
  if (value === null || value === undefined) return undefined;
  switch (typeof value) {
    case 'string':
    case 'number':
    case 'boolean':
      return value;
    case 'object':
      break;
    default:
      return sanitized(resolve([], value, obj), sortKeys);
  }
  // what the default resolvers replace: Lazy (not a plain object), anything with a resolve()
  // method, a union class with a `value` (not a plain object); arrays may carry either
  if (typeof value.resolve === 'function') return sanitized(resolve([], value, obj), sortKeys);
  if (Array.isArray(value)) {
    if (Object.getPrototypeOf(value) !== Array.prototype || typeof (value as any).value === 'number' || typeof (value as any).value === 'string') {
      return sanitized(resolve([], value, obj), sortKeys);
    }
    return value.map(x => resolved(x, obj, sortKeys));
  }
  // `__proto__` as an own key: resolve()'s copy would set the prototype instead
  if (value.constructor !== Object || Object.prototype.hasOwnProperty.call(value, '__proto__')) {
    return sanitized(resolve([], value, obj), sortKeys);
  }
  // resolved in the object's own order, as resolve() walks it (a Lazy may count on it), then sorted
  const keys = Object.keys(value);
  const values = keys.map(key => resolved(value[key], obj, sortKeys));
  const order = sortKeys && !isSorted(keys) ? keys.map((_, i) => i).sort((a, b) => compareKeys(keys[a], keys[b])) : undefined;
  const out: any = {};
  for (let j = 0; j < keys.length; j++) {
    const i = order ? order[j] : j;
    if (values[i] != null) out[keys[i]] = values[i];
  }
  return out;
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
