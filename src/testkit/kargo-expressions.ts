// `${{ expr }}`, or `${% expr %}` for expressions that themselves contain `}}`.
const EXPRESSION = /\$\{\{[\s\S]*?\}\}|\$\{%[\s\S]*?%\}/;

/**
 * True for a string that Kargo evaluates before validating a step config: it may stand for a
 * value of any type (`${{ 42 }}` becomes a number), so only its location, not its value, is checkable.
 */
export function containsKargoExpression(value: unknown): boolean {
  return typeof value === 'string' && EXPRESSION.test(value);
}
