import { describe, expect, test } from 'vitest';
import { Artifact } from '../../src';
import { re2Problem } from '../../src/artifact/regex';

// Kargo compiles tag filters with Go's regexp; so does the library, through the Go parsers.
describe('tag regular expressions by Go RE2 rules', () => {
  test.each(['(?P<name>v\\d+)', '(?<name>v\\d+)', '(?i)^V1', '^v\\d{1,1000}$', '\\x{e9}', '[[:digit:]]+', '\\pL', '\\Q1.2\\E', '(?P<n>a)|(?P<n>b)'])('accepts %s as Go does', (pattern) => {
    expect(re2Problem(pattern)).toBeUndefined();
  });

  test('fails if a pattern is one Go refuses, naming the construct', () => {
    expect(re2Problem('a{1001}')).toBe('does not compile as a Go regular expression (invalid repeat count: `{1001}`): Go allows at most 1000 repetitions');
    expect(re2Problem('\\u00e9')).toBe('does not compile as a Go regular expression (invalid escape sequence: `\\u`): Go writes a code point as \\x{00e9}, not \\u00e9');
    expect(re2Problem('x**')).toMatch(/invalid nested repetition operator/);
    expect(re2Problem('(?<=v)1')).toMatch(/lookaround/);
    // Go 1.26 accepts a group name used twice (re2js, which the library used before, refused it)
    expect(re2Problem('(?P<n>a)|(?P<n>b)')).toBeUndefined();
    expect(() => Artifact.image('ghcr.io/acme/api', { allowTags: ['^v\\d{1001}$'] })._problems).not.toThrow();
    expect(Artifact.image('ghcr.io/acme/api', { allowTags: ['^v\\d{1001}$'] })._problems.join('\n'))
      .toMatch(/allowTags regular expression does not compile as a Go regular expression \(invalid repeat count: `\{1001\}`\).*got "\^v\\\\d\{1001\}\$"; use Go RE2 syntax/);
  });
});

describe('regular expressions are checked as Go reads them', () => {
  test.each([['(?i)^v\\d+$'], ['^(?i:release)-\\d+$'], ['^\\d{8}-[0-9a-f]{7}$']])('accepts %s', (pattern) => {
    expect(Artifact.image('ghcr.io/acme/api', { allowTags: [pattern] })._problems).toEqual([]);
  });

  test.each([['^v(1', /does not compile/], ['(?=v)', /lookaround/], ['(a)\\1', /backreference/], ['^v\\Z', /uses \\Z/]])('refuses %s', (pattern, message) => {
    expect(Artifact.image('ghcr.io/acme/api', { allowTags: [pattern] })._problems.join('\n')).toMatch(message);
  });
});
