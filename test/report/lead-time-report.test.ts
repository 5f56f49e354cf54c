import { Duration } from 'cdk8s';
import { describe, expect, test } from 'vitest';
import { PlatformApp, WebhookReceiver } from '../../src';
import { discoveryText, fleetLeadTimeLines, formatSeconds, leadTimeLines, receiverLines } from '../../src/report/lead-time-report';
import { appProps, synthApp } from '../support/fixtures';
import { GITHUB, platform } from '../support/webhook-platform';

describe('lead time in the reports', () => {
  test('an app\'s section: the least time, the approvals named not estimated, each path with the critical one, the biggest contributors', () => {
    const lines = leadTimeLines(synthApp().app.leadTime!);
    expect(lines[3]).toBe('At least **1h5m** from a new artifact to a verified release on every cluster, and 2 approval(s) a person gives, not estimated: '
      + 'prod-canary (manual, payments), prod-broad (manual, payments). Discovery: polling every 5m0s. '
      + 'Promotion steps and Argo CD syncs add to it; the critical path is drawn in bold above.');
    expect(lines).toContain('- Warehouse → dev → staging → prod-canary → prod-broad: 1h5m **(critical path)**');
    expect(lines.at(-1)).toBe('Biggest contributors: staging: soak 30m, prod-canary: soak 30m, discovery: polling every 5m0s 5m.');
  });

  test('discovery by webhook names the receivers and the fallback polling; seconds read as a Kargo duration', () => {
    const w = platform([GITHUB], Duration.hours(2));
    expect(discoveryText(new PlatformApp(w.app, 'api', appProps(w)).leadTime!)).toBe('webhook (github-acme; polling every 2h as fallback)');
    expect([formatSeconds(0), formatSeconds(3900), formatSeconds(59.6)]).toEqual(['0', '1h5m', '1m']);
  });

  test('the fleet table lists the apps slowest first, by name when equal', () => {
    const w = platform(undefined);
    const apps = ['web', 'api'].map(name => new PlatformApp(w.app, name, appProps(w)));
    const rows = fleetLeadTimeLines(apps).filter(l => /^\| (api|web) /.test(l));
    expect(rows.map(r => r.split(' | ')[0])).toEqual(['| api', '| web']);
    expect(fleetLeadTimeLines([])).toEqual([]);
  });

  test('each receiver to register says where Kargo reports its URL: the ClusterConfig or the app\'s ProjectConfig', () => {
    const quay = WebhookReceiver.quay({ name: 'quay', secretName: 'quay-webhook', repoUrls: ['quay.io/acme'] });
    const rows = receiverLines([{ receiver: GITHUB }, { receiver: quay, project: 'api' }]).filter(l => /^\| (github-acme|quay) /.test(l));
    expect(rows[0]).toContain("kubectl get clusterconfig cluster -o jsonpath='{.status.webhookReceivers[?(@.name==\"github-acme\")].url}'");
    expect(rows[1]).toContain('| project api | quay | `quay-webhook` in `api`');
    expect(rows[1]).toContain('kubectl get projectconfig api -n api');
    expect(receiverLines([])).toEqual([]);
  });
});
