import { describe, expect, test } from 'vitest';
import { digitsOnly, GitWorld, normalizeGitUrl, treeHasPath, WorkDir } from '../../../src/testkit/model/git-world';

describe('the in-memory Git of the promotion model', () => {
  test('one remote per repository, however its URL is spelled (case, trailing slash, .git)', () => {
    const world = new GitWorld();
    expect(world.remote('https://github.com/Acme/releases.git/')).toBe(world.remote('https://github.com/acme/releases'));
    expect(normalizeGitUrl('https://GitHub.com/acme/x.git')).toBe(normalizeGitUrl('https://github.com/acme/x/'));
  });

  test('a commit is reachable from a branch through its parents; ids can be forced to digits, as the rare real SHA', () => {
    const world = new GitWorld();
    const remote = world.remote('https://github.com/acme/releases.git');
    const first = remote.commit({ 'a/manifests.yaml': 'x' }, [], 'first');
    const second = remote.commit({ 'a/manifests.yaml': 'y' }, [first.id], 'second');
    remote.branches.set('rendered/api/dev', second.id);
    expect([remote.reachable('rendered/api/dev', first.id), remote.reachable('main', first.id)]).toEqual([true, false]);
    expect(remote.head('rendered/api/dev')?.message).toBe('second');
    world.numericCommitIds = true;
    expect(remote.commit({}, [], 'third').id).toMatch(/^\d+$/);
    expect(digitsOnly('a1b2')).toMatch(/^\d+$/);
  });

  test('a path of the work directory belongs to the deepest checkout holding it', () => {
    const dir = new WorkDir();
    dir.add({ path: './src/', repoUrl: 'https://github.com/acme/api.git', head: 'c1', virtual: true, files: {} });
    dir.add({ path: './src/chart/config', repoUrl: 'https://github.com/acme/config.git', head: 'c2', virtual: true, files: {} });
    expect(dir.locate('./src/chart/values.yaml')).toMatchObject({ tree: { repoUrl: 'https://github.com/acme/api.git' }, rel: 'chart/values.yaml' });
    expect(dir.locate('src/chart/config/a.yaml')).toMatchObject({ tree: { repoUrl: 'https://github.com/acme/config.git' }, rel: 'a.yaml' });
    expect(dir.locate('./out/x')).toBeUndefined();
    expect([treeHasPath({ 'a/b.yaml': '' }, './a'), treeHasPath({ 'a/b.yaml': '' }, 'ab')]).toEqual([true, false]);
  });
});
