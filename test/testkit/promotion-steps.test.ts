import { describe, expect, test } from 'vitest';
import { expectClean, linesOf, promotionTask, stageWithSteps } from '../support/testkit-objects';

describe('ManifestValidator', () => {
  describe('promotion steps', () => {
    test('fails if a step name has no pinned schema', () => {
      expect(linesOf(promotionTask([{ uses: 'wait-for-pr', config: {} }]))).toEqual([
        '/spec/steps/0/uses: unknown promotion step "wait-for-pr" (no wait-for-pr-config.json among the pinned kargo step schemas)',
      ]);
    });

    test('fails if a step config has an unknown key', () => {
      expect(linesOf(promotionTask([{ uses: 'git-push', config: { path: './out', repoURL: 'https://github.com/acme/gitops.git' } }]))).toEqual([
        '/spec/steps/0/config/repoURL: unknown field "repoURL"',
      ]);
    });

    test('fails if a step config misses a required key', () => {
      expect(linesOf(promotionTask([{ uses: 'git-commit', config: { path: './out' } }]))).toEqual([
        '/spec/steps/0/config/message: missing required field "message"',
      ]);
      expect(linesOf(promotionTask([{ uses: 'git-clear' }]))).toEqual(['/spec/steps/0/config/path: missing required field "path"']);
    });

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

    test('folds oneOf failures into one line naming the closest alternative', () => {
      const issues = linesOf(promotionTask([{ uses: 'git-push', config: { path: './out', targetBranch: 'main', tag: 'v1' } }]));
      expect(issues).toHaveLength(1);
      expect(issues[0]).toMatch(/^\/spec\/steps\/0\/config: matches none of the 4 alternatives \(oneOf\); closest alternative #\d fails with: \/(tag|targetBranch): /);
      expectClean(promotionTask([{ uses: 'git-push', config: { path: './out', generateTargetBranch: '${{ vars.pr == "true" }}' } }]));
    });

    test('resolves references between step schemas (argocd-update selector from argocd-common.json)', () => {
      const update = (app: Record<string, unknown>) => promotionTask([{ uses: 'argocd-update', config: { apps: [app] } }]);
      expectClean(update({ selector: { matchLabels: { 'acme.io/app': 'demo' } }, namespace: 'argocd' }));
      expect(linesOf(update({ selector: { matchLabels: {} } }))).toEqual([
        '/spec/steps/0/config/apps/0/selector: matches none of the 2 alternatives (anyOf); closest alternative #0 fails with: /matchLabels: {} must not have fewer than 1 properties',
      ]);
    });

    test('fails if a step alias is reserved', () => {
      expect(linesOf(promotionTask([{ uses: 'git-clear', as: 'step-1', config: { path: './out' } }]))).toEqual([
        '/spec/steps/0/as: step alias "step-1" is reserved (matches ^(step|task)-\\d+$)',
      ]);
    });

    test('fails if step aliases repeat', () => {
      const steps = [
        { uses: 'git-clear', as: 'clear', config: { path: './out' } },
        { uses: 'git-clear', as: 'clear', config: { path: './src' } },
      ];
      expect(linesOf(stageWithSteps(steps))).toEqual(['/spec/promotionTemplate/spec/steps/1/as: duplicate step alias "clear" (already used by step 0)']);
    });

    test('fails if a task step sets config or if', () => {
      const s = stageWithSteps([{ task: { name: 'promote' }, as: 'promo', config: { a: 1 }, if: '${{ success() }}' }]);
      expect(linesOf(s)).toEqual([
        '/spec/promotionTemplate/spec/steps/0/config: a step that references a task must not set "config"',
        '/spec/promotionTemplate/spec/steps/0/if: a step that references a task must not set "if"',
      ]);
    });

    test('checks cluster promotion tasks like promotion tasks', () => {
      const task = { ...promotionTask([{ uses: 'fail', config: { message: 1 } }]), kind: 'ClusterPromotionTask', metadata: { name: 'shared' } };
      expect(linesOf(task)).toEqual(['/spec/steps/0/config/message: 1 must be string']);
    });
  });
});
