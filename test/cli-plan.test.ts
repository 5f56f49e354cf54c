import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { afterAll, describe, expect, test } from 'vitest';
import * as YAML from 'yaml';
import { API, AppSpec, ARGO, CLUSTERS, fleet, MANIFESTS, prod, range, tree, WEB, withProdWaves } from './cli-fixtures';
import { PlatformLabels } from '../src';
import {
  argoCdTransition, changeRules, checkChange, diffTrees, FREEZE_OVERRIDE_ANNOTATION, ManifestSet, maxProductionWaveGrowth,
  noProductionChangeDuringFreeze, readModels, renderPlan, run, summaryOf,
} from '../src/cli';

describe('release model', () => {
  test('stages, waves, gates, soak, checks, branches and artifacts from the objects', () => {
    const api = readModels(tree({ api: API })).get('api')!;
    expect(api.stages.map((s) => [s.name, s.production, s.waves.map((w) => `${w.name}:${w.clusters.join('+')}`)])).toEqual([
      ['dev', false, ['dev:dev-1']],
      ['prod', true, ['prod-w1:prod-1', 'prod-w2:prod-2+prod-3', 'prod-w3:prod-4+prod-5+prod-6+prod-7']],
    ]);
    const w2 = api.stages[1].waves[1];
    expect(w2).toMatchObject({ gates: ['manual + pull request'], soak: ['1h'], checks: ['smoke'], releaseBranches: ['rendered/api/prod-w2'] });
    expect(w2.targets).toEqual([
      { application: 'api-prod-2', namespace: 'api', clusters: ['https://prod-2.example.com', 'prod-2'] },
      { application: 'api-prod-3', namespace: 'api', clusters: ['https://prod-3.example.com', 'prod-3'] },
    ]);
    expect(api.stages[0].waves[0].gates).toEqual(['automatic']);
    expect(api.artifacts).toEqual([{ id: 'image ghcr.io/acme/api', versioning: 'strategy SemVer, constraint ^1.0.0' }]);
  });

  test('the example: per-cluster Kargo Stages join their wave', () => {
    const models = readModels(ManifestSet.load(MANIFESTS));
    expect([...models.keys()]).toEqual(['checkout-api', 'docs-preview', 'guestbook', 'inference-gateway', 'model-server', 'storefront', 'telemetry-agent']);
    const prodStage = models.get('checkout-api')!.stages.find((s) => s.name === 'prod')!;
    expect(prodStage.production).toBe(true);
    expect(prodStage.waves.map((w) => w.name)).toEqual(['prod-w1', 'prod-w2', 'prod-w3', 'prod-w4']);
    expect(prodStage.waves[0].kargoStages).toEqual(['prod-w1', 'prod-w1-aws-apne1-cpu-prod-01', 'prod-w1-azr-eus-cpu-prod-01', 'prod-w1-oci-lhr-cpu-prod-01']);
    expect(prodStage.waves[0].clusters).toEqual(['aws-apne1-cpu-prod-01', 'azr-eus-cpu-prod-01', 'gcp-asse1-cpu-prod-01', 'oci-lhr-cpu-prod-01']);
    expect(prodStage.waves[0].gates).toEqual(['automatic + pull request']);
  });
});

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

  test('one ApplicationSet per wave: a swap blocks both ApplicationSets, and the plan says a person must act', () => {
    const swapped = withProdWaves(prod(1), prod(2, 4), prod(3, 5, 6, 7));
    const [api] = diffTrees(tree({ api: API }), tree({ api: swapped })).apps;
    expect(api.argoCd.findings.map((f) => `${f.name}: ${f.code}`)).toEqual([
      'api-prod-w2: applicationset-ownership-conflict', 'api-prod-w3: applicationset-ownership-conflict',
    ]);
    const markdown = renderPlan(diffTrees(tree({ api: API }), tree({ api: swapped })), [], 'main');
    expect(markdown).toContain('- needs a person (`applicationset-ownership-conflict`): ApplicationSet argocd/api-prod-w2 generates Application '
      + 'argocd/api-prod-4 (controlled by ApplicationSet argocd/api-prod-w3): SetControllerReference refuses it on every reconcile');
    expect(markdown).not.toContain('change ApplicationSet');
  });

  test('one ApplicationSet per app, a generator per wave: a swap changes both Applications in place', () => {
    const swapped = withProdWaves(prod(1), prod(2, 4), prod(3, 5, 6, 7));
    const change = diffTrees(tree({ api: { ...API, family: true } }), tree({ api: { ...swapped, family: true } }));
    const [api] = change.apps;
    expect(api.argoCd).toMatchObject({ ownerChanges: [], removedApplicationSets: [], cleared: [], findings: [] });
    expect(api.argoCd.inPlace.map((m) => `${m.application} ${m.stage.before} → ${m.stage.after}`)).toEqual([
      'argocd/api-prod-3 prod-w2 → prod-w3', 'argocd/api-prod-4 prod-w3 → prod-w2',
    ]);
    expect(renderPlan(change, [], 'main')).toContain('- 2 Applications change wave in place (api-prod-3 `prod-w2` → `prod-w3`, api-prod-4 `prod-w3` → '
      + '`prod-w2`): ApplicationSet `api` keeps them and, on its next reconcile, rewrites their release branch, `gitops-platform.io/stage` label '
      + 'and `kargo.akuity.io/authorized-stage`; no ownership change. A promotion into the new wave that starts before then does not select them yet');
    // the release model reads the waves from the generators
    expect(readModels(tree({ api: { ...swapped, family: true } })).get('api')!.stages[1].waves.map((w) => w.clusters)).toEqual([
      ['prod-1'], ['prod-2', 'prod-4'], ['prod-3', 'prod-5', 'prod-6', 'prod-7'],
    ]);
    // a change to the shared ApplicationSet is a production change only where it changes production Applications
    expect(api.productionObjects.changed).toEqual(['argoproj.io/v1alpha1 ApplicationSet argocd/api']);
    const devOnly = diffTrees(tree({ api: { ...API, family: true } }), tree({ api: { ...API, family: true, stages: [{ ...API.stages[0], waves: [['dev-1', 'dev-2']] }, API.stages[1]] } },
      { ...CLUSTERS, 'dev-2': 'dev' })).apps[0];
    expect(devOnly.objects.changed).toContain('argoproj.io/v1alpha1 ApplicationSet argocd/api');
    expect(devOnly.productionObjects.changed).toEqual([]);
  });

  test('an Application of a cluster with its own Argo CD changes wave in place, when its chart is applied', () => {
    const local = (stage: string) => ManifestSet.fromObjects([{
      file: 'api--edge-1.k8s.yaml',
      obj: { apiVersion: ARGO, kind: 'Application', metadata: { name: 'api-edge-1', namespace: 'argocd', labels: { [PlatformLabels.STAGE]: stage } }, spec: {} },
    }]);
    const transition = argoCdTransition(local('prod-w1').ofGroup('api'), local('prod-w2').ofGroup('api'));
    expect(transition.inPlace).toEqual([{ application: 'edge-1:argocd/api-edge-1', applicationSet: '', stage: { before: 'prod-w1', after: 'prod-w2' } }]);
    expect(renderPlan(diffTrees(local('prod-w1'), local('prod-w2')), [], 'main')).toContain('- 1 Application of clusters with their own Argo CD '
      + 'change wave in place (api-edge-1 on edge-1 `prod-w1` → `prod-w2`): each changes when its cluster\'s chart (`<app>--<cluster>.k8s.yaml`) '
      + 'is applied there; until then the new wave\'s Stage does not select it');
  });

  test('under the `create-only` policy a wave move is never applied: the plan says a person must act', () => {
    const swapped = withProdWaves(prod(1), prod(2, 4), prod(3, 5, 6, 7));
    const change = diffTrees(tree({ api: { ...API, family: true } }), tree({ api: { ...swapped, family: true } }), { applicationSetPolicy: 'create-only' });
    expect(renderPlan(change, [], 'main')).toContain('- needs a person (`applicationset-application-outdated`): ApplicationSet argocd/api generates '
      + 'argocd/api-prod-3, argocd/api-prod-4 with new fields but its policy create-only does not update (AllowUpdate)');
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

test('fleet: the fields of changed cluster Secrets', () => {
  const after = fleet(CLUSTERS);
  after[1].obj.stringData.shard = '4';
  after[1].obj.metadata.labels.ring = 'broad';
  const change = diffTrees(ManifestSet.fromObjects(fleet(CLUSTERS)), ManifestSet.fromObjects(after));
  // a Secret's data is never shown: the field is named, its value is not
  expect(change.fleet?.clusterFieldChanges).toEqual({ 'prod-1': ['/metadata/labels/ring: (none) → "broad"', '/stringData/shard: (redacted)'] });
  expect(renderPlan(change, [], 'main')).toContain('- **fleet: 1 cluster changed**');
  expect(renderPlan(change, [], 'main')).toContain('- cluster `prod-1` changed: /metadata/labels/ring: (none) → "broad", /stringData/shard: (redacted)');
});

describe('change rules', () => {
  const now = { now: new Date('2026-12-05T12:00:00Z') }; // a Saturday
  const grow = (n: number): AppSpec => withProdWaves(prod(1), prod(2, 3), prod(...range(4, 7 + n)));
  /** The objects and models of the change from `before` to `after` (app `api` only). */
  const changeOf = (before: AppSpec, after: AppSpec) => diffTrees(tree({ api: before }), tree({ api: after }));

  test('max-production-wave-growth', () => {
    const change = diffTrees(tree({ api: API }), tree({ api: grow(6) }));
    expect(checkChange(change, [maxProductionWaveGrowth()], now)).toEqual([{
      ruleId: 'max-production-wave-growth',
      app: 'api',
      message: 'api: production wave prod-w3 grows by 6 cluster(s) (prod-10, prod-11, prod-12, prod-13, prod-8, prod-9), more than 5',
      fix: 'add at most 5 cluster(s) to prod-w3 per change (split the change, or add a wave), or raise maxClusters in the config',
    }]);
    expect(checkChange(diffTrees(tree({ api: API }), tree({ api: grow(5) })), [maxProductionWaveGrowth()], now)).toEqual([]);
    expect(checkChange(change, [maxProductionWaveGrowth({ maxClusters: 6 })], now)).toEqual([]);
    // a new app is exempt
    expect(checkChange(diffTrees(tree({}), tree({ api: grow(10) })), [maxProductionWaveGrowth()], now)).toEqual([]);
    expect(() => maxProductionWaveGrowth({ maxClusters: -1 })).toThrow(/got -1/);
  });

  describe('no-production-change-during-freeze', () => {
    const weekend = { kind: 'deny', schedule: '0 18 * * fri', duration: '63h', clusters: ['prod-*'] };
    const rule = [noProductionChangeDuringFreeze()];

    test('a production change during an active deny window breaks the rule', () => {
      const before = { ...API, syncWindows: [weekend] };
      const change = diffTrees(tree({ api: before }), tree({ api: { ...grow(1), syncWindows: [weekend] } }));
      const [v] = checkChange(change, rule, now);
      expect(v.ruleId).toBe('no-production-change-during-freeze');
      expect(v.message).toBe('api: changes production (0 added, 1 changed, 0 removed object(s)) during the freeze "0 18 * * fri" for 63h, active from 2026-12-04T18:00:00.000Z to 2026-12-07T09:00:00.000Z for Application api-prod-1');
      expect(v.fix).toBe(`merge after 2026-12-07T09:00:00.000Z, or give the PlatformApp freezeOverride: FreezeOverride.of({ by, reason }), which writes the ${FREEZE_OVERRIDE_ANNOTATION} annotation`);
      // outside the window, with an override, for a window of other clusters, or removing the window: see below
      expect(checkChange(change, rule, { now: new Date('2026-12-07T09:00:00Z') })).toEqual([]);
      const overridden = diffTrees(tree({ api: before }), tree({ api: { ...grow(1), syncWindows: [weekend], projectAnnotations: { [FREEZE_OVERRIDE_ANNOTATION]: 'CHG-42, approved by the release board' } } }));
      expect(checkChange(overridden, rule, now)).toEqual([]);
      const elsewhere = { ...weekend, clusters: ['eu-*'] };
      expect(checkChange(changeOf({ ...API, syncWindows: [elsewhere] }, { ...grow(1), syncWindows: [elsewhere] }), rule, now)).toEqual([]);
      // removing the freeze in the same change does not lift it
      expect(checkChange(diffTrees(tree({ api: before }), tree({ api: grow(1) })), rule, now)).toHaveLength(1);
    });

    test('changes outside production and allow windows pass', () => {
      const devOnly: AppSpec = { ...API, syncWindows: [weekend], stages: [{ ...API.stages[0], soak: '5m', waves: [['dev-1']], auto: false }, API.stages[1]] };
      expect(checkChange(diffTrees(tree({ api: { ...API, syncWindows: [weekend] } }), tree({ api: devOnly })), rule, now)).toEqual([]);
      const allow = { ...weekend, kind: 'allow' };
      expect(checkChange(changeOf({ ...API, syncWindows: [allow] }, { ...grow(1), syncWindows: [allow] }), rule, now)).toEqual([]);
    });

    test('an invalid window is reported, not thrown', () => {
      const bad = { ...weekend, schedule: '0 18 * *' };
      const [v] = checkChange(diffTrees(tree({ api: { ...API, syncWindows: [bad] } }), tree({ api: { ...grow(1), syncWindows: [bad] } })), rule, now);
      expect(v.message).toMatch(/cannot be evaluated: cron schedule has 4 fields, Argo CD reads exactly 5, got "0 18 \* \*"/);
    });
  });

  test('configuration: defaults, options, turning rules off, unknown ids', () => {
    expect(changeRules().map((r) => r.id)).toEqual(['max-production-wave-growth', 'no-production-change-during-freeze']);
    expect(changeRules({ 'max-production-wave-growth': false }).map((r) => r.id)).toEqual(['no-production-change-during-freeze']);
    expect(changeRules({ 'max-production-wave-growth': { maxClusters: 2 } })[0].description).toBe('a change may add at most 2 cluster(s) to one production wave');
    expect(() => changeRules({ 'no-such-rule': true })).toThrow('change rule is not known, got "no-such-rule"; use one of');
  });
});

const temps: string[] = [];
afterAll(() => temps.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

describe('plan --base-dir/--head-dir', () => {
  const io = () => {
    const out: string[] = [];
    const err: string[] = [];
    return { out, err, io: { cwd: path.join(__dirname, '..'), stdout: (t: string) => out.push(t), stderr: (t: string) => err.push(t) } };
  };

  test('the example against itself: everything unaffected, exit 0', async () => {
    const { out, io: cli } = io();
    expect(await run(['plan', '--base-dir', 'manifests', '--head-dir', 'manifests'], cli)).toBe(0);
    expect(out.join('')).toBe([
      '## Release plan against `manifests`',
      '',
      'No app and no cluster changes.',
      '',
      'Unaffected: checkout-api, docs-preview, guestbook, inference-gateway, model-server, storefront, telemetry-agent; the fleet is unchanged.',
      '',
    ].join('\n'));
  });

  test('a broken change standard exits 1; the config file sets the rules', async () => {
    const dirs = fs.mkdtempSync(path.join(os.tmpdir(), 'gitops-platform-plan-test-'));
    temps.push(dirs);
    const write = (name: string, set: ManifestSet) => {
      const dir = path.join(dirs, name);
      fs.mkdirSync(dir);
      const files = new Map<string, any[]>();
      set.objects.forEach((o) => files.set(o.file, [...(files.get(o.file) ?? []), o.obj]));
      files.forEach((objs, file) => fs.writeFileSync(path.join(dir, file), objs.map((o) => YAML.stringify(o)).join('---\n')));
      return dir;
    };
    const wide = withProdWaves(prod(1), prod(2, 3), prod(...range(4, 13)));
    const [base, head] = [write('base', tree({ api: API, web: WEB })), write('head', tree({ api: wide, web: WEB }))];
    const broken = io();
    expect(await run(['plan', '--base-dir', base, '--head-dir', head], broken.io)).toBe(1);
    expect(broken.out.join('')).toContain('### 1 change standard broken\n\n- `max-production-wave-growth` api: production wave prod-w3 grows by 6 cluster(s)');
    const config = path.join(dirs, 'rules.json');
    fs.writeFileSync(config, JSON.stringify({ changeRules: { 'max-production-wave-growth': { maxClusters: 6 } } }));
    const ok = io();
    expect(await run(['plan', '--base-dir', base, '--head-dir', head, '--config', config], ok.io)).toBe(0);
    expect(ok.out.join('')).toContain('Unaffected: web; the fleet is unchanged.');
    // a weekend freeze on the production clusters: --now decides whether it is active
    const freeze = [{ kind: 'deny', schedule: '0 18 * * fri', duration: '63h', clusters: ['prod-*'], description: 'weekend' }];
    const [frozenBase, frozenHead] = [write('frozen-base', tree({ api: { ...API, syncWindows: freeze } })), write('frozen-head', tree({ api: { ...wide, syncWindows: freeze } }))];
    const frozen = io();
    expect(await run(['plan', '--base-dir', frozenBase, '--head-dir', frozenHead, '--config', config, '--now', '2026-12-05T12:00:00Z'], frozen.io)).toBe(1);
    expect(frozen.out.join('')).toContain('- `no-production-change-during-freeze` api: changes production');
    expect(frozen.out.join('')).toContain('during the freeze "0 18 * * fri" for 63h – weekend, active from 2026-12-04T18:00:00.000Z to 2026-12-07T09:00:00.000Z');
    const monday = io();
    expect(await run(['plan', '--base-dir', frozenBase, '--head-dir', frozenHead, '--config', config, '--now', '2026-12-07T10:00:00Z'], monday.io)).toBe(0);
    fs.writeFileSync(config, JSON.stringify({ changeRules: { 'max-production-wave-growht': false } }));
    const typo = io();
    expect(await run(['plan', '--base-dir', base, '--head-dir', head, '--config', config], typo.io)).toBe(2);
    expect(typo.err.join('')).toBe('error: change rule is not known, got "max-production-wave-growht"; use one of max-production-wave-growth, no-production-change-during-freeze\n');
    // the ApplicationSet controller's policy decides what the plan says a wave move does
    fs.writeFileSync(config, JSON.stringify({ applicationSetPolicy: 'create-update', changeRules: { 'max-production-wave-growth': false } }));
    const moved = write('moved', tree({ api: withProdWaves(prod(1), prod(2), prod(3, 4, 5, 6, 7)), web: WEB }));
    const noDelete = io();
    expect(await run(['plan', '--base-dir', base, '--head-dir', moved, '--config', config], noDelete.io)).toBe(0);
    expect(noDelete.out.join('')).toContain('- needs a person (`applicationset-ownership-conflict`): ApplicationSet argocd/api-prod-w3 generates '
      + 'Application argocd/api-prod-3 (controlled by ApplicationSet argocd/api-prod-w2)');
    fs.writeFileSync(config, JSON.stringify({ applicationSetPolicy: 'upsert' }));
    const badPolicy = io();
    expect(await run(['plan', '--base-dir', base, '--head-dir', head, '--config', config], badPolicy.io)).toBe(2);
    expect(badPolicy.err.join('')).toBe('error: config applicationSetPolicy "upsert" is not an ApplicationSet controller policy '
      + '(sync, create-only, create-update, create-delete)\n');
  });

  test('usage errors exit 2 with a message and no stack', async () => {
    for (const argv of [['frobnicate'], ['plan', '--base-dir', 'manifests'], ['plan', '--nope', 'x'], ['plan', '--now', 'yesterday'], ['plan', '--base-dir', 'x', '--head-dir', 'y'], []]) {
      const { err, io: cli } = io();
      expect(await run(argv, cli)).toBe(2);
      expect(err.join('')).not.toMatch(/\n\s+at /);
    }
  });
});
