import { describe, expect, test } from 'vitest';
import { evaluateExpression } from '../../../src/testkit/model/expr';

describe('controller model: expressions', () => {
  const env = { outputs: { 'push': { commit: 'abc', branch: 'b' }, 'open-pr': null }, vars: { n: 1 } };
  test.each([
    ["outputs['push'].commit", 'abc'],
    ["outputs['open-pr']?.pr.id", null],
    ["outputs['open-pr']?.pr.id ?? outputs.push.commit", 'abc'],
    ["outputs['missing'] ?? 'x'", 'x'],
    ['vars.n == 1 && !(vars.n > 1)', true],
    ["vars.n == 1 ? 'one' : 'other'", 'one'],
  ])('%s', (src, expected) => {
    expect(evaluateExpression(src, env, {})).toEqual(expected);
  });

  test('fails like expr-lang on a member of nil', () => {
    expect(() => evaluateExpression("outputs['open-pr'].pr.id", env, {})).toThrow('cannot fetch pr from <nil>');
  });

});
