import { describe, expect, test } from 'vitest';
import { Artifact, ManifestSource, Versioning } from '../../src';
import { warehouseSubscriptions } from '../../src/kargo/subscriptions';
import { find, synthApp } from '../support/fixtures';

// Kargo v1.11.2's Warehouse webhook fills in these values (pkg/subscription/{image,git,chart}.go
// ApplySubscriptionDefaults): written out, the Warehouse in Git equals the stored one, so Argo CD's
// diff of the platform Application finds nothing to re-sync (the e2e run found the loop)
const source = ManifestSource.helm({ repoUrl: 'https://github.com/acme/api.git', path: 'chart' });

describe('warehouseSubscriptions', () => {
  test('the Warehouse subscribes to the image and to the source repository path', () => {
    const { objects } = synthApp();
    // with the values Kargo's Warehouse webhook defaults (strictSemvers, discoveryLimit) written out
    expect(find(objects, 'Warehouse', 'api').spec.subscriptions).toEqual([
      { image: { repoURL: 'ghcr.io/acme/api', imageSelectionStrategy: 'SemVer', constraint: '^1.0.0', strictSemvers: true, discoveryLimit: 20 } },
      { git: { repoURL: 'https://github.com/acme/api.git', commitSelectionStrategy: 'NewestFromBranch', branch: 'main', includePaths: ['chart'], strictSemvers: true, discoveryLimit: 20 } },
    ]);
  });

  test('an image, the source repository and a chart get the values the webhook would default', () => {
    const subs = warehouseSubscriptions([
      Artifact.image('ghcr.io/acme/api', { versioning: Versioning.semver('^1.0.0') }),
      Artifact.helmChart('oci://ghcr.io/acme/charts/base', { semver: '^2.0.0' }),
    ], source);
    const byKind = Object.fromEntries(subs.map(s => [Object.keys(s)[0], Object.values(s)[0] as any]));
    expect(byKind.image).toMatchObject({ imageSelectionStrategy: 'SemVer', strictSemvers: true, discoveryLimit: 20 });
    expect(byKind.git).toMatchObject({ commitSelectionStrategy: 'NewestFromBranch', strictSemvers: true, discoveryLimit: 20 });
    expect(byKind.chart).toMatchObject({ discoveryLimit: 20 });
    expect(byKind.chart.strictSemvers).toBeUndefined();
  });

  test('values the app sets are kept, not defaulted over', () => {
    const [image] = warehouseSubscriptions([
      Artifact.image('ghcr.io/acme/api', { versioning: Versioning.semver('^1.0.0', false), discoveryLimit: 5 }),
    ], source);
    expect(image.image).toMatchObject({ strictSemvers: false, discoveryLimit: 5 });
    const [lexical] = warehouseSubscriptions([Artifact.image('ghcr.io/acme/api', { versioning: Versioning.lexical() })], source);
    // the webhook defaults strictSemvers whatever the strategy (image.go): it is stored for Lexical too
    expect(lexical.image).toMatchObject({ imageSelectionStrategy: 'Lexical', strictSemvers: true, discoveryLimit: 20 });
  });
});
