import { describe, expect, test } from 'vitest';
import { PlatformApp, RepositoryCredentials } from '../../src';
import { appProps, world } from '../support/fixtures';

describe('repository credentials', () => {

  test('fails if a managed Secret does not say where its values come from', () => {
    const w = world();
    expect(() => new PlatformApp(w.app, 'api', appProps(w, { releaseRepoCredentials: RepositoryCredentials.managedSecret({ source: '' }) })))
      .toThrow(/releaseRepoCredentials: managedSecret source must say where the values come from/);
  });
});
