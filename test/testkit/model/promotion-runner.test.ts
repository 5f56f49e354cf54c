import { describe, expect, test } from 'vitest';
import { SimulatedFreight } from '../../../src/testkit/model/freight';
import { GitWorld, WorkDir } from '../../../src/testkit/model/git-world';
import { inflateSteps, runPromotion } from '../../../src/testkit/model/promotion-runner';
import { CLUSTERS } from '../../support/controller-model';
import { NS, pullRequestStage, world } from '../../support/testkit-model-fixtures';

describe('runPromotion', () => {
  test('pull-request stage: first promotion and a no-change promotion both succeed, the second opens no PR', () => {
    const objects = world([pullRequestStage('prod', CLUSTERS)]);
    const stage = objects.find((o) => o.kind === 'Stage');
    const tasks = new Map([['PromotionTask/render', objects.find((o) => o.kind === 'PromotionTask')]]);
    const steps = inflateSteps(stage, tasks);
    const gitWorld = new GitWorld();
    const freight = SimulatedFreight.of(objects.find((o) => o.kind === 'Warehouse'), 1);
    const run = (n: number) => runPromotion({
      stage,
      steps,
      freight,
      env: { world: gitWorld, workDir: new WorkDir(), project: NS, stage: 'prod', promotion: `p${n}`, chartDependencies: [], applications: [], reviewer: 'merge', synced: [] },
    });
    // no Application in this run: argocd-update finds none and errors, so stop before it
    const first = run(1);
    const statuses = (r: ReturnType<typeof run>) => Object.fromEntries(r.steps.map((s) => [s.step.alias, s.status]));
    expect(statuses(first)).toMatchObject({ 'clone-release': 'Succeeded', 'open-pr': 'Succeeded', 'wait-for-pr': 'Succeeded' });
    const second = run(2);
    expect(statuses(second)).toMatchObject({ 'commit': 'Skipped', 'open-pr': 'Skipped', 'wait-for-pr': 'Skipped' });
    expect(gitWorld.remote('https://github.com/acme/releases.git').pullRequests).toHaveLength(1);
  });
});
