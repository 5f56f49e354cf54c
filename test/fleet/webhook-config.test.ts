import { Duration, Testing } from 'cdk8s';
import { describe, expect, test } from 'vitest';
import { Artifact, PlatformApp, PlatformReport, Versioning, WebhookReceiver } from '../../src';
import { formatIssues, ManifestValidator } from '../../src/testkit';
import { HostLanguage } from '../../src/util/host-language';
import { appProps, errorOf, find } from '../support/fixtures';
import { GITHUB, platform } from '../support/webhook-platform';

describe('defineClusterConfig and webhookReceiverProblems', () => {
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

  test('with secretSource the receiver\'s Secret is written, empty, where Kargo reads it, and the fleet report lists it', () => {
    const managed = (name: string, secretName: string) => ({ name, secretName, secretSource: `ExternalSecret ${secretName} (merge)`, ready: true });
    const w = platform([WebhookReceiver.github({ ...managed('github-acme', 'kargo-webhook-github'), repoUrls: ['https://github.com/acme/'] })]);
    const app = new PlatformApp(w.app, 'api', appProps(w, {
      artifacts: [Artifact.image('quay.io/other/api', { versioning: Versioning.semver('^1.0.0') })],
      webhookReceivers: [WebhookReceiver.quay({ ...managed('quay-other', 'quay-webhook'), repoUrls: ['quay.io/other'] })],
    }));
    const fleetObjects = Testing.synth(w.fleet);
    const appObjects = Testing.synth(app);
    expect(find(fleetObjects, 'Secret', 'kargo-webhook-github')).toEqual({
      apiVersion: 'v1',
      kind: 'Secret',
      type: 'Opaque',
      metadata: {
        name: 'kargo-webhook-github',
        namespace: 'kargo-system-resources',
        labels: { 'gitops-platform.io/fleet': 'fleet' },
        annotations: { 'gitops-platform.io/credentials-source': 'ExternalSecret kargo-webhook-github (merge)', 'gitops-platform.io/secret-key': 'secret' },
      },
    });
    expect(find(appObjects, 'Secret', 'quay-webhook').metadata).toMatchObject({ namespace: 'api', labels: { 'gitops-platform.io/app': 'api' } });
    expect(find(appObjects, 'Secret', 'quay-webhook')).not.toHaveProperty('data');
    expect(find(appObjects, 'Secret', 'quay-webhook')).not.toHaveProperty('stringData');
    expect(formatIssues(ManifestValidator.load().validateObjects([...fleetObjects, ...appObjects]))).toBe('');
    const report = PlatformReport.renderFleet(w.fleet, [app]);
    expect(report).toContain('`kargo-webhook-github` in `kargo-system-resources`, key `secret` (written empty; filled by ExternalSecret kargo-webhook-github (merge)) | yes |');
    expect(report).toContain('`quay-webhook` in `api`, key `secret` (written empty; filled by ExternalSecret quay-webhook (merge)) | yes |');
  });

  test('fails if two receivers write one Secret, or secretSource is empty', () => {
    const message = errorOf(() => platform([
      WebhookReceiver.github({ name: 'a', secretName: 'shared', repoUrls: ['https://github.com/acme/'], secretSource: 'x' }),
      WebhookReceiver.gitlab({ name: 'b', secretName: 'shared', repoUrls: ['https://gitlab.com/acme/'], secretSource: 'y' }),
      WebhookReceiver.gitea({ name: 'c', secretName: 'c', repoUrls: ['https://gitea.acme.example/'], secretSource: ' ' }),
    ]));
    expect(message).toContain('webhookReceivers writes these Secrets from more than one receiver\'s secretSource, got ["shared"]');
    expect(message).toContain('webhookReceivers[2]: secretSource is empty, got " "');
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

  test.each([
    [HostLanguage.TYPESCRIPT, 'webhookReceivers[0]', 'WebhookReceiver.github({ name, secretName, repoUrls })'],
    [HostLanguage.PYTHON, 'webhook_receivers[0]', 'WebhookReceiver.github(name=..., secret_name=..., repo_urls=...)'],
    [HostLanguage.JAVA, 'webhookReceivers[0]', 'WebhookReceiver.github(WebhookReceiverOptions.builder().name(...).secretName(...).repoUrls(...).build())'],
    [HostLanguage.GO, 'WebhookReceivers[0]', 'WebhookReceiver_Github(&WebhookReceiverOptions{Name: ..., SecretName: ..., RepoUrls: ...})'],
    [HostLanguage.DOTNET, 'WebhookReceivers[0]', 'WebhookReceiver.Github(new WebhookReceiverOptions { Name = ..., SecretName = ..., RepoUrls = ... })'],
  ])('fails if a receiver is not a WebhookReceiver, naming the field and the factory in %s', (language, name, call) => {
    expect(HostLanguage.using(language, () => errorOf(() => platform([{ name: 'x' } as never]))))
      .toBe(`ClusterFleet 'fleet': ${name} must be a WebhookReceiver, got {"name":"x"}; use ${call}`);
  });
});
