import { describe, expect, test } from 'vitest';
import { find, synthApp } from '../support/fixtures';

describe('warehouseSubscriptions', () => {
  test('the Warehouse subscribes to the image and to the source repository path', () => {
    const { objects } = synthApp();
    expect(find(objects, 'Warehouse', 'api').spec.subscriptions).toEqual([
      { image: { repoURL: 'ghcr.io/acme/api', imageSelectionStrategy: 'SemVer', constraint: '^1.0.0' } },
      { git: { repoURL: 'https://github.com/acme/api.git', commitSelectionStrategy: 'NewestFromBranch', branch: 'main', includePaths: ['chart'] } },
    ]);
  });
});
