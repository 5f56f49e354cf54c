import { Duration, Testing } from 'cdk8s';
import { describe, expect, test } from 'vitest';
import { Artifact, ClusterFleet, PlatformApp, PlatformReport, PushedRepositoryType, Versioning, WebhookReceiver } from '../../src';
import { formatIssues, ManifestValidator } from '../../src/testkit';
import { HostLanguage } from '../../src/util/host-language';
import { appProps, errorOf, find, SMALL_FLEET, standardPipeline } from '../support/fixtures';

const GITHUB = WebhookReceiver.github({ name: 'github-acme', secretName: 'kargo-webhook-github', repoUrls: ['https://github.com/acme/', 'ghcr.io/acme/'], ready: true });

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
    expect(find(objects, 'Warehouse', 'api').spec.interval).toBe('1h');
    expect(app.leadTime!.discovery.receivers).toEqual(['api/quay-other', 'github-acme']);
    expect(formatIssues(ManifestValidator.load().validateObjects(objects))).toBe('');
  });

  test('a generic receiver refreshes the Warehouses subscribed to the URL its expression reads from the request', () => {
    const ecr = WebhookReceiver.generic({
      name: 'ecr',
      secretName: 'kargo-webhook-ecr',
      repoUrls: ['123456789012.dkr.ecr.us-east-1.amazonaws.com/'],
      repoType: PushedRepositoryType.IMAGE,
      repoUrlExpression: " '123456789012.dkr.ecr.us-east-1.amazonaws.com/' + request.body.detail['repository-name'] ",
      whenExpression: "request.body.detail['action-type'] == 'PUSH'",
      ready: true,
    });
    // the app's Git source pushes to the GitHub receiver
    const w = platform([ecr, GITHUB]);
    const app = new PlatformApp(w.app, 'api', appProps(w, {
      artifacts: [Artifact.image('123456789012.dkr.ecr.us-east-1.amazonaws.com/api', { versioning: Versioning.semver('^1.0.0') })],
    }));
    const fleetObjects = Testing.synth(w.fleet);
    // the index and operator Kargo's list.go selects with; the URL normalized as the index stores it (pkg/indexer WarehousesBySubscribedURLs)
    expect(find(fleetObjects, 'ClusterConfig', 'cluster').spec.webhookReceivers[0]).toEqual({
      name: 'ecr',
      generic: {
        secretRef: { name: 'kargo-webhook-ecr' },
        actions: [{
          action: 'Refresh',
          whenExpression: "request.body.detail['action-type'] == 'PUSH'",
          targetSelectionCriteria: [{
            kind: 'Warehouse',
            indexSelector: { matchIndices: [{ key: 'subscribedURLs', operator: 'Equals', value: "${{ normalizeImage('123456789012.dkr.ecr.us-east-1.amazonaws.com/' + request.body.detail['repository-name']) }}" }] },
          }],
        }],
      },
    });
    expect(formatIssues(ManifestValidator.load().validateObjects(fleetObjects))).toBe('');
    expect(app.leadTime!.discovery).toMatchObject({ mode: 'webhook', receivers: ['ecr', 'github-acme'], polled: [] });
    expect(find(Testing.synth(app), 'Warehouse', 'api').spec.interval).toBe('1h');
    const chart = WebhookReceiver.generic({ name: 'c', secretName: 's', repoUrls: ['x'], repoType: PushedRepositoryType.CHART, repoUrlExpression: 'request.body.url' });
    expect(chart._toKargo().generic.actions[0]).not.toHaveProperty('whenExpression');
    expect(chart._toKargo().generic.actions[0].targetSelectionCriteria[0].indexSelector.matchIndices[0].value).toBe('${{ normalizeChart(request.body.url) }}');
  });

  test('fails if a generic receiver\'s expressions are empty or carry template delimiters', () => {
    const bad = WebhookReceiver.generic({
      name: 'any',
      secretName: 's',
      repoUrls: ['x'],
      repoType: 'svn' as PushedRepositoryType,
      repoUrlExpression: '${{ request.body.repo }}',
      whenExpression: ' ',
    });
    const message = errorOf(() => platform([bad]));
    expect(message).toContain('webhookReceivers[0]: repoUrlExpression contains a template delimiter (${{, }}, ${%, %}), got "${{ request.body.repo }}"; write the bare expression');
    expect(message).toContain('webhookReceivers[0]: whenExpression must be a non-empty expr-lang expression, got " "');
    expect(message).toContain('webhookReceivers[0]: repoType is not a PushedRepositoryType, got "svn"; use PushedRepositoryType.GIT, IMAGE or CHART');
  });

  test('fails if a generic receiver\'s expression does not compile as Kargo compiles it (expr-lang v1.17.8), with every problem at once', () => {
    const bad = WebhookReceiver.generic({
      name: 'ecr',
      secretName: 's',
      repoUrls: ['x'],
      repoType: PushedRepositoryType.IMAGE,
      repoUrlExpression: "'123456789012.dkr.ecr.us-east-1.amazonaws.com/' + request.body.detail['repository-name'",
      whenExpression: "request.body.detail['action-type'] = 'PUSH'",
    });
    const message = errorOf(() => platform([bad]));
    expect(message).toContain('webhookReceivers[0]: whenExpression does not compile with expr-lang v1.17.8, Kargo\'s expression language '
      + '(unexpected token Operator("=") (1:36)), so every request to the receiver fails, got "request.body.detail[\'action-type\'] = \'PUSH\'"');
    expect(message).toMatch(/webhookReceivers\[0\]: repoUrlExpression does not compile with expr-lang v1.17.8.*\(unexpected token Bracket\("\)"\).*\)/);
    // valid expressions compile, whatever the request holds (names are resolved on a request, as in Kargo)
    expect(() => platform([WebhookReceiver.generic({
      name: 'ok',
      secretName: 's',
      repoUrls: ['x'],
      repoType: PushedRepositoryType.GIT,
      repoUrlExpression: 'request.body.repo.url',
      whenExpression: "request.header('X-Event') in ['push', 'tag'] && requst.body != nil",
    })])).not.toThrow();
  });

  test('each receiver kind names the key its Secret must hold', () => {
    const opts = { name: 'r', secretName: 's', repoUrls: ['x'] };
    expect(WebhookReceiver.github(opts).secretKey).toBe('secret');
    expect(WebhookReceiver.gitlab(opts).secretKey).toBe('secret-token');
    expect(WebhookReceiver.harbor(opts).secretKey).toBe('auth-header');
    expect(WebhookReceiver.artifactory(opts).secretKey).toBe('secret-token');
    expect(WebhookReceiver.generic({ ...opts, repoType: PushedRepositoryType.GIT, repoUrlExpression: 'request.body.url' }).secretKey).toBe('secret');
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

  test('fails if a generic receiver\'s repoType is unknown, naming the field and the enum member as Go writes them', () => {
    const receiver = () => WebhookReceiver.generic({ name: 'g', secretName: 's', repoUrls: ['x'], repoUrlExpression: 'request.body.url', repoType: 'oci' as never });
    expect(HostLanguage.using(HostLanguage.GO, receiver)._problems).toEqual(['RepoType is not a PushedRepositoryType, got "oci"; use PushedRepositoryType_GIT, IMAGE or CHART']);
    expect(HostLanguage.using(HostLanguage.PYTHON, receiver)._problems).toEqual(['repo_type is not a PushedRepositoryType, got "oci"; use PushedRepositoryType.GIT, IMAGE or CHART']);
  });
});
