import { Testing } from 'cdk8s';
import { describe, expect, test } from 'vitest';
import { Artifact, PlatformApp, PushedRepositoryType, Versioning, WebhookReceiver } from '../../src';
import { formatIssues, ManifestValidator } from '../../src/testkit';
import { HostLanguage } from '../../src/util/host-language';
import { appProps, errorOf, find } from '../support/fixtures';

import { GITHUB, platform } from '../support/webhook-platform';

describe('webhook receivers', () => {

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
    expect(find(Testing.synth(app), 'Warehouse', 'api').spec.interval).toBe('1h0m0s');
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

  test('fails if a generic receiver\'s repoType is unknown, naming the field and the enum member as Go writes them', () => {
    const receiver = () => WebhookReceiver.generic({ name: 'g', secretName: 's', repoUrls: ['x'], repoUrlExpression: 'request.body.url', repoType: 'oci' as never });
    expect(HostLanguage.using(HostLanguage.GO, receiver)._problems).toEqual(['RepoType is not a PushedRepositoryType, got "oci"; use PushedRepositoryType_GIT, IMAGE or CHART']);
    expect(HostLanguage.using(HostLanguage.PYTHON, receiver)._problems).toEqual(['repo_type is not a PushedRepositoryType, got "oci"; use PushedRepositoryType.GIT, IMAGE or CHART']);
  });
});
