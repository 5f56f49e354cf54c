/**
 * The subset of expr-lang (github.com/expr-lang/expr v1.17.8, pinned by Kargo v1.11.2's go.mod)
 * that Kargo promotion templates use: literals (arrays too), member and index access with `?.` chaining,
 * calls, `!`/`not`, `==`, `!=`, `<`, `>`, `<=`, `>=`, `in`, `&&`/`and`, `||`/`or`, `+`, `-`, `*`,
 * `..` (a range of ints), `??`, `? :`, `let x = ...; ...` (`parser/parser.go`
 * `parseVariableDeclaration`), predicates `{ ... # ... }` as arguments (`parsePredicate`) and
 * methods of Go times (./expr-time). Operator precedences follow expr-lang
 * `parser/operator/operator.go` (`??` binds tightest of the binary operators). Reading a member of nil fails like expr-lang's
 * `vm/runtime/runtime.go` `Fetch` ("cannot fetch <name> from <nil>"); a missing map key yields nil.
 */

import { date, duration, GoTime, timeOperation, TimeError, timezone } from './expr-time';

/** An expression failed to evaluate: the promotion step that owns it errors. */
export class ExprError extends Error {}

/** A value that behaves like a Go struct: reading an unknown field fails. */
export class GoStruct {
  constructor(public readonly goType: string, public readonly fields: Record<string, unknown>) {}
}

type Node =
  | { t: 'lit'; v: unknown }
  | { t: 'id'; name: string }
  | { t: 'member'; obj: Node; key: Node; optional: boolean }
  | { t: 'call'; fn: string; args: Node[] }
  | { t: 'method'; obj: Node; name: string; args: Node[] }
  | { t: 'predicate'; body: Node }
  | { t: 'array'; items: Node[] }
  | { t: 'let'; name: string; value: Node; body: Node }
  | { t: 'unary'; op: string; arg: Node }
  | { t: 'bin'; op: string; l: Node; r: Node }
  | { t: 'cond'; test: Node; yes: Node; no: Node };

