import { describe, expect, test } from 'vitest';
import { expectClean, linesOf, warehouse } from '../support/testkit-objects';

describe('ManifestValidator', () => {
  describe('warehouse subscriptions', () => {
    test('accepts image, git and chart subscriptions', () => {
      expectClean(warehouse([
        { image: { repoURL: 'ghcr.io/acme/api', imageSelectionStrategy: 'SemVer', constraint: '^2.0.0', discoveryLimit: 10 } },
        { git: { repoURL: 'https://github.com/acme/deploy.git', branch: 'main', includePaths: ['charts/api'] } },
        { chart: { repoURL: 'oci://ghcr.io/acme/charts/api', semverConstraint: '^1.0.0' } },
        { chart: { repoURL: 'https://charts.acme.io', name: 'api' } },
        { chart: { repoURL: 'https://charts.acme.io', name: 'worker' } },
      ]));
    });

    test('fails if an image subscription has a removed or unknown field', () => {
      expect(linesOf(warehouse([{ image: { repoURL: 'ghcr.io/acme/api', semverConstraint: '^1.0.0' } }]))).toEqual([
        '/spec/subscriptions/0/image/semverConstraint: unknown field "semverConstraint"',
      ]);
    });

    test('fails if an image subscription uses allowTags, which breaks discovery since v1.11', () => {
      expect(linesOf(warehouse([{ image: { repoURL: 'ghcr.io/acme/api', allowTags: '^v1' } }]))).toEqual([
        '/spec/subscriptions/0/image/allowTags: allowTags "^v1" makes artifact discovery fail since kargo v1.11; use allowTagsRegexes',
      ]);
    });

    test('fails if a subscription field has the wrong format', () => {
      expect(linesOf(warehouse([{ git: { repoURL: 'https://github.com/acme/deploy.git', since: 'yesterday' } }]))).toEqual([
        '/spec/subscriptions/0/git/since: "yesterday" is not a valid date-time',
      ]);
      expectClean(warehouse([{ git: { repoURL: 'https://github.com/acme/deploy.git', since: '2026-01-01T00:00:00Z' } }]));
    });

    test('fails if an image repoURL carries a tag', () => {
      expect(linesOf(warehouse([{ image: { repoURL: 'ghcr.io/acme/api:1.0' } }]))[0]).toMatch(/^\/spec\/subscriptions\/0\/image\/repoURL: "ghcr.io\/acme\/api:1.0" does not match pattern/);
    });

    test('fails if an oci:// chart subscription has a name, or an http one has none', () => {
      expect(linesOf(warehouse([{ chart: { repoURL: 'oci://ghcr.io/acme/charts/api', name: 'api' } }]))).toEqual([
        '/spec/subscriptions/0/chart/name: name must be empty for an oci:// repository (the url names the chart), got "api" for "oci://ghcr.io/acme/charts/api"',
      ]);
      expect(linesOf(warehouse([{ chart: { repoURL: 'https://charts.acme.io' } }]))).toEqual([
        '/spec/subscriptions/0/chart/name: name is required for a classic http(s) chart repository "https://charts.acme.io"',
      ]);
    });

    test('fails if a subscription has two or no artifact kinds', () => {
      expect(linesOf(warehouse([{ image: { repoURL: 'ghcr.io/acme/api' }, git: { repoURL: 'https://github.com/acme/api.git' } }, {}]))).toEqual([
        '/spec/subscriptions/0: subscription must set exactly one of image, git, chart, subscription, found image, git',
        '/spec/subscriptions/1: subscription must set exactly one of image, git, chart, subscription, found none',
      ]);
    });

    test('fails if two subscriptions use the same repository', () => {
      expect(linesOf(warehouse([
        { git: { repoURL: 'https://github.com/acme/deploy.git' } },
        { git: { repoURL: 'https://github.com/acme/deploy' } },
      ]))).toEqual(['/spec/subscriptions/1: duplicate git subscription to "https://github.com/acme/deploy" (also subscribed at /spec/subscriptions/0)']);
    });
  });
});
