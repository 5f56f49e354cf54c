import { Testing } from 'cdk8s';
import { describe, expect, test } from 'vitest';
import { ClusterFleet, PlatformApp, WebhookReceiver } from '../../src';
import { diffTrees, ManifestSet, renderPlan, summaryOf } from '../../src/cli';
import { appProps, SMALL_FLEET, standardPipeline } from '../fixtures';

/** The objects of one app synthesized on a fleet with or without a GitHub receiver, as `plan` reads a directory. */
function tree(receivers: WebhookReceiver[] | undefined): ManifestSet {
  const app = Testing.app();
  const fleet = new ClusterFleet(app, 'fleet', { clusters: SMALL_FLEET, webhookReceivers: receivers });
  const api = new PlatformApp(app, 'api', appProps({ app, fleet, pipeline: standardPipeline(app) }));
  return ManifestSet.fromObjects(Testing.synth(api).map(obj => ({ file: 'api.k8s.yaml', obj })));
}

describe('plan --base and the lead time', () => {
  const GITHUB = WebhookReceiver.github({ name: 'github', secretName: 'gh', repoUrls: ['https://github.com/acme/', 'ghcr.io/acme/'] });

  test('a change that alters the lead time shows it before and after', () => {
    const [api] = diffTrees(tree(undefined), tree([GITHUB])).apps;
    // the fixtures' app: 5m polling, then a 30m soak in staging and one in prod-canary
    expect(api.leadTime).toEqual({ before: '1h5m', after: '1h' });
    expect(summaryOf(api)).toContain('lead time 1h5m → 1h');
    expect(renderPlan(diffTrees(tree(undefined), tree([GITHUB])), [], 'main')).toContain('lead time 1h5m → 1h');
  });

  test('a change that leaves the lead time alone does not mention it', () => {
    const before = tree(undefined);
    expect(diffTrees(before, before).apps).toEqual([]);
    const other = WebhookReceiver.gitlab({ name: 'gitlab', secretName: 'gl', repoUrls: ['https://gitlab.com/other/'] });
    const change = diffTrees(tree([GITHUB]), tree([GITHUB, other]));
    expect(change.apps.every(a => a.leadTime === undefined)).toBe(true);
  });
});
