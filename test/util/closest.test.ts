import { describe, expect, test } from 'vitest';
import { closestOf, didYouMean, editDistance } from '../../src/util/closest';

describe('did you mean', () => {
  test('edits are insertions, deletions, substitutions, and a swap of neighbours counts as one', () => {
    expect([editDistance('prod', 'prod'), editDistance('prod', 'prd'), editDistance('prod', 'prods'), editDistance('prod', 'prof')]).toEqual([0, 1, 1, 1]);
    expect(editDistance('nvidia-h100', 'nvdiia-h100')).toBe(1);
    expect(editDistance('', 'abc')).toBe(3);
  });

  test('a candidate counts as close within a third of the word\'s length in edits (at least one)', () => {
    expect(closestOf('gcpp', ['aws', 'gcp', 'azure'])).toBe('gcp');
    expect(closestOf('nvida-h100', ['nvidia-h100', 'nvidia-h200'])).toBe('nvidia-h100');
    expect(closestOf('oracle', ['aws', 'gcp', 'azure'])).toBeUndefined();
  });

  test('the fix names the closest value, or lists them all, and reads the word without case', () => {
    expect(didYouMean('Staging', ['dev', 'staging', 'prod'])).toBe('did you mean "staging"?');
    expect(didYouMean('qa', ['dev', 'staging', 'prod'])).toBe('use one of "dev", "staging", "prod"');
  });
});
