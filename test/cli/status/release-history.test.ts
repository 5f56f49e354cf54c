import * as path from 'path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { fastImport } from '../../../bench/git-fast-import';
import { releaseOf } from '../../../src/cli/status/fleet-status';
import { GitObjects } from '../../../src/cli/status/git-objects';
import { lastChange, readHistories } from '../../../src/cli/status/release-history';
import { ReleaseRepository } from '../../../src/cli/status/release-repo';
import { tempDir } from '../../support/cli-temp-dirs';

// A branch shaped by hand: Kargo's empty first commit, two promotions, a commit made by hand.

const record = (freight: string, tag: string) => `render api for dev (Freight ${freight})\n\nFreight-Image: ghcr.io/acme/api ${tag} sha256:${tag}\nKargo-Freight: ${freight}\n`;
let objects: GitObjects;
let repo: ReleaseRepository;

beforeAll(() => {
  const dir = path.join(tempDir(), 'releases.git');
  fastImport(dir, [
    { key: 'init', parents: [], files: {}, message: 'Initial commit', time: 1000 },
    { key: 'p1', parents: ['init'], files: { 'a/manifests.yaml': 'a1', 'b/manifests.yaml': 'b1' }, message: record('f1', '1.1.0'), time: 2000 },
    { key: 'p2', parents: ['p1'], files: { 'a/manifests.yaml': 'a2', 'b/manifests.yaml': 'b1' }, message: record('f2', '1.2.0'), time: 3000 },
    { key: 'hand', parents: ['p2'], files: { 'a/manifests.yaml': 'a2', 'b/manifests.yaml': 'b-hotfix' }, message: 'hotfix b by hand', time: 4000 },
  ], new Map([['rendered/api/dev', 'hand']]));
  repo = ReleaseRepository.open(dir, '/', tempDir(), 10);
  objects = repo.objects();
});
afterAll(() => objects?.close());

describe('release branch history', () => {
  test('each folder\'s last change, and the newest record under a commit made by hand', async () => {
    const refs = [...repo.branches().values()];
    expect(refs.map((r) => [r.branch, r.ref])).toEqual([['rendered/api/dev', 'refs/heads/rendered/api/dev']]);
    const history = (await readHistories(objects, refs, { limit: 10, artifactsOf: () => [] })).get('rendered/api/dev')!;
    // read until a's change was found under the hand commit: hand, p2, p1
    expect(history.commits.map((c) => c.subject)).toEqual(['hotfix b by hand', 'render api for dev (Freight f2)', 'render api for dev (Freight f1)']);
    expect(history.end).toBe('enough');
    expect(lastChange(history, 'a')).toMatchObject({ ago: 1, atLeast: false, commit: { committedAt: 3000 } });
    expect(lastChange(history, 'b')).toMatchObject({ ago: 0, atLeast: false });
    expect(releaseOf(history)).toMatchObject({ freight: 'f2', commitsAfter: 1, promotedAt: '1970-01-01T00:50:00Z', artifacts: [{ version: '1.2.0', digest: 'sha256:1.2.0' }] });
  });

  test('a limit ends the walk: a folder unchanged as far as read changed at least that long ago', async () => {
    const history = (await readHistories(objects, [...repo.branches().values()], { limit: 2, artifactsOf: () => [] })).get('rendered/api/dev')!;
    expect(history.end).toBe('limit');
    expect(lastChange(history, 'a')).toMatchObject({ ago: 1, atLeast: true });
  });
});
