import { describe, expect, test } from 'vitest';
import { Approval, Artifact, ClusterSelector, PlatformApp, PromotionPipeline, StandardsRules, Tier, Versioning, Waves } from '../../src';
import { HostLanguage } from '../../src/util/host-language';
import { appProps, world } from '../support/fixtures';

describe('every message that names a rule also says how to satisfy it', () => {
  test('each built-in standards rule, on an app that breaks it', () => {
    const w = world();
    const pipeline = new PromotionPipeline(w.app, 'auto', {
      stages: [{ name: 'prod', clusters: ClusterSelector.tier(Tier.PROD), approval: Approval.automatic(), waves: Waves.byLabel('ring', ['canary', 'broad']) }],
    });
    const app = new PlatformApp(w.app, 'a-rather-long-application-name-breaking-budgets', appProps(w, {
      owner: { team: 'payments', contact: 'somebody' },
      artifacts: [Artifact.image('docker.io/library/nginx', { versioning: Versioning.digest('latest') })],
      clusterResources: [{ group: 'apiextensions.k8s.io', kind: 'CustomResourceDefinition' }],
    }));
    const gated = new PlatformApp(w.app, 'gated', appProps(w, {
      artifacts: [Artifact.image('docker.io/library/nginx', { versioning: Versioning.digest('latest') })],
    }));
    const rules = [
      StandardsRules.ownerContact(), StandardsRules.prodVerification(), StandardsRules.prodGate(),
      StandardsRules.allowedRegistries({ registries: ['ghcr.io'] }), StandardsRules.noMutableTags(),
      StandardsRules.maxWavePercent({ percent: 10 }), StandardsRules.clusterScopedResources(), StandardsRules.nameLengths({ maxAppName: 10 }),
    ];
    const autoApp = new PlatformApp(w.app, 'auto-app', appProps(w, { pipeline }));
    for (const rule of rules) {
      const messages = [app, gated, autoApp].flatMap(a => rule.check(a));
      expect(messages.length, rule.id).toBeGreaterThan(0);
      for (const m of messages) expect(m, `${rule.id}: ${m}`).toMatch(/; (use|set|add|mirror|split|move|shorten|give|declare|remove) /);
    }
  });

  test('the owner rule names the owner\'s fields as a Python or Go program writes them', () => {
    const w = world();
    const app = new PlatformApp(w.app, 'api', appProps(w, { owner: { team: 'payments', contact: 'somebody' } }));
    expect(HostLanguage.using(HostLanguage.PYTHON, () => StandardsRules.ownerContact().check(app))).toEqual([
      'owner contact is not a channel (#name), handle (@name), e-mail address or URL, got "somebody"; set owner.contact to where on-call can be reached',
    ]);
    expect(HostLanguage.using(HostLanguage.GO, () => StandardsRules.ownerContact().check(app))).toEqual([
      'Owner Contact is not a channel (#name), handle (@name), e-mail address or URL, got "somebody"; set Owner.Contact to where on-call can be reached',
    ]);
  });
});
