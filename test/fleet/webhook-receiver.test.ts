import { Duration, Testing } from 'cdk8s';
import { describe, expect, test } from 'vitest';
import { Artifact, ClusterFleet, PlatformApp, Versioning, WebhookReceiver } from '../../src';
import { formatIssues, ManifestValidator } from '../../src/testkit';
import { appProps, errorOf, find, SMALL_FLEET, standardPipeline } from '../support/fixtures';

const GITHUB = WebhookReceiver.github({ name: 'github-acme', secretName: 'kargo-webhook-github', repoUrls: ['https://github.com/acme/', 'ghcr.io/acme/'] });

function platform(receivers: WebhookReceiver[] | undefined, fallback?: Duration) {
  const app = Testing.app();
  const fleet = new ClusterFleet(app, 'fleet', { clusters: SMALL_FLEET, webhookReceivers: receivers, discoveryFallbackInterval: fallback });
  const pipeline = standardPipeline(app);
  return { app, fleet, pipeline };
}

describe('webhook receivers', () => {
  test('the platform declares its receivers once, as Kargo\'s ClusterConfig, with a Secret reference only', () => {
    const w = platform([GITHUB, WebhookReceiver.harbor({ name: 'harbor', secretName: 'kargo-webhook-harbor', repoUrls: ['harbor.acme.internal'] })]);
    const objects = Testing.synth(w.fleet);
    const config = find(objects, 'ClusterConfig', 'cluster');
    expect(config.spec.webhookReceivers).toEqual([
      { name: 'github-acme', github: { secretRef: { name: 'kargo-webhook-github' } } },
      { name: 'harbor', harbor: { secretRef: { name: 'kargo-webhook-harbor' } } },
    ]);
    expect(formatIssues(ManifestValidator.load().validateObjects(objects))).toBe('');
    // a reference only: no Secret is written for the receivers
    expect(objects.filter(o => o.kind === 'Secret' && /webhook/.test(o.metadata.name))).toEqual([]);
  });

  test('a covered Warehouse polls only as a fallback, names its receivers, and the lead time drops by the polling interval', () => {
    const polled = platform(undefined);
    const pushed = platform([GITHUB], Duration.hours(2));
    const before = new PlatformApp(polled.app, 'api', appProps(polled));
    const after = new PlatformApp(pushed.app, 'api', appProps(pushed));
    const warehouse = find(Testing.synth(after), 'Warehouse', 'api');
    expect(warehouse.spec.interval).toBe('2h');
    expect(warehouse.metadata.annotations['gitops-platform.io/webhook-receivers']).toBe('github-acme');
    expect(find(Testing.synth(before), 'Warehouse', 'api').spec.interval).toBe('5m0s');
    expect(before.leadTime!.seconds - after.leadTime!.seconds).toBe(300);
    expect(after.leadTime!.discovery).toMatchObject({ mode: 'webhook', receivers: ['github-acme'], polled: [] });
    expect(formatIssues(ManifestValidator.load().validateObjects(Testing.synth(after)))).toBe('');
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
    const quay = WebhookReceiver.quay({ name: 'quay-other', secretName: 'quay-webhook', repoUrls: ['quay.io/other'] });
    const app = new PlatformApp(w.app, 'api', appProps(w, {
      artifacts: [Artifact.image('quay.io/other/api', { versioning: Versioning.semver('^1.0.0') })],
      webhookReceivers: [quay],
    }));
    const objects = Testing.synth(app);
    expect(find(objects, 'ProjectConfig', 'api').spec.webhookReceivers).toEqual([{ name: 'quay-other', quay: { secretRef: { name: 'quay-webhook' } } }]);
    expect(find(objects, 'Warehouse', 'api').spec.interval).toBe('1h');
    expect(app.leadTime!.discovery.receivers).toEqual(['api/quay-other', 'github-acme']);
    expect(formatIssues(ManifestValidator.load().validateObjects(objects))).toBe('');
  });

  test('each receiver kind names the key its Secret must hold', () => {
    const opts = { name: 'r', secretName: 's', repoUrls: ['x'] };
    expect(WebhookReceiver.github(opts).secretKey).toBe('secret');
    expect(WebhookReceiver.gitlab(opts).secretKey).toBe('secret-token');
    expect(WebhookReceiver.harbor(opts).secretKey).toBe('auth-header');
    expect(WebhookReceiver.artifactory(opts).secretKey).toBe('secret-token');
  });

  test('covers repository URLs by prefix, ignoring scheme, case and .git', () => {
    expect(GITHUB.covers('https://github.com/acme/deploy.git')).toBe(true);
    expect(GITHUB.covers('https://GitHub.com/Acme/deploy')).toBe(true);
    expect(GITHUB.covers('ghcr.io/acme/api')).toBe(true);
    expect(GITHUB.covers('https://github.com/acme-other/deploy')).toBe(false);
  });

  test('fails if a receiver is malformed or two share a name', () => {
    const bad = WebhookReceiver.gitlab({ name: 'GitLab', secretName: '', repoUrls: [] });
    const message = errorOf(() => platform([GITHUB, GITHUB, bad]));
    expect(message).toContain("ClusterFleet 'fleet'");
    expect(message).toContain('webhookReceivers[2]: name must consist of lowercase letters');
    expect(message).toContain('got "GitLab"; name the receiver like a Kubernetes object');
    expect(message).toContain('webhookReceivers[2]: secretName must not be empty');
    expect(message).toContain('webhookReceivers[2]: repoUrls is empty, got []');
    expect(message).toContain('webhookReceivers repeats receiver names, got ["github-acme"]; give each receiver a unique name');
  });

  test('fails if the fallback interval is shorter than a minute', () => {
    expect(errorOf(() => platform([GITHUB], Duration.seconds(30))))
      .toContain('discoveryFallbackInterval must be a whole number of seconds, at least a minute, got "30s"');
  });
});
