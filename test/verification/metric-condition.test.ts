import { describe, expect, test } from 'vitest';
import { VerificationArg } from '../../src/verification';
import { metricConditionProblem } from '../../src/verification/metric-condition';

// compiled as Argo Rollouts v1.9.1 EvalCondition compiles it (antonmedv/expr v1.15.5), by the Go parsers
describe('metricConditionProblem', () => {
  test('a Prometheus result is the vector of samples: compare a sample, not the vector', () => {
    expect(metricConditionProblem('result[0] < 0.05 && all(result, {# < 0.1})', 'vector', {})).toBeUndefined();
    expect(metricConditionProblem('result < 0.05', 'vector', {})).toMatch(/mismatched types \[\]float64 and float64/);
  });

  test('a web metric\'s result is any JSON value; the condition must still compile and give a bool', () => {
    expect(metricConditionProblem("result.status in ['UP', 'OK']", 'any', {})).toBeUndefined();
    expect(metricConditionProblem("result = 'UP'", 'any', {})).toMatch(/unexpected token Operator\("="\)/);
    expect(metricConditionProblem('result[0]', 'vector', {})).toMatch(/does not evaluate to a bool/);
  });

  test('args are filled in first: a fixed value by its text, one known when the run starts by 0 or a word', () => {
    expect(metricConditionProblem('result[0] < {{args.limit}}', 'vector', { limit: VerificationArg.value('0.05') })).toBeUndefined();
    expect(metricConditionProblem('result[0] < {{args.limit}}', 'vector', { limit: VerificationArg.value('low') })).toBeDefined();
    expect(metricConditionProblem("result[0] < {{args.limit}} && '{{args.stage}}' != 'prod'", 'vector', { limit: VerificationArg.expression('vars.limit') }))
      .toBeUndefined();
  });
});
