// cel-js is ESM-only; this library compiles to CommonJS, and Node >= 20.19 can require() ESM.
type CelModule = typeof import('@marcbachmann/cel-js', { with: { 'resolution-mode': 'import' } });
type CompiledRule = (context: Record<string, unknown>) => unknown;

/** One entry of `x-kubernetes-validations`. */
export interface CelRule {
  readonly rule: string;
  readonly message?: string;
  readonly messageExpression?: string;
  readonly fieldPath?: string;
}

export interface CelFailure {
  readonly rule: string;
  readonly message: string;
  /** JSON pointer relative to the node the rule is attached to. */
  readonly relativePath: string;
}

let celModule: CelModule | undefined;
/**
 * The JSON of the realm cel-js runs in, when it is not this code's. cel-js tells maps and lists
 * apart by `v.constructor === Object` / `Array` of its own realm (`lib/operators.js`,
 * `debugType`); jest runs tests, and this library with them, in a vm context whose constructors
 * are other ones, while Node's loader runs cel-js in the main context.
 */
let celRealmJson: JSON | undefined;
const compiledRules = new Map<string, CompiledRule | Error>();

/** Evaluates the rules with `self` bound to `self`; returns the rules that are false or throw. */
export function evaluateCelRules(rules: readonly CelRule[], self: unknown): CelFailure[] {
  const failures: CelFailure[] = [];
  let context: Record<string, unknown> | undefined;
  for (const rule of rules) {
    // Transition rules need the previous object; a manifest has none, and the API server skips them on create.
    if (/\boldSelf\b/.test(rule.rule)) {
      continue;
    }
    const message = rule.message ?? `failed rule: ${rule.rule}`;
    const relativePath = fieldPathToPointer(rule.fieldPath);
    const compiled = compileRule(rule.rule);
    if (compiled instanceof Error) {
      failures.push({ rule: rule.rule, message: `${message} (rule could not be parsed: ${firstLine(compiled.message)})`, relativePath });
      continue;
    }
    try {
      const result = compiled(context ??= celContext(self));
      if (result !== true) {
        failures.push({ rule: rule.rule, message, relativePath });
      }
    } catch (err) {
      failures.push({ rule: rule.rule, message: `${message} (rule threw: ${firstLine((err as Error).message)})`, relativePath });
    }
  }
  return failures;
}

/** `{ self }` in the realm cel-js runs in (copied only when that is not this code's). */
function celContext(self: unknown): Record<string, unknown> {
  return celRealmJson ? celRealmJson.parse(JSON.stringify({ self })) : { self };
}

function compileRule(rule: string): CompiledRule | Error {
  let compiled = compiledRules.get(rule);
  if (compiled === undefined) {
    try {
      compiled = loadCel().parse(rule) as CompiledRule;
    } catch (err) {
      // an Error of this realm: under jest the library runs in a sandbox whose Error is not cel-js's
      compiled = new Error((err as Error).message);
    }
    compiledRules.set(rule, compiled);
  }
  return compiled;
}

function loadCel(): CelModule {
  if (!celModule) {
    // Node's own loader (getBuiltinModule: Node 20.16 and 22.3): jest replaces `module`'s
    // createRequire with its own require, which cannot load an ES module
    const { createRequire } = process.getBuiltinModule('module');
    celModule = createRequire(__filename)('@marcbachmann/cel-js') as CelModule;
    const mainJson = process.getBuiltinModule('vm').runInThisContext('JSON') as JSON;
    celRealmJson = mainJson === JSON ? undefined : mainJson;
  }
  return celModule;
}

/** `fieldPath` is a restricted JSONPath such as `.spec.foo` or `.spec['x.y']`. */
function fieldPathToPointer(fieldPath: string | undefined): string {
  if (!fieldPath) {
    return '';
  }
  const segments = fieldPath.match(/\.[^.[]+|\['[^']*'\]|\[\d+\]/g) ?? [];
  return segments.map((s) => '/' + s.replace(/^\.|^\['|'\]$|^\[|\]$/g, '').replace(/~/g, '~0').replace(/\//g, '~1')).join('');
}

function firstLine(text: string): string {
  return text.split('\n')[0];
}
