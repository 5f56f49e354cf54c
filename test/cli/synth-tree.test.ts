import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { afterAll, expect, test } from 'vitest';
import { defaultBase, resolveCommit, Scratch, synthCommand, synthesize, synthMessage } from '../../src/cli/synth-tree';

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
  expect(() => resolveCommit(repo, 'nope')).toThrow(`--base is not a commit in ${repo}, got "nope"; pass a branch, tag or commit of the repository`);

  const scratch = new Scratch();
  const checkout = scratch.checkout(repo, forkPoint);
  expect(fs.readFileSync(path.join(checkout, 'a.txt'), 'utf8')).toBe('one\n');
  scratch.cleanup();
  expect(fs.existsSync(scratch.dir)).toBe(false);
  expect(git(repo, 'worktree', 'list').split('\n')).toHaveLength(1);
});

test('synthMessage: the app\'s own last line, never the cdk8s CLI\'s wrapper or a stack', () => {
  const wrapped = [
    'synth failed: PlatformApp checkout-api: targets selects no cluster; use ClusterSelector.all()',
    'Error: command "npx tsx main.ts" at /work/app returned a non-zero exit code 1',
    '    at ChildProcess.<anonymous> (/work/app/node_modules/cdk8s-cli/lib/util.js:52:27)',
    '    at ChildProcess.emit (node:events:519:28)',
  ].join('\n');
  expect(synthMessage(wrapped)).toBe('synth failed: PlatformApp checkout-api: targets selects no cluster; use ClusterSelector.all()');
  const uncaught = [
    '/work/app/main.ts:3',
    "throw new Error('api: bad');",
    '^',
    '',
    'Error: api: bad',
    '    at <anonymous> (/work/app/main.ts:3:7)',
    '',
    'Node.js v20.11.0',
    'Error: command "npx tsx main.ts" returned a non-zero exit code 1',
  ].join('\n');
  expect(synthMessage(uncaught)).toBe('Error: api: bad');
  expect(synthMessage('')).toBe('no message on stderr');
});

test('synthMessage: every problem of a definition with several, and the construct, as npm run synth prints them', () => {
  const problems = [
    "synth failed: PlatformApp 'api': 3 problems",
    '  - owner.team must not be empty, got ""; use the team\'s short name',
    '  - owner.contact must not be empty, got ""; name a channel',
    '  - releaseRepo must use https, got "http://github.com/acme/releases.git"; use the https:// clone URL',
  ];
  expect(synthMessage([...problems, 'Error: command "npx tsx main.ts" at /work/app returned a non-zero exit code 1', '    at ChildProcess.<anonymous> (x.js:1:1)'].join('\n')))
    .toBe(problems.join('\n'));
  // uncaught: the error's lines up to its stack
  const uncaught = ['/work/src/util/errors.ts:91', '  return new Error(redactSecrets(message));', '         ^', '', ...problems.map((l) => l.replace('synth failed: ', 'Error: ')),
    '    at userError (/work/src/util/errors.ts:91:10)', '', 'Node.js v24.21.0'];
  expect(synthMessage(uncaught.join('\n'))).toBe(problems.join('\n').replace('synth failed: ', 'Error: '));
});

test('synthMessage: a credential in a runaway message is masked before the message is cut', () => {
  const token = `ghp_${'A1b2C3d4E5'.repeat(4).slice(0, 36)}`;
  const message = synthMessage(`Error: ${'x'.repeat(3980)} ${token} and more`);
  expect(message.length).toBeLessThanOrEqual(4000);
  expect(message).not.toContain(token.slice(0, 8));
});

test('synthCommand: cdk8s.yaml\'s app as cdk8s runs it; the cdk8s CLI only for validations or a Helm layout', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gitops-platform-synth-'));
  temps.push(dir);
  const cdk8s = path.join(dir, 'cdk8s');
  const viaCdk8s = `"${cdk8s}" synth --no-check-upgrade --output "/out"`;
  const app = 'node main.js';
  expect(synthCommand({ app }, cdk8s, '/out')).toBe(app);
  expect(synthCommand({ app, validations: [{ package: 'x' }] }, cdk8s, '/out')).toBe(app); // no cdk8s CLI installed
  fs.writeFileSync(cdk8s, '');
  expect(synthCommand({ app }, cdk8s, '/out')).toBe(app);
  expect(synthCommand({ app, synthConfig: { format: 'plain' } }, cdk8s, '/out')).toBe(app);
  expect(synthCommand({ app, validations: [{ package: 'x' }] }, cdk8s, '/out')).toBe(viaCdk8s);
  expect(synthCommand({ app, validations: 'https://example.com/validations.yaml' }, cdk8s, '/out')).toBe(viaCdk8s);
  expect(synthCommand({ app, synthConfig: { format: 'helm' } }, cdk8s, '/out')).toBe(viaCdk8s);
});

test('fails if the app writes no output directory: names the app command', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gitops-platform-synth-'));
  temps.push(dir);
  fs.writeFileSync(path.join(dir, 'cdk8s.yaml'), 'app: node -e 0\n');
  await expect(synthesize(dir, path.join(dir, 'out'), path.join(dir, 'node_modules'))).rejects
    .toThrow(`synth of ${dir} wrote no output directory, got "node -e 0"; make the app synthesize into $CDK8S_OUTDIR (cdk8s's App does by default)`);
});
