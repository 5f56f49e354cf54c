import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { afterAll, expect, test } from 'vitest';
import { defaultBase, resolveCommit, Scratch } from '../src/cli/synth-tree';

const temps: string[] = [];
afterAll(() => temps.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

function git(cwd: string, ...args: string[]): string {
  const result = spawnSync('git', ['-c', 'user.name=test', '-c', 'user.email=test@example.com', '-c', 'init.defaultBranch=main', ...args], { cwd, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`git ${args.join(' ')}: ${result.stderr}`);
  return result.stdout.trim();
}

test('the default base is the merge base with the default branch; the scratch checkout is removed', () => {
  const repo = fs.mkdtempSync(path.join(os.tmpdir(), 'gitops-platform-git-'));
  temps.push(repo);
  git(repo, 'init', '--quiet');
  fs.writeFileSync(path.join(repo, 'a.txt'), 'one\n');
  git(repo, 'add', '-A');
  git(repo, 'commit', '--quiet', '-m', 'one');
  const forkPoint = git(repo, 'rev-parse', 'HEAD');
  git(repo, 'checkout', '--quiet', '-b', 'feature');
  fs.writeFileSync(path.join(repo, 'a.txt'), 'two\n');
  git(repo, 'commit', '--quiet', '-am', 'two');
  git(repo, 'checkout', '--quiet', 'main');
  fs.writeFileSync(path.join(repo, 'b.txt'), 'main moves on\n');
  git(repo, 'add', '-A');
  git(repo, 'commit', '--quiet', '-m', 'three');
  git(repo, 'checkout', '--quiet', 'feature');

  expect(defaultBase(repo)).toEqual({ ref: forkPoint, label: 'merge base with main' });
  expect(resolveCommit(repo, 'HEAD~1')).toBe(forkPoint);
  expect(() => resolveCommit(repo, 'nope')).toThrow(`--base "nope" is not a commit in ${repo}`);

  const scratch = new Scratch();
  const checkout = scratch.checkout(repo, forkPoint);
  expect(fs.readFileSync(path.join(checkout, 'a.txt'), 'utf8')).toBe('one\n');
  scratch.cleanup();
  expect(fs.existsSync(scratch.dir)).toBe(false);
  expect(git(repo, 'worktree', 'list').split('\n')).toHaveLength(1);
});
