import { describe, expect, test } from 'vitest';
import { ClusterSelector, PlatformApp, PromotionPipeline } from '../../src';
import { appProps, world } from '../support/fixtures';
describe('claimAppNames', () => {
  test('fails if two apps have the same name', () => {
    const w = world();
    new PlatformApp(w.app, 'api', appProps(w));
    expect(() => new PlatformApp(w.app, 'api-2', appProps(w, { appName: 'api' })))
      .toThrow(/^PlatformApp 'api': appName is already used by PlatformApp 'api' \(construct api\), got "api"; give every app a unique name$/);
  });

  test('fails if the derived names of two apps collide', () => {
    const w = world();
    const other = new PromotionPipeline(w.app, 'other', { stages: [{ name: 'canary', clusters: ClusterSelector.all(), namespace: '{app}-{stage}' }] });
    new PlatformApp(w.app, 'api', appProps(w, { pipeline: other }));
    expect(() => new PlatformApp(w.app, 'api-canary', appProps(w)))
      .toThrow(/argocd ApplicationSet name is already used by PlatformApp 'api' \(construct api\), got "api-canary"; give the apps distinct names/);
  });
});
