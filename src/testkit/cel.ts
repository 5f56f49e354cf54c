import { createRequire } from 'module';

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
const compiledRules = new Map<string, CompiledRule | Error>();

/** Evaluates the rules with `self` bound to `self`; returns the rules that are false or throw. */
export function evaluateCelRules(rules: readonly CelRule[], self: unknown): CelFailure[] {
  const failures: CelFailure[] = [];
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
      const result = compiled({ self });
      if (result !== true) {
        failures.push({ rule: rule.rule, message, relativePath });
      }
    } catch (err) {
      failures.push({ rule: rule.rule, message: `${message} (rule threw: ${firstLine((err as Error).message)})`, relativePath });
    }
  }
  return failures;
}

function compileRule(rule: string): CompiledRule | Error {
  let compiled = compiledRules.get(rule);
  if (compiled === undefined) {
    try {
      compiled = loadCel().parse(rule) as CompiledRule;
    } catch (err) {
      compiled = err as Error;
    }
    compiledRules.set(rule, compiled);
  }
  return compiled;
}

function loadCel(): CelModule {
  if (!celModule) {
    celModule = createRequire(__filename)('@marcbachmann/cel-js') as CelModule;
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
