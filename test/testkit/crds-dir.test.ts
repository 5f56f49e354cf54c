import { describe, expect, test } from 'vitest';
import { ManifestValidator } from '../../src/testkit';

describe('requireCrdsDir', () => {
  test('fails with a helpful message if the crds directory is missing', () => {
    expect(() => ManifestValidator.load({ crdsDir: '/nonexistent/crds' })).toThrow(/crds directory "\/nonexistent\/crds" \(from the crdsDir option\) does not exist/);
  });
});
