import { describe, expect, test } from 'vitest';
import { normalizeRepoPath, pathWithin, repoPathProblem } from '../../src/util/repo-paths';

describe('repository paths', () => {
  test('a path must stay inside the repository: relative, no "..", no whitespace (securejoin would keep it inside, at another place)', () => {
    expect(['chart', 'charts/api', './chart', 'a/b.c/d'].map(repoPathProblem)).toEqual([undefined, undefined, undefined, undefined]);
    for (const bad of ['', '/chart', '../chart', 'charts/../../x', 'my chart']) {
      expect(repoPathProblem(bad)).toBe('must be a relative path inside the repository without ".."');
    }
  });

  test('paths are compared normalized: "./a//b/" is "a/b", and a path lies within itself and its parents only', () => {
    expect(normalizeRepoPath('./a//b/')).toBe('a/b');
    expect(normalizeRepoPath('.')).toBe('');
    expect([pathWithin('chart/config', 'chart'), pathWithin('chart', 'chart'), pathWithin('charts', 'chart'), pathWithin('x', '')])
      .toEqual([true, true, false, true]);
  });
});
