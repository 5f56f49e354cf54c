import { Chart, Testing } from 'cdk8s';
import { describe, expect, test } from 'vitest';
import { ClusterFleet, PlatformApp } from '../../src';
import { claimName } from '../../src/util/name-registry';
import { appProps, SMALL_FLEET, standardPipeline } from '../support/fixtures';

describe('claimName', () => {
  test('a name is claimed once per app and kind: the same owner may claim it again, another owner learns who holds it', () => {
    const app = Testing.app();
    const scope = new Chart(app, 'some-chart');
    expect(claimName(scope, 'argocd Application', 'api-dev', 'PlatformApp \'api\'')).toBeUndefined();
    expect(claimName(app, 'argocd Application', 'api-dev', 'PlatformApp \'api\'')).toBeUndefined();
    expect(claimName(scope, 'argocd Application', 'api-dev', 'PlatformApp \'web\'')).toBe('PlatformApp \'api\'');
    // another kind, or another cdk8s app, is another registry
    expect(claimName(scope, 'argocd ApplicationSet', 'api-dev', 'PlatformApp \'web\'')).toBeUndefined();
    expect(claimName(Testing.app(), 'argocd Application', 'api-dev', 'PlatformApp \'web\'')).toBeUndefined();
  });
});

describe('claimChartId', () => {
  test('fails if an app id is taken by the fleet\'s chart', () => {
    const app = Testing.app();
    const fleet = new ClusterFleet(app, 'fleet', { clusters: SMALL_FLEET });
    expect(() => new PlatformApp(app, 'fleet', appProps({ app, fleet, pipeline: standardPipeline(app) })))
      .toThrow(/^PlatformApp 'fleet': construct id is already the output chart of ClusterFleet 'fleet', got "fleet"; give it an id no other chart uses$/);
  });
});
