import * as fs from 'fs';
import * as path from 'path';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { Testing } from 'cdk8s';
import { describe, expect, test } from 'vitest';
import { ClusterFleet, PlatformApp, WebhookReceiver } from '../../src';
import { ManifestSet } from '../../src/cli/manifest-set';
import { planOutput } from '../../src/cli/plan-json';
import { renderPlan, summaryOf } from '../../src/cli/plan-markdown';
import { diffTrees } from '../../src/cli/release-diff';
import { API, AppSpec, CLUSTERS, prod, range, tree, WEB, withProdWaves } from '../support/cli-fixtures';
import { ROOT } from '../support/cli-temp-dirs';
import { appProps, SMALL_FLEET, standardPipeline } from '../support/fixtures';

describe('diff', () => {
  test('identical trees: every app unaffected', () => {
    const change = diffTrees(tree({ api: API, web: WEB }), tree({ api: API, web: WEB }));
    expect(change.apps).toEqual([]);
    expect(change.unaffected).toEqual(['api', 'web']);
    expect(change.fleet).toBeUndefined();
  });

  test('one app: 3 → 2 waves, 12 new clusters; the other app is named unaffected', () => {
    const after = withProdWaves(prod(1, 2, 3), prod(...range(4, 19)));
    const change = diffTrees(tree({ api: API, web: WEB }), tree({ api: after, web: WEB }));
    expect(change.unaffected).toEqual(['web']);
    const [api] = change.apps;
    expect(summaryOf(api)).toBe('api: prod 3 → 2 waves; +12 clusters; clusters moved between waves; objects: 2 changed, 2 removed');
    expect(api.clustersAdded).toEqual(prod(8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19).sort());
    const waves = api.stages[0].waves;
    expect(waves.map((w) => [w.wave, w.status, w.clustersAdded.length, w.clustersRemoved.length])).toEqual([
      ['prod-w1', 'changed', 2, 0],
      ['prod-w2', 'changed', 16, 2],
      ['prod-w3', 'removed', 0, 4],
    ]);
    const markdown = renderPlan(change, [], 'HEAD~1');
    expect(markdown).toContain('- **api: prod 3 → 2 waves; +12 clusters');
    expect(markdown).toContain('Unaffected: web; the fleet is unchanged.');
    expect(markdown).toContain('  - wave `prod-w3` removed: 4 → 0 clusters (−prod-4, −prod-5, −prod-6, −prod-7)');
    // one ApplicationSet per wave (the shape before): the clusters that change wave change ApplicationSet
    expect(markdown.split('\n').filter((l) => l.includes('ApplicationSet'))).toEqual([
      '- 2 Applications change ApplicationSet (api-prod-2, api-prod-3): the new one is refused ("already owned") until the old one deletes '
      + 'them; under the `sync` policy that clears on a later reconcile, and the resources stay (`preserveResourcesOnDeletion`)',
      '- ApplicationSet `api-prod-w3` is gone from the output: whoever applies it must delete it (prune). Kubernetes then deletes its Applications '
      + '(the resources stay: no resources finalizer) and `api-prod-w2` creates 4 Applications anew, refused as "already owned" until then; '
      + 'left in place, it keeps them for good and `api-prod-w2` stays blocked',
      '    ~ argoproj.io/v1alpha1 ApplicationSet argocd/api-prod-w1',
      '    ~ argoproj.io/v1alpha1 ApplicationSet argocd/api-prod-w2',
      '    − argoproj.io/v1alpha1 ApplicationSet argocd/api-prod-w3',
    ]);
  });

  test('gates, soak, artifacts and versioning', () => {
    const after: AppSpec = { ...API, image: 'ghcr.io/acme/api2', stages: [API.stages[0], { ...API.stages[1], auto: true, pullRequest: false, soak: '2h' }] };
    const [api] = diffTrees(tree({ api: API }), tree({ api: after })).apps;
    const prodStage = api.stages.find((s) => s.stage === 'prod')!;
    expect(prodStage.gates).toEqual({ before: ['manual + pull request'], after: ['automatic'] });
    expect(prodStage.soak).toEqual({ before: ['1h'], after: ['2h'] });
    expect(api.artifactsAdded.map((a) => a.id)).toEqual(['image ghcr.io/acme/api2']);
    expect(api.artifactsRemoved.map((a) => a.id)).toEqual(['image ghcr.io/acme/api']);
    expect(summaryOf(api)).toBe('api: prod gate manual + pull request → automatic; 2 artifacts changed; objects: 5 changed');
  });

  test('a soak moved from requiredSoakTime to the soak annotation is no change; a new value is', () => {
    const moved: AppSpec = { ...API, stages: [API.stages[0], { ...API.stages[1], soak: undefined, soakAnnotation: '1h' }] };
    const same = diffTrees(tree({ api: API }), tree({ api: moved })).apps[0];
    expect(same?.stages.find((s) => s.stage === 'prod')?.soak).toBeUndefined();
    const longer: AppSpec = { ...API, stages: [API.stages[0], { ...API.stages[1], soak: undefined, soakAnnotation: '3h' }] };
    const changed = diffTrees(tree({ api: API }), tree({ api: longer })).apps[0];
    expect(changed.stages.find((s) => s.stage === 'prod')!.soak).toEqual({ before: ['1h'], after: ['3h'] });
  });

  test('a new app, a removed app and fleet clusters', () => {
    const change = diffTrees(tree({ api: API }), tree({ web: WEB }, { ...CLUSTERS, 'prod-99': 'prod' }));
    expect(change.apps.map((a) => [a.app, a.status])).toEqual([['api', 'removed'], ['web', 'added']]);
    expect(change.fleet).toMatchObject({ clustersAdded: ['prod-99'], clustersRemoved: [], clustersChanged: [] });
    expect(summaryOf(change.apps[1])).toBe('web: new app (3 clusters, 8 objects)');
  });
});

