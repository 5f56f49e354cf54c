import { describe, expect, test } from 'vitest';
import { GitWorld, WorkDir } from '../../../src/testkit/model/git-world';
import { selectorMatches, StepEnv, STEP_MODELS } from '../../../src/testkit/model/kargo-steps';

const RELEASES = 'https://github.com/acme/releases.git';
const env = (world = new GitWorld()): StepEnv => ({
  world, workDir: new WorkDir(), project: 'shop', stage: 'dev', promotion: 'p1', chartDependencies: [], applications: [], reviewer: 'merge', synced: [],
});

describe('the Kargo v1.11.2 promotion steps the model runs', () => {
  test('git-clone: a missing release branch errors unless create: true, which pushes an empty "Initial commit" first', () => {
    const checkout = (create: boolean) => ({ repoURL: RELEASES, checkout: [{ branch: 'rendered/shop/dev', create, path: './out' }] });
    expect(STEP_MODELS['git-clone'](checkout(false), env())).toMatchObject({ status: 'Errored', code: 'git-branch-missing' });
    const world = new GitWorld();
    expect(STEP_MODELS['git-clone'](checkout(true), env(world)).status).toBe('Succeeded');
    expect(world.remote(RELEASES).head('rendered/shop/dev')?.message).toBe('Initial commit');
  });

  test('fail always fails, with its message (failer.go)', () => {
    expect(STEP_MODELS.fail({ message: 'deploy freeze' }, env())).toEqual({ status: 'Failed', error: 'failed: deploy freeze', code: 'promotion-failed' });
  });

  test('argocd-update selects Applications by labels: matchLabels and every matchExpressions operator', () => {
    const labels = { app: 'shop', stage: 'dev' };
    expect(selectorMatches({ matchLabels: { app: 'shop' } }, labels)).toBe(true);
    expect(selectorMatches({ matchLabels: { app: 'shop', stage: 'prod' } }, labels)).toBe(false);
    expect(selectorMatches({ matchExpressions: [{ key: 'stage', operator: 'In', values: ['dev', 'qa'] }, { key: 'ring', operator: 'DoesNotExist' }] }, labels)).toBe(true);
    expect(selectorMatches({ matchExpressions: [{ key: 'stage', operator: 'NotIn', values: ['dev'] }] }, labels)).toBe(false);
    expect(selectorMatches({ matchExpressions: [{ key: 'ring', operator: 'Exists' }] }, labels)).toBe(false);
    expect(selectorMatches(undefined, labels)).toBe(false);
  });
});
