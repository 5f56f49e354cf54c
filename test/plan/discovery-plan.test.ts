import { Duration, Testing } from 'cdk8s';
import { describe, expect, test } from 'vitest';
import { Artifact, PlatformApp, PlatformReport, Versioning, WebhookReceiver } from '../../src';
import { formatIssues, ManifestValidator } from '../../src/testkit';
import { appProps, find } from '../support/fixtures';
import { GITHUB, platform } from '../support/webhook-platform';

describe('planDiscovery', () => {
  test('a covered Warehouse polls only as a fallback, names its receivers, and the lead time drops by the polling interval', () => {
    const polled = platform(undefined);
    const pushed = platform([GITHUB], Duration.hours(2));
    const before = new PlatformApp(polled.app, 'api', appProps(polled));
    const after = new PlatformApp(pushed.app, 'api', appProps(pushed));
    const warehouse = find(Testing.synth(after), 'Warehouse', 'api');
    expect(warehouse.spec.interval).toBe('2h0m0s');
    expect(warehouse.metadata.annotations['gitops-platform.io/webhook-receivers']).toBe('github-acme');
    expect(find(Testing.synth(before), 'Warehouse', 'api').spec.interval).toBe('5m0s');
    expect(before.leadTime!.seconds - after.leadTime!.seconds).toBe(300);
    expect(after.leadTime!.discovery).toMatchObject({ mode: 'webhook', receivers: ['github-acme'], polled: [] });
    expect(formatIssues(ManifestValidator.load().validateObjects(Testing.synth(after)))).toBe('');
  });

  test('a receiver not declared ready lowers no interval: its Warehouses keep polling every 5 minutes, and the plan says why', () => {
    // Kargo v1.11.2 fails the whole config while a receiver's Secret (or its key) is missing
    // (pkg/webhook/external/receiver.go, NewReceiver): such a receiver refreshes nothing
    const pending = WebhookReceiver.github({ name: 'github-acme', secretName: 'kargo-webhook-github', repoUrls: ['https://github.com/acme/', 'ghcr.io/acme/'] });
    const w = platform([pending]);
    const app = new PlatformApp(w.app, 'api', appProps(w));
    const warehouse = find(Testing.synth(app), 'Warehouse', 'api');
    expect(warehouse.spec.interval).toBe('5m0s');
    expect(warehouse.metadata.annotations?.['gitops-platform.io/webhook-receivers']).toBeUndefined();
    expect(app.leadTime!.discovery).toMatchObject({ mode: 'polling', receivers: [], notReady: ['github-acme'] });
    expect(PlatformReport.renderApp(app)).toContain('Discovery: polling every 5m0s (receiver(s) github-acme not declared ready).');
    expect(PlatformReport.renderFleet(w.fleet, [app])).toContain('| github-acme | platform | github | `kargo-webhook-github` in `kargo-system-resources`, key `secret` (create it) '
      + '| no: covered Warehouses poll every 5m0s |');
  });

  test('a Warehouse with one uncovered subscription keeps polling every 5 minutes', () => {
    const w = platform([GITHUB]);
    const app = new PlatformApp(w.app, 'api', appProps(w, {
      artifacts: [Artifact.image('quay.io/other/api', { versioning: Versioning.semver('^1.0.0') })],
    }));
    expect(find(Testing.synth(app), 'Warehouse', 'api').spec.interval).toBe('5m0s');
    expect(app.leadTime!.discovery).toMatchObject({ mode: 'polling', receivers: ['github-acme'], polled: ['quay.io/other/api'] });
  });

  test('an app\'s own receiver goes into its ProjectConfig and covers what the platform\'s do not', () => {
    const w = platform([GITHUB]);
    const quay = WebhookReceiver.quay({ name: 'quay-other', secretName: 'quay-webhook', repoUrls: ['quay.io/other'], ready: true });
    const app = new PlatformApp(w.app, 'api', appProps(w, {
      artifacts: [Artifact.image('quay.io/other/api', { versioning: Versioning.semver('^1.0.0') })],
      webhookReceivers: [quay],
    }));
    const objects = Testing.synth(app);
    expect(find(objects, 'ProjectConfig', 'api').spec.webhookReceivers).toEqual([{ name: 'quay-other', quay: { secretRef: { name: 'quay-webhook' } } }]);
    expect(find(objects, 'Warehouse', 'api').spec.interval).toBe('1h0m0s');
    expect(app.leadTime!.discovery.receivers).toEqual(['api/quay-other', 'github-acme']);
    expect(formatIssues(ManifestValidator.load().validateObjects(objects))).toBe('');
  });
});