const BINARY: Record<string, number> = {
  'or': 10,
  '||': 10,
  'and': 15,
  '&&': 15,
  '==': 20,
  '!=': 20,
  '<': 20,
  '>': 20,
  '<=': 20,
  '>=': 20,
  'in': 20,
  '..': 25,
  '+': 30,
  '-': 30,
  '*': 60,
  '/': 60,
  '%': 60,
  '??': 500,
};
const TOKEN = /\s*(?:(\d+(?:\.\d+)?(?:[eE][-+]?\d+)?)|('(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*")|([A-Za-z_$][\w$]*)|(\?\.|\?\?|==|!=|<=|>=|&&|\|\||\.\.|[-+*/%<>!?:.,()[\]{};=#]))/y;

function tokenize(src: string): string[] {
  const tokens: string[] = [];
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < src.length) {
    if (/^\s*$/.test(src.slice(TOKEN.lastIndex))) break;
    const start = TOKEN.lastIndex;
    const m = TOKEN.exec(src);
    if (!m) throw new ExprError(`unexpected character at ${start} in ${JSON.stringify(src)}`);
    tokens.push(m[1] ?? m[2] ?? m[3] ?? m[4]);
  }
  return tokens;
}

class Parser {
  private pos = 0;
  constructor(private readonly tokens: string[], private readonly src: string) {}

  public parseAll(): Node {
    const node = this.expression();
    if (this.pos < this.tokens.length) this.fail(`unexpected ${this.tokens[this.pos]}`);
    return node;
  }

  private fail(what: string): never {
    throw new ExprError(`${what} in ${JSON.stringify(this.src)}`);
  }

  private peek(): string | undefined {
    return this.tokens[this.pos];
  }

  private take(expected?: string): string {
    const tok = this.tokens[this.pos++];
    if (tok === undefined || (expected !== undefined && tok !== expected)) this.fail(`expected ${expected ?? 'a token'}, got ${tok ?? 'the end'}`);
    return tok;
  }

  private expression(): Node {
    if (this.peek() === 'let') {
      this.take('let');
      const name = this.take();
      this.take('=');
      const value = this.expression();
      this.take(';');
      return { t: 'let', name, value, body: this.expression() };
    }
    const test = this.binary(0);
    if (this.peek() !== '?') return test;
    this.take('?');
    const yes = this.expression();
    this.take(':');
    return { t: 'cond', test, yes, no: this.expression() };
  }

  private binary(min: number): Node {
    let left = this.unary();
    for (;;) {
      const op = this.peek();
      const prec = op === undefined ? undefined : BINARY[op];
      if (prec === undefined || prec <= min) return left;
      this.take();
      left = { t: 'bin', op: op!, l: left, r: this.binary(prec) };
    }
  }

  private unary(): Node {
    const op = this.peek();
    if (op === '!' || op === 'not' || op === '-') {
      this.take();
      return { t: 'unary', op, arg: this.binary(50) };
    }
    return this.postfix(this.primary());
  }

  private primary(): Node {
    const tok = this.take();
    if (/^\d/.test(tok)) return { t: 'lit', v: Number(tok) };
    if (tok.startsWith("'") || tok.startsWith('"')) return { t: 'lit', v: unquote(tok) };
    if (tok === '(') {
      const inner = this.expression();
      this.take(')');
      return inner;
    }
    if (tok === '[') {
      const items: Node[] = [];
      while (this.peek() !== ']') {
        items.push(this.expression());
        if (this.peek() === ',') this.take(',');
      }
      this.take(']');
      return { t: 'array', items };
    }
    if (tok === 'true' || tok === 'false') return { t: 'lit', v: tok === 'true' };
    if (tok === 'nil') return { t: 'lit', v: null };
    if (tok === '#') return { t: 'id', name: '#' };
    if (!/^[A-Za-z_$]/.test(tok)) this.fail(`unexpected ${tok}`);
    if (this.peek() === '(') return { t: 'call', fn: tok, args: this.args() };
    return { t: 'id', name: tok };
  }

  /** Call arguments; a `{ ... }` argument is a predicate. */
  private args(): Node[] {
    this.take('(');
    const args: Node[] = [];
    while (this.peek() !== ')') {
      if (this.peek() === '{') {
        this.take('{');
        args.push({ t: 'predicate', body: this.expression() });
        this.take('}');
      } else {
        args.push(this.expression());
      }
      if (this.peek() === ',') this.take(',');
    }
    this.take(')');
    return args;
  }

  private postfix(node: Node): Node {
    for (;;) {
      const tok = this.peek();
      if (tok === '.' || tok === '?.') {
        this.take();
        if (this.peek() === '[') {
          node = this.index(node, true);
          continue;
        }
        const name = this.take();
        node = this.peek() === '(' ? { t: 'method', obj: node, name, args: this.args() } : { t: 'member', obj: node, key: { t: 'lit', v: name }, optional: tok === '?.' };
      } else if (tok === '[') {
        node = this.index(node, false);
      } else {
        return node;
      }
    }
  }

  private index(obj: Node, optional: boolean): Node {
    this.take('[');
    const key = this.expression();
    this.take(']');
    return { t: 'member', obj, key, optional };
  }
}

function unquote(tok: string): string {
  const body = tok.slice(1, -1);
  return body.replace(/\\(.)/g, (_, c: string) => ({ n: '\n', t: '\t', r: '\r' } as Record<string, string>)[c] ?? c);
}

/** Functions available to an expression; each receives evaluated arguments. */
export type ExprFunctions = Record<string, (...args: unknown[]) => unknown>;

// Templates repeat the same expressions across Stages and scenarios: parse each once.
const parsed = new Map<string, Node>();

// Marks a `?.` chain that met nil: the whole chain evaluates to nil, as in expr-lang.
const SHORT_CIRCUIT = Symbol('nil-chain');

/**
 * Evaluates one expression (the text between `${{` and `}}`).
 * @throws ExprError like expr-lang's compile or run errors
 */
export function evaluateExpression(src: string, env: Record<string, unknown>, fns: ExprFunctions): unknown {
  let node = parsed.get(src);
  if (!node) {
    node = new Parser(tokenize(src), src).parseAll();
    parsed.set(src, node);
  }
  try {
    const value = evaluate(node, env, fns);
    return value === SHORT_CIRCUIT ? null : value;
  } catch (e) {
    throw e instanceof TimeError ? new ExprError(e.message) : e;
  }
}

/** expr-lang built-ins the generated expressions use (expr-lang `builtin/builtin.go`). */
const BUILTINS: ExprFunctions = {
  split: (s, sep) => {
    if (typeof s !== 'string' || typeof sep !== 'string') throw new ExprError(`invalid argument for split (type ${typeName(s)})`);
    return s.split(sep);
  },
  any: (array, predicate) => {
    if (!Array.isArray(array)) throw new ExprError(`builtin any takes only array (got ${typeName(array)})`);
    return array.some((x) => truthy((predicate as (x: unknown) => unknown)(x)));
  },
  now: () => {
    throw new ExprError('now() has no clock: the model gives it one per promotion');
  },
  timezone,
  date,
  duration,
};

function evaluate(node: Node, env: Record<string, unknown>, fns: ExprFunctions): unknown {
  switch (node.t) {
    case 'lit': return node.v;
    case 'id':
      return Object.prototype.hasOwnProperty.call(env, node.name) ? env[node.name] : null;
    case 'member': return member(node, env, fns);
    case 'call': {
      const fn = fns[node.fn] ?? BUILTINS[node.fn];
      if (!fn) throw new ExprError(`unknown name ${node.fn}`);
      return fn(...node.args.map((a) => nilOf(evaluate(a, env, fns))));
    }
    case 'unary': {
      const v = nilOf(evaluate(node.arg, env, fns));
      if (node.op === '-') return -(v as number);
      if (typeof v !== 'boolean') throw new ExprError(`invalid operation: ! ${typeName(v)}`);
      return !v;
    }
    case 'cond': return truthy(evaluate(node.test, env, fns)) ? evaluate(node.yes, env, fns) : evaluate(node.no, env, fns);
    case 'array': return node.items.map((i) => nilOf(evaluate(i, env, fns)));
    case 'let': return evaluate(node.body, { ...env, [node.name]: nilOf(evaluate(node.value, env, fns)) }, fns);
    case 'predicate': return (x: unknown) => nilOf(evaluate(node.body, { ...env, '#': x }, fns));
    case 'method': {
      const obj = nilOf(evaluate(node.obj, env, fns));
      if (!(obj instanceof GoTime) || node.name !== 'Format') throw new ExprError(`type ${typeName(obj)} has no method ${node.name} (in the model)`);
      return obj.format(...node.args.map((a) => nilOf(evaluate(a, env, fns))) as [unknown]);
    }
    case 'bin': return binary(node.op, node.l, node.r, env, fns);
  }
}

function member(node: Extract<Node, { t: 'member' }>, env: Record<string, unknown>, fns: ExprFunctions): unknown {
  const obj = evaluate(node.obj, env, fns);
  if (obj === SHORT_CIRCUIT) return SHORT_CIRCUIT;
  const key = nilOf(evaluate(node.key, env, fns));
  if (obj === null || obj === undefined) {
    if (node.optional) return SHORT_CIRCUIT;
    throw new ExprError(`cannot fetch ${String(key)} from <nil>`);
  }
  if (obj instanceof GoStruct) {
    if (!Object.prototype.hasOwnProperty.call(obj.fields, String(key))) throw new ExprError(`cannot fetch ${String(key)} from ${obj.goType}`);
    return obj.fields[String(key)];
  }
  if (Array.isArray(obj)) {
    const i = Number(key);
    if (!Number.isInteger(i) || i >= obj.length || -i > obj.length) throw new ExprError(`index out of range: ${String(key)} (array length is ${obj.length})`);
    return obj[i < 0 ? obj.length + i : i];
  }
  if (typeof obj === 'object') {
    const map = obj as Record<string, unknown>;
    return Object.prototype.hasOwnProperty.call(map, String(key)) ? map[String(key)] : null;
  }
  throw new ExprError(`cannot fetch ${String(key)} from ${typeName(obj)}`);
}

function binary(op: string, l: Node, r: Node, env: Record<string, unknown>, fns: ExprFunctions): unknown {
  const left = nilOf(evaluate(l, env, fns));
  if (op === '??') return left ?? nilOf(evaluate(r, env, fns));
  if (op === '&&' || op === 'and') return truthy(left) && truthy(evaluate(r, env, fns));
  if (op === '||' || op === 'or') return truthy(left) || truthy(evaluate(r, env, fns));
  const right = nilOf(evaluate(r, env, fns));
  const timed = timeOperation(op, left, right);
  if (timed !== undefined) return timed;
  switch (op) {
    case '..': {
      if (!Number.isInteger(left) || !Number.isInteger(right)) throw new ExprError(`invalid operation: ${typeName(left)} .. ${typeName(right)}`);
      return Array.from({ length: Math.max(0, (right as number) - (left as number) + 1) }, (_, i) => (left as number) + i);
    }
    case '==': return equal(left, right);
    case '!=': return !equal(left, right);
    case 'in': return Array.isArray(right) ? right.some((x) => equal(x, left)) : right !== null && typeof right === 'object' && String(left) in right;
    case '+':
      if (typeof left === 'string' && typeof right === 'string') return left + right;
      return numeric(op, left, right, (a, b) => a + b);
    case '-': return numeric(op, left, right, (a, b) => a - b);
    case '*': return numeric(op, left, right, (a, b) => a * b);
    case '/': return numeric(op, left, right, (a, b) => a / b);
    case '%': return numeric(op, left, right, (a, b) => a % b);
    default: return compare(op, left, right);
  }
}

function compare(op: string, left: unknown, right: unknown): boolean {
  if (typeof left !== typeof right || (typeof left !== 'number' && typeof left !== 'string')) {
    throw new ExprError(`invalid operation: ${typeName(left)} ${op} ${typeName(right)}`);
  }
  const a = left as number | string;
  const b = right as number | string;
  return op === '<' ? a < b : op === '>' ? a > b : op === '<=' ? a <= b : a >= b;
}

function numeric(op: string, left: unknown, right: unknown, f: (a: number, b: number) => number): number {
  if (typeof left !== 'number' || typeof right !== 'number') throw new ExprError(`invalid operation: ${typeName(left)} ${op} ${typeName(right)}`);
  return f(left, right);
}

function truthy(v: unknown): boolean {
  v = nilOf(v);
  if (typeof v !== 'boolean') throw new ExprError(`expected bool, got ${typeName(v)}`);
  return v;
}

function equal(a: unknown, b: unknown): boolean {
  // numbers compare as Go float64s: NaN equals nothing, itself included
  if (typeof a === 'number' && typeof b === 'number') return a === b;
  return JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
}

function nilOf(v: unknown): unknown {
  return v === SHORT_CIRCUIT || v === undefined ? null : v;
}

function typeName(v: unknown): string {
  if (v === null || v === undefined) return '<nil>';
  if (v instanceof GoStruct) return v.goType;
  if (v instanceof GoTime) return 'time.Time';
  return Array.isArray(v) ? '[]interface {}' : typeof v === 'object' ? 'map[string]interface {}' : typeof v;
}
