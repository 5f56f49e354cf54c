import { describe, expect, test } from 'vitest';
import { measureReleaseRepos } from '../../src/load/release-repo-load';
import { argoCd, kargo } from '../support/load-objects';

describe('measureReleaseRepos', () => {
  test('counts the branches, commits and pull requests of one release per release repository', () => {
    expect(measureReleaseRepos([...argoCd, ...kargo])).toEqual([
      { repoURL: 'https://github.com/acme/releases.git', branches: 2, stages: 2, commitsPerRelease: 2, pullRequestsPerRelease: 1 },
    ]);
  });
});
