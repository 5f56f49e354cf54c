import { describe, expect, test } from 'vitest';
import { Artifact, Versioning } from '../src';
import { re2Problem } from '../src/artifact/regex';
import { semverConstraintProblem } from '../src/artifact/versioning';

// Kargo compiles tag filters with Go's regexp and semver constraints with Masterminds/semver
// v3.4.0; the library reads both by Go's rules (re2js, and a port of constraints.go).
describe('tag regular expressions by Go RE2 rules', () => {
  test.each(['(?P<name>v\\d+)', '(?<name>v\\d+)', '(?i)^V1', '^v\\d{1,1000}$', '\\x{e9}', '[[:digit:]]+', '\\pL', '\\Q1.2\\E', '(?P<n>a)|(?P<n>b)'])('accepts %s as Go does', (pattern) => {
    expect(re2Problem(pattern)).toBeUndefined();
  });

  test('fails if a pattern is one Go refuses, naming the construct', () => {
    expect(re2Problem('a{1001}')).toBe('does not compile as a Go regular expression (invalid repeat count: `{1001}`): Go allows at most 1000 repetitions');
    expect(re2Problem('\\u00e9')).toBe('does not compile as a Go regular expression (invalid escape sequence: `\\u`): Go writes a code point as \\x{00e9}, not \\u00e9');
    expect(re2Problem('x**')).toMatch(/invalid nested repetition operator/);
    expect(re2Problem('(?<=v)1')).toMatch(/lookaround/);
    expect(() => Artifact.image('ghcr.io/acme/api', { allowTags: ['^v\\d{1001}$'] })._problems).not.toThrow();
    expect(Artifact.image('ghcr.io/acme/api', { allowTags: ['^v\\d{1001}$'] })._problems.join('\n'))
      .toMatch(/allowTags regular expression does not compile as a Go regular expression \(invalid repeat count: `\{1001\}`\).*got "\^v\\\\d\{1001\}\$"; use Go RE2 syntax/);
  });
});

describe('semver constraints by Masterminds/semver v3.4.0 rules', () => {
  test.each(['!=1.2.3', '1.2.x', '~1', '>= 1.0, < 2', '^1 || ^2', '>=1.0.0 <2.0.0', '1.0 - 2.0', '=>1.2', '~>1.2', 'v1.2.3', '*', '1.2.3+build.7', ''])('accepts %s', (constraint) => {
    expect(semverConstraintProblem(constraint)).toBeUndefined();
    expect(Versioning.semver(constraint)._problems).toEqual([]);
  });

  test.each([
    ['>=1.0.0 <2.0.0 ||', 'has the improper constraint ""'],
    ['1.2.3.4', 'has the improper constraint "1.2.3.4"'],
    ['>1.0.0-alpha.01', 'has ">1.0.0-alpha.01", whose version "1.0.0-alpha.01" has the prerelease identifier "01", which starts with 0'],
    ['1|2', 'has "1|2", whose version "1|2" is not a semantic version'],
    ['99999999999999999999', 'has "99999999999999999999", whose version "99999999999999999999" has a segment beyond 64 bits'],
    [' ', 'has the improper constraint " "'],
  ])('fails if the constraint is %j', (constraint, problem) => {
    expect(semverConstraintProblem(constraint)).toBe(`${problem}, which Masterminds/semver (Kargo's SemVer library) refuses`);
    expect(Versioning.semver(constraint)._problems).toEqual([
      `semver constraint ${problem}, which Masterminds/semver (Kargo's SemVer library) refuses, got ${JSON.stringify(constraint)}; use a range such as "^1.2.0" or ">=1.2.0, <2.0.0"`,
    ]);
  });
});
