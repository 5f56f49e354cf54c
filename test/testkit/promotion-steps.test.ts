import { describe, expect, test } from 'vitest';
import { linesOf, promotionTask, stageWithSteps } from '../support/testkit-objects';

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
