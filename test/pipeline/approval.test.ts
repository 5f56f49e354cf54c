import { describe, expect, test } from 'vitest';
import { Approval, ClusterSelector, PromotionPipeline, Tier } from '../../src';
import { define, steps } from '../support/define-app';
import { find, world } from '../support/fixtures';

describe('promotion by pull request', () => {
  function prPipeline(w: ReturnType<typeof world>) {
    return new PromotionPipeline(w.app, 'pr', {
      stages: [
        { name: 'dev', clusters: ClusterSelector.tier(Tier.DEV), approval: Approval.automatic() },
        { name: 'prod', clusters: ClusterSelector.tier(Tier.PROD), approval: Approval.pullRequest({ promoters: ['change-board'], labels: ['release'] }) },
      ],
    });
  }

  test('pushes to a generated branch, opens a pull request against the release branch, waits for the merge and syncs to the merge commit', () => {
    const { objects } = define(w => ({ pipeline: prPipeline(w) }));
    const prod = steps(objects, 'prod');
    expect(prod.slice(-5).map((s: any) => [s.uses, s.as])).toEqual([
      ['git-commit', 'commit'], ['git-push', 'push'], ['git-open-pr', 'open-pr'], ['git-wait-for-pr', 'wait-for-pr'], ['argocd-update', 'sync'],
    ]);
    expect(prod[prod.length - 4].config).toEqual({ path: './out', generateTargetBranch: true });
    expect(prod[prod.length - 3].config).toMatchObject({
      repoURL: 'https://github.com/acme/releases.git',
      sourceBranch: '${{ outputs[\'push\'].branch }}',
      targetBranch: 'rendered/api/prod',
      labels: ['release'],
    });
    expect(prod[prod.length - 2].config).toEqual({ repoURL: 'https://github.com/acme/releases.git', prNumber: '${{ outputs[\'open-pr\'].pr.id }}' });
    // no pull request when the render changed nothing: git-open-pr is Skipped, the pushed commit is the branch head
    expect(prod[prod.length - 2].if).toBe('${{ status(\'open-pr\') != \'Skipped\' }}');
    expect(prod[prod.length - 1].config.apps[0].sources[0].desiredRevision).toBe('${{ quote(outputs[\'wait-for-pr\']?.commit ?? outputs[\'push\'].commit) }}');
    expect(prod[prod.length - 1].retry).toEqual({ timeout: '30m0s' });
    // a direct-push stage is unchanged
    expect(steps(objects, 'dev').find((s: any) => s.uses === 'git-open-pr')).toBeUndefined();
  });

  test('opens the pull request by itself (auto-promotion), the merge is the gate; promoters come from the stage', () => {
    const { objects } = define(w => ({ pipeline: prPipeline(w) }));
    expect(find(objects, 'ProjectConfig', 'api').spec.promotionPolicies.map((p: any) => p.stageSelector.name)).toEqual(['dev', 'prod']);
    expect(find(objects, 'ServiceAccount', 'promoter-prod').metadata.annotations['rbac.kargo.akuity.io/claims']).toBe('{"groups":["change-board"]}');
  });
});

describe('Approval', () => {
  test('pull request approval opens the pull request automatically by default', () => {
    expect(Approval.pullRequest().autoPromote).toBe(true);
    expect(Approval.pullRequest({ openAutomatically: false }).autoPromote).toBe(false);
  });
});
