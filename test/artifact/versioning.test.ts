import { describe, expect, test } from 'vitest';
import { Artifact, ImageSelectionStrategy, Versioning } from '../../src';
import { semverConstraintProblem } from '../../src/artifact/versioning';
import { define } from '../support/define-app';
import { find } from '../support/fixtures';

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

describe('Versioning', () => {
  test('each rule is a Kargo image selection strategy; only Digest follows a tag that can move', () => {
    const rules = [Versioning.semver('^1.2.0'), Versioning.semver(), Versioning.digest('latest'), Versioning.lexical(), Versioning.newestBuild()];
    expect(rules.map(r => [r.strategy, r.constraint, r.strict, r.mutable, r._problems])).toEqual([
      [ImageSelectionStrategy.SEMVER, '^1.2.0', true, false, []],
      // an empty constraint accepts every semantic version, and is not written
      [ImageSelectionStrategy.SEMVER, undefined, true, false, []],
      [ImageSelectionStrategy.DIGEST, 'latest', undefined, true, []],
      [ImageSelectionStrategy.LEXICAL, undefined, undefined, false, []],
      [ImageSelectionStrategy.NEWEST_BUILD, undefined, undefined, false, []],
    ]);
  });

  test('records what Kargo would refuse: a constraint Masterminds/semver cannot parse, a digest rule without a valid tag', () => {
    expect(Versioning.semver('^1.x.y.z')._problems).toEqual([expect.stringMatching(/^semver constraint is refused by Masterminds\/semver v3.4.0/)]);
    expect([Versioning.digest('')._problems.length, Versioning.digest('-latest')._problems.length, Versioning.digest('v1.2')._problems.length]).toEqual([1, 1, 0]);
  });

  test('every image selection strategy, tag filters and platform become Warehouse subscription fields (no removed fields)', () => {
    const { objects } = define(() => ({
      artifacts: [
        Artifact.image('ghcr.io/acme/api', { versioning: Versioning.semver('>=1.2.0, <2.0.0', false), allowTags: ['^1\\.'], discoveryLimit: 10 }),
        Artifact.image('ghcr.io/acme/worker', { versioning: Versioning.digest('stable'), helmValuesKey: 'worker.image' }),
        Artifact.image('ghcr.io/acme/batch', { versioning: Versioning.lexical(), allowTags: ['^\\d{8}$'], helmValuesKey: 'batch.image' }),
        Artifact.image('ghcr.io/acme/ml', { versioning: Versioning.newestBuild(), ignoreTags: ['-rc'], platform: 'linux/arm64', helmValuesKey: 'ml.image' }),
      ],
    }));
    // with the values Kargo's Warehouse webhook defaults written out (src/kargo/subscriptions.ts)
    const subs = find(objects, 'Warehouse', 'api').spec.subscriptions;
    expect(subs.slice(0, 4)).toEqual([
      { image: { repoURL: 'ghcr.io/acme/api', imageSelectionStrategy: 'SemVer', constraint: '>=1.2.0, <2.0.0', strictSemvers: false, allowTagsRegexes: ['^1\\.'], discoveryLimit: 10 } },
      { image: { repoURL: 'ghcr.io/acme/worker', imageSelectionStrategy: 'Digest', constraint: 'stable', strictSemvers: true, discoveryLimit: 20 } },
      { image: { repoURL: 'ghcr.io/acme/batch', imageSelectionStrategy: 'Lexical', allowTagsRegexes: ['^\\d{8}$'], strictSemvers: true, discoveryLimit: 20 } },
      { image: { repoURL: 'ghcr.io/acme/ml', imageSelectionStrategy: 'NewestBuild', ignoreTagsRegexes: ['-rc'], platform: 'linux/arm64', strictSemvers: true, discoveryLimit: 20 } },
    ]);
    const text = JSON.stringify(subs);
    for (const removed of ['"allowTags"', '"ignoreTags"', '"semverConstraint"']) expect(text).not.toContain(removed);
    // all four images are injected into the render, digests by digest
    const setValues = find(objects, 'PromotionTask', 'render-cluster').spec.steps[0].config.setValues.map((v: any) => v.key);
    expect(setValues.slice(0, 8)).toEqual([
      'image.repository', 'image.tag', 'worker.image.repository', 'worker.image.digest', 'batch.image.repository', 'batch.image.tag',
      'ml.image.repository', 'ml.image.tag',
    ]);
  });
});
