import { describe, expect, test } from 'vitest';
import { Versioning } from '../../src';
import { semverConstraintProblem } from '../../src/artifact/versioning';

// Masterminds/semver v3.4.0's NewConstraint decides, through the Go parsers (go/parsers).
describe('semver constraints by Masterminds/semver v3.4.0', () => {
  test.each(['!=1.2.3', '1.2.x', '~1', '>= 1.0, < 2', '^1 || ^2', '>=1.0.0 <2.0.0', '1.0 - 2.0', '=>1.2', '~>1.2', 'v1.2.3', '*', '1.2.3+build.7', ''])('accepts %s', (constraint) => {
    expect(semverConstraintProblem(constraint)).toBeUndefined();
    expect(Versioning.semver(constraint)._problems).toEqual([]);
  });

  test.each([
    ['>=1.0.0 <2.0.0 ||', 'improper constraint: '],
    ['1.2.3.4', 'improper constraint: 1.2.3.4'],
    ['>=1.0.0 && <2.0.0', 'improper constraint: >=1.0.0 && <2.0.0'],
    ['>1.0.0-alpha.01', 'constraint parser error'],
    ['1|2', 'constraint parser error'],
    ['99999999999999999999', 'constraint parser error'],
    [' ', 'improper constraint:  '],
  ])('fails if the constraint is %j, with the message of Masterminds/semver', (constraint, reason) => {
    const problem = `is refused by Masterminds/semver v3.4.0, Kargo's SemVer library (${reason})`;
    expect(semverConstraintProblem(constraint)).toBe(problem);
    expect(Versioning.semver(constraint)._problems).toEqual([
      `semver constraint ${problem}, got ${JSON.stringify(constraint)}; use a range such as "^1.2.0" or ">=1.2.0, <2.0.0"`,
    ]);
  });
});
