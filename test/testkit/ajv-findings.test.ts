import { describe, expect, test } from 'vitest';
import { expectClean, linesOf, promotionTask } from '../support/testkit-objects';

describe('findingsFromAjv', () => {
  test('folds oneOf failures into one line naming the closest alternative', () => {
    const issues = linesOf(promotionTask([{ uses: 'git-push', config: { path: './out', targetBranch: 'main', tag: 'v1' } }]));
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatch(/^\/spec\/steps\/0\/config: matches none of the 4 alternatives \(oneOf\); closest alternative #\d fails with: \/(tag|targetBranch): /);
    expectClean(promotionTask([{ uses: 'git-push', config: { path: './out', generateTargetBranch: '${{ vars.pr == "true" }}' } }]));
  });
});
