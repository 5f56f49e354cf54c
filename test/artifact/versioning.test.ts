import { describe, expect, test } from 'vitest';
import { Versioning } from '../../src';
import { semverConstraintProblem } from '../../src/artifact/versioning';

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
