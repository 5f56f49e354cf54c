// lezer-promql ships CommonJS beside its ES module (its exports' require condition), which this
// CommonJS library loads; its types are declared for the ES module only.
type LezerPromql = typeof import('@prometheus-io/lezer-promql', { with: { 'resolution-mode': 'import' } });
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { parser } = require('@prometheus-io/lezer-promql') as LezerPromql;

/**
 * What a PromQL query returns, as the Prometheus server's parser types it
 * (promql/parser `Expr.Type()`): Argo Rollouts v1.9.1 hands a vector (and a matrix, flattened)
 * to the metric's conditions as `[]float64`, a scalar as a `float64` and refuses a string
 * (metricproviders/prometheus/prometheus.go `processResponse`).
 *
 * The Go parser cannot be compiled into the library's Go parsers (go/parsers/README.md: it
 * imports Prometheus's storage, which does not build for WebAssembly, and alone it is 3.7 MB
 * gzipped), so the query is parsed by the grammar Prometheus ships for its own web UI,
 * `@prometheus-io/lezer-promql` of the same release (v3.5, the long-term-support line), and
 * typed here by the rules of `promql/parser` (`ast.go` `Type()`, `functions.go` `ReturnType`).
 * `conformance/property-values.ts` compares both verdicts with the Go parser in CI.
 * @internal
 */
export type PromqlType = 'vector' | 'scalar' | 'matrix' | 'string';

/** The query's type, or where it stops parsing. @internal */
export interface PromqlVerdict {
  readonly type?: PromqlType;
  readonly error?: string;
}

/** The functions whose `ReturnType` is a scalar (promql/parser/functions.go); all others return a vector. */
const SCALAR_FUNCTIONS = ['pi', 'scalar', 'time'];

/** A node of the parsed query. */
type SyntaxNode = ReturnType<typeof parser.parse>['topNode'];

/** Nodes of the grammar that are expressions. */
const EXPRESSIONS = new Set(['AggregateExpr', 'BinaryExpr', 'FunctionCall', 'MatrixSelector', 'NumberDurationLiteral', 'OffsetExpr',
  'ParenExpr', 'StepInvariantExpr', 'StringLiteral', 'SubqueryExpr', 'UnaryExpr', 'VectorSelector']);

/** Parses `query` and types it. @internal */
export function promqlType(query: string): PromqlVerdict {
  const tree = parser.parse(query);
  let error: number | undefined;
  tree.iterate({
    enter: (node) => {
      if (error === undefined && node.type.isError) error = node.from;
      return error === undefined;
    },
  });
  if (error !== undefined) {
    const near = query.slice(error, error + 20);
    return { error: `does not parse as PromQL ${near ? `from ${JSON.stringify(near)} on` : '(it ends too early)'}` };
  }
  const top = expressionsOf(tree.topNode)[0];
  if (!top) return { error: 'holds no PromQL expression' };
  try {
    return { type: typeOf(top, query) };
  } catch (e) {
    if (e instanceof TypeProblem) return { error: e.message };
    throw e;
  }
}

/** An expression promql/parser's checkAST refuses for the types of its operands. */
class TypeProblem extends Error {}

/** promql/parser parse.go checkAST: what a unary or binary expression may hold. */
function operand(type: PromqlType, what: string): PromqlType {
  if (type !== 'scalar' && type !== 'vector') throw new TypeProblem(`is refused by PromQL: ${what} must contain only scalar and instant vector types, got a ${type}`);
  return type;
}

function expressionsOf(node: SyntaxNode): SyntaxNode[] {
  const out: SyntaxNode[] = [];
  for (let child = node.firstChild; child; child = child.nextSibling) if (EXPRESSIONS.has(child.name)) out.push(child);
  return out;
}

/** promql/parser ast.go `Type()` of each node. */
function typeOf(node: SyntaxNode, query: string): PromqlType {
  switch (node.name) {
    case 'NumberDurationLiteral': return 'scalar';
    case 'StringLiteral': return 'string';
    case 'VectorSelector': case 'AggregateExpr': return 'vector';
    case 'MatrixSelector': {
      // the grammar reads `up / x[5m]` as a range over `up / x`; Go: ranges only for vector selectors
      if (expressionsOf(node)[0]?.name !== 'VectorSelector') throw new TypeProblem('is refused by PromQL: a range [..] applies only to a metric selector');
      return 'matrix';
    }
    case 'SubqueryExpr': return 'matrix';
    case 'FunctionCall': {
      const name = node.getChild('FunctionIdentifier');
      return name && SCALAR_FUNCTIONS.includes(query.slice(name.from, name.to).toLowerCase()) ? 'scalar' : 'vector';
    }
    case 'BinaryExpr': {
      // BinaryExpr.Type(): scalar only when both sides are
      const sides = expressionsOf(node).map(side => operand(typeOf(side, query), 'a binary expression'));
      return sides.every(side => side === 'scalar') ? 'scalar' : 'vector';
    }
    case 'UnaryExpr': return operand(typeOf(expressionsOf(node)[0], query), 'a unary expression');
    default: {
      // ParenExpr, OffsetExpr, StepInvariantExpr: the type of what they hold
      const inner = expressionsOf(node)[0];
      return inner ? typeOf(inner, query) : 'vector';
    }
  }
}
