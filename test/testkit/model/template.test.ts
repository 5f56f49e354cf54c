import { describe, expect, test } from 'vitest';
import { evaluateConfig, evaluateTemplate } from '../../../src/testkit/model/template';

describe('evaluateTemplate', () => {
  const env = { vars: { n: 1, tag: '1.10', json: { a: 1 } } };

  test('templates: quote() keeps a number a string, a lone expression keeps its type', () => {
    expect(evaluateTemplate('${{ quote(1.2) }}', {}, {})).toBe('1.2');
    expect(evaluateTemplate("${{ quote('1.20') }}", {}, {})).toBe('1.20');
    expect(evaluateTemplate('${{ vars.n }}', env, {})).toBe(1);
    expect(evaluateTemplate('./out/${{ vars.n }}/x', env, {})).toBe('./out/1/x');
  });

  test('the whole result becomes a number, a boolean or JSON when it parses as one; text without delimiters stays as written', () => {
    expect(evaluateTemplate('${{ vars.tag }}', env, {})).toBe(1.1);
    expect(evaluateTemplate('${{ vars.n == 1 }}', env, {})).toBe(true);
    expect(evaluateTemplate('${{ vars.json }}', env, {})).toEqual({ a: 1 });
    expect(evaluateTemplate('1.10', env, {})).toBe('1.10');
    // ${% %} for an expression that itself holds }}
    expect(evaluateTemplate("${% '}}' %}", env, {})).toBe('}}');
  });

  test('a step config has every string evaluated, at any depth', () => {
    expect(evaluateConfig({ path: './out/${{ vars.n }}', values: [{ v: '${{ quote(vars.tag) }}' }], n: 3 }, env, {}))
      .toEqual({ path: './out/1', values: [{ v: '1.10' }], n: 3 });
  });
});
