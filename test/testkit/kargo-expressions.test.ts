import { describe, expect, test } from 'vitest';
import { expectClean, linesOf, promotionTask } from '../support/testkit-objects';

describe('containsKargoExpression', () => {
  test('accepts expressions where the schema wants another type, but still checks the keys around them', () => {
    const waitForPr = (config: Record<string, unknown>) => promotionTask([{ uses: 'git-wait-for-pr', as: 'wait', config }]);
    expectClean(waitForPr({ repoURL: '${{ vars.repoURL }}', prNumber: "${{ outputs['open-pr'].pr.id }}" }));
    expectClean(waitForPr({ repoURL: 'https://github.com/acme/gitops.git', prNumber: '${% outputs.pr.id %}' }));
    expect(linesOf(waitForPr({ repoURL: 'https://github.com/acme/gitops.git', prNumber: 'seven' }))).toEqual([
      '/spec/steps/0/config/prNumber: "seven" must be integer',
    ]);
    expect(linesOf(waitForPr({ repoURL: '${{ vars.repoURL }}', prNumber: '${{ 1 }}', pr: '${{ 1 }}' }))).toEqual([
      '/spec/steps/0/config/pr: unknown field "pr"',
    ]);
    expect(linesOf(waitForPr({ prNumber: '${{ 1 }}' }))).toEqual(['/spec/steps/0/config/repoURL: missing required field "repoURL"']);
  });
});