/** The objects of one app synthesized on a fleet with or without a GitHub receiver, as `plan` reads a directory. */
function appTree(receivers: WebhookReceiver[] | undefined): ManifestSet {
  const app = Testing.app();
  const receiving = new ClusterFleet(app, 'fleet', { clusters: SMALL_FLEET, webhookReceivers: receivers });
  const api = new PlatformApp(app, 'api', appProps({ app, fleet: receiving, pipeline: standardPipeline(app) }));
  return ManifestSet.fromObjects(Testing.synth(api).map(obj => ({ file: 'api.k8s.yaml', obj })));
}

describe('plan --base and the lead time', () => {
  const GITHUB = WebhookReceiver.github({ name: 'github', secretName: 'gh', repoUrls: ['https://github.com/acme/', 'ghcr.io/acme/'], ready: true });

  test('a change that alters the lead time shows it before and after', () => {
    const [api] = diffTrees(appTree(undefined), appTree([GITHUB])).apps;
    // the fixtures' app: 5m polling, then a 30m soak in staging and one in prod-canary
    expect(api.leadTime).toEqual({ before: '1h5m', after: '1h' });
    expect(summaryOf(api)).toContain('lead time 1h5m → 1h');
    expect(renderPlan(diffTrees(appTree(undefined), appTree([GITHUB])), [], 'main')).toContain('lead time 1h5m → 1h');
    const json = planOutput(diffTrees(appTree(undefined), appTree([GITHUB])), 'main', [], [], [], []);
    expect(json.apps[0].leadTime).toEqual({ before: '1h5m', after: '1h' });
    const schema = addFormats(new Ajv({ strict: true })).compile(JSON.parse(fs.readFileSync(path.join(ROOT, 'src/cli/plan-output.schema.json'), 'utf8')));
    expect(schema(json), JSON.stringify(schema.errors)).toBe(true);
  });

  test('a change that leaves the lead time alone does not mention it', () => {
    const before = appTree(undefined);
    expect(diffTrees(before, before).apps).toEqual([]);
    const other = WebhookReceiver.gitlab({ name: 'gitlab', secretName: 'gl', repoUrls: ['https://gitlab.com/other/'] });
    const change = diffTrees(appTree([GITHUB]), appTree([GITHUB, other]));
    expect(change.apps.every(a => a.leadTime === undefined)).toBe(true);
    expect(planOutput(change, 'main', [], [], [], []).apps.every(a => !('leadTime' in a))).toBe(true);
  });
});
