import { describe, expect, test } from 'vitest';
import { promqlType } from '../../src/verification/promql-type';

// The types promql/parser gives (ast.go Type(), functions.go ReturnType); CI compares these
// verdicts with the Go parser itself (conformance/property-values.ts).
describe('promqlType', () => {
  test.each([
    ['sum(rate(x[5m])) / sum(rate(y[5m]))', 'vector'],
    ['histogram_quantile(0.99, sum by (le) (rate(h_bucket[5m])))', 'vector'],
    ['scalar(sum(up))', 'scalar'],
    ['time() - 300', 'scalar'],
    ['pi()', 'scalar'],
    ['1 + 2', 'scalar'],
    ['vector(1)', 'vector'],
    ['2 * up', 'vector'],
    ['-(up)', 'vector'],
    ['up offset 5m', 'vector'],
    ['up @ 100', 'vector'],
    ['x[5m]', 'matrix'],
    ['rate(x[5m])[10m:1m]', 'matrix'],
    ['"text"', 'string'],
  ])('%s is a %s', (query, type) => {
    expect(promqlType(query)).toEqual({ type });
  });

  test('a range over anything but a metric selector is refused', () => {
    expect(promqlType('up / x[5m]').error).toBe('is refused by PromQL: a range [..] applies only to a metric selector');
  });

  test.each(['x + "s"', '-"s"', 'x[5m] / up'])('%j mixes a string or a range vector into arithmetic, which PromQL refuses', (query) => {
    expect(promqlType(query).error).toMatch(/^is refused by PromQL: a (binary|unary) expression must contain only scalar and instant vector types, got a (string|matrix)$/);
  });

  test.each(['up{job="a"', 'sum(up', 'up +', '', 'Scalar(up)', 'sum(x) by le'])('%j does not parse', (query) => {
    expect(promqlType(query).error).toMatch(/^does not parse as PromQL/);
  });
});
