import fc from 'fast-check';
import { APP_NAMES, appArb, LONG_APP_NAMES, SOURCE_REPOS, standardsArb } from './app-generators';
import { clean, fleetArb, maybe, pipelineArb } from './generators';
import { AppSpec, CheckSpec, ReqSpec, SelSpec, SourceSpec, WavesSpec, WorldSpec } from './model';
import { PlatformLabels } from '../../src';
import { CREDENTIAL_SHAPES } from '../support/credentials';

// ----- defects: each makes the definition invalid (or at least suspicious) in one place

/** Mutates a copy of the world; `n` picks where. */
export const DEFECTS: Record<string, (w: WorldSpec, n: number) => void> = {
  'cluster name': (w, n) => { pick(w.fleet.clusters, n).name = ['Bad_Name', '', '-lead', 'a'.repeat(64), 'has.dot'][n % 5]; },
  'duplicate cluster name': (w, n) => { if (w.fleet.clusters.length > 1) pick(w.fleet.clusters, n + 1).name = w.fleet.clusters[0].name; },
  'duplicate server': (w, n) => { if (w.fleet.clusters.length > 1) pick(w.fleet.clusters.slice(1), n).server = `${w.fleet.clusters[0].server}/`; },
  'server': (w, n) => { pick(w.fleet.clusters, n).server = ['http://plain.example.com', 'https://user:pw@x.example.com', 'not a url', ''][n % 4]; },
  'region': (w, n) => { pick(w.fleet.clusters, n).region = ['us east', 'x'.repeat(64), ''][n % 3]; },
  'tier': (w, n) => { pick(w.fleet.clusters, n).tier = ['Bad Tier', ''][n % 2]; },
  'accelerator': (w, n) => { pick(w.fleet.clusters, n).accelerator = ['GPU!', ''][n % 2]; },
  'accelerator count': (w, n) => { const c = pick(w.fleet.clusters, n); c.accelerator = 'none'; c.acceleratorCount = [4, -1, 1.5][n % 3]; },
  'kubernetes version': (w, n) => { pick(w.fleet.clusters, n).kubernetesVersion = ['latest', '1', ''][n % 3]; },
  'label': (w, n) => {
    const c = pick(w.fleet.clusters, n);
    c.labels = { ...c.labels, ...[{ ring: 'not valid!' }, { 'bad key!': 'x' }, { [`${PlatformLabels.PREFIX}/tier`]: 'prod' }, { '': 'x' }][n % 4] };
  },
  'missing auth': (w, n) => { const c = pick(w.fleet.clusters, n); c.provider = 'on-prem'; delete c.auth; delete c.argoCd; delete w.fleet.topology; },
  'auth': (w, n) => {
    pick(w.fleet.clusters, n).auth = [{ k: 'exec' as const, command: '' }, { k: 'exec' as const, command: 'x', env: { API_TOKEN: 'abc' } },
      { k: 'eks' as const, roleArn: 'arn:bad' }][n % 3];
  },
  'ca data': (w, n) => { const c = pick(w.fleet.clusters, n); c.caData = 'not base64!'; c.auth = c.auth ?? { k: 'gke' }; },
  'kargo shard': (w, n) => {
    const c = pick(w.fleet.clusters, n);
    c.argoCd = { k: 'per-cluster', kargoShard: 'Bad Shard' };
    if (n % 2 === 0 && w.fleet.clusters.length > 1) { c.argoCd = { k: 'per-cluster', kargoShard: 'shared' }; pick(w.fleet.clusters, n + 1).argoCd = { k: 'per-cluster', kargoShard: 'shared' }; }
  },
  'controller shard': (w, n) => { w.fleet.shards = [0, 2, 1.5][n % 3]; const c = pick(w.fleet.clusters, n); c.argoCd = { k: 'central' }; c.shard = 7; },
  'fleet name': (w, n) => { w.fleet.fleetName = ['Fleet One', 'x'.repeat(64)][n % 2]; },
  'late cluster': w => { w.fleet.late = { ...w.fleet.clusters[0], name: 'late-cluster', server: 'https://late.k8s.example.com' }; },
  'stage name': (w, n) => { pick(pick(w.pipelines, n).stages, n).name = ['Prod_EU', '', 'x'.repeat(64)][n % 3]; },
  'duplicate stage': (w, n) => { const p = pick(w.pipelines, n); if (p.stages.length > 1) p.stages[1].name = p.stages[0].name; },
  'overlapping stages': (w, n) => { const p = pick(w.pipelines, n); if (p.stages.length > 1) pick(p.stages, n).sel = { k: 'all' }; },
  'stage namespace': (w, n) => {
    const stage = pick(pick(w.pipelines, n).stages, n);
    if (stage.sel !== undefined) stage.ns = ['{ap}-{stage}', '{app}_{stage}', '{cluster}', `{app}-${'x'.repeat(60)}`][n % 4];
  },
  'shared stage namespace': (w, n) => {
    // a second stage on the first stage's clusters, in the same namespace
    const p = pick(w.pipelines, n);
    const first = p.stages[0];
    // with the soak of the stages that already follow the first one, which it joins
    const soakMs = p.stages[1]?.soakMs;
    if (first.sel !== undefined) p.stages.splice(1, 0, { name: 'same-ns', sel: first.sel, after: [first.name], ns: first.ns, ...soakMs === undefined ? {} : { soakMs } });
  },
  'stage without clusters': (w, n) => { pick(w.pipelines, n).stages.push({ name: 'orphan', sel: { k: 'labels', v: { role: 'nothing' } } }); },
  'no stages': (w, n) => { pick(w.pipelines, n).stages = []; },
  'waves': (w, n) => {
    pick(pick(w.pipelines, n).stages, n).waves = [{ k: 'count', n: 0 }, { k: 'count', n: 2.5 }, { k: 'pct', p: [50, 10, 100] }, { k: 'pct', p: [10, 50] },
      { k: 'pct', p: [] }, { k: 'label', key: 'ring', values: ['canary', 'canary'] }, { k: 'label', key: 'ring', values: [] },
      { k: 'label', key: 'zone', values: ['a'] }][n % 8] as WavesSpec;
  },
  'wave budget': (w, n) => {
    const p = pick(w.pipelines, n);
    const budget = [{ maxClusters: 0 }, { maxClusters: 1.5 }, { maxPercent: 0 }, { maxPercent: 150 }, { maxClusters: 1 }, { maxPercent: 10 }][n % 6];
    if (n % 2 === 0) p.budget = budget;
    else pick(p.stages, n).budget = budget;
  },
  'soak': (w, n) => { pick(pick(w.pipelines, n).stages, n).soakMs = [1500, 0, 500][n % 3]; },
  // Freight never soaks in a control-flow Stage: the stage after a gate cannot ask for a soak
  'soak after a gate': (w, n) => {
    const p = pick(w.pipelines, n);
    const gate = p.stages.findIndex(s => s.sel === undefined);
    if (gate >= 0 && gate + 1 < p.stages.length) p.stages[gate + 1].soakMs = 3_600_000;
  },
  // one upstream waits one soak in its checks: two stages after it must ask for the same
  'different soaks after one stage': (w, n) => {
    const p = pick(w.pipelines, n);
    const sibling = p.stages.findIndex((s, i) => i > 1 && s.after?.length === 1 && s.after[0] === p.stages[i - 2].name);
    if (sibling > 0) p.stages[sibling].soakMs = (p.stages[sibling - 1].soakMs ?? 0) + 60_000;
  },
  'selector': (w, n) => {
    pick(pick(w.pipelines, n).stages, n).sel = [{ k: 'expr', key: 'bad key!', op: 'Exists' }, { k: 'expr', key: 'ring', op: 'In' },
      { k: 'expr', key: 'ring', op: 'Exists', values: ['x'] }, { k: 'expr', key: 'ring', op: 'Near', values: ['x'] }, { k: 'tier', v: [] },
      { k: 'labels', v: { ring: 'bad value!' } }][n % 6] as SelSpec;
  },
  'promoters': (w, n) => { pick(pick(w.pipelines, n).stages, n).approval = { k: 'manual', promoters: [['has space'], [''], ['a,b']][n % 3] }; },
  'stage check': (w, n) => { const s = pick(pick(w.pipelines, n).stages, n); s.checks = [...s.checks ?? [], badCheck(n)]; },
  'app name': (w, n) => { pick(w.apps, n).appName = ['Bad_App', 'x'.repeat(64), ''][n % 3]; },
  'duplicate app name': w => { if (w.apps.length > 1) w.apps[1].appName = w.apps[0].appName ?? w.apps[0].id; },
  'chart id collision': (w, n) => {
    // another app whose chart id is the id of a per-cluster chart of the first app (<app>--<cluster>)
    const c = pick(w.fleet.clusters, n);
    c.argoCd = { k: 'per-cluster' };
    const first = w.apps[0];
    const second = { ...(w.apps[1] ?? first), id: `${first.appName ?? first.id}--${c.name}`, appName: n % 2 === 0 ? undefined : 'other' };
    w.apps = n % 3 === 0 ? [second, first] : [first, second];
  },
  'long app name': (w, n) => { const a = pick(w.apps, n); a.id = pick(LONG_APP_NAMES, n); delete a.appName; },
  'namespace': (w, n) => { pick(w.apps, n).namespace = ['a.b', 'Apps', ''][n % 3]; },
  'owner': (w, n) => {
    const a = pick(w.apps, n);
    a.owner = [{ ...a.owner, team: 'bad team!' }, { ...a.owner, contact: ' ' }, { ...a.owner, groups: ['has space'] }, { ...a.owner, groups: [] }][n % 4];
  },
  'no artifacts': (w, n) => { pick(w.apps, n).artifacts = []; },
  'duplicate artifact': (w, n) => { const a = pick(w.apps, n); if (a.artifacts.length > 0) a.artifacts = [...a.artifacts, a.artifacts[0]]; },
  'image': (w, n) => {
    const a = pick(w.apps, n);
    a.artifacts = [...a.artifacts, { k: 'image', repo: ['ghcr.io/acme/api:1.0', 'https://ghcr.io/acme/x', 'ghcr.io/Acme/y', 'ghcr.io//z', 'ghcr.io/acme/w@sha256:abc'][n % 5] }];
  },
  'image options': (w, n) => {
    const a = pick(w.apps, n);
    const options = [{ versioning: { k: 'semver' as const, range: ['^1.x.y.z', 'foo', '1.2.3 ||', '>=<1'][n % 4] } }, { versioning: { k: 'digest' as const, tag: ['', 'bad tag'][n % 2] } },
      { allowTags: [['(unclosed', '(?=x)y', '(a)\\1', '[z-a]'][n % 4]] }, { platform: 'amd64' }, { helmValuesKey: '1bad' }, { discoveryLimit: [0, 101][n % 2] },
      { creds: { k: 'managed' as const, source: ' ' } }][n % 7];
    a.artifacts = [...a.artifacts, { k: 'image', repo: 'ghcr.io/acme/defect', ...options }];
  },
  'chart': (w, n) => {
    const a = pick(w.apps, n);
    a.artifacts = [...a.artifacts, [{ k: 'chart' as const, repo: 'https://charts.example.com/x' }, { k: 'chart' as const, repo: 'oci://ghcr.io/acme/charts/x', name: 'x' },
      { k: 'chart' as const, repo: 'ftp://charts.example.com', name: 'x' }, { k: 'chart' as const, repo: 'oci://ghcr.io/acme/charts/y', semver: '^1.x.y.z' }][n % 4]];
  },
  'git': (w, n) => {
    const a = pick(w.apps, n);
    a.artifacts = [...a.artifacts, [{ k: 'git' as const, repo: 'git@github.com:acme/x.git' }, { k: 'git' as const, repo: 'https://github.com/acme/y', branch: 'bad branch' },
      { k: 'git' as const, repo: 'https://github.com/acme/z', selection: 'SemVer', branch: 'main' }, { k: 'git' as const, repo: 'https://github.com/acme/v', includePaths: ['regex:('] },
      { k: 'git' as const, repo: a.source.repo, branch: 'other' }][n % 5]];
  },
  'source': (w, n) => {
    const a = pick(w.apps, n);
    a.source = [{ k: 'helm' as const, repo: 'ssh://git@github.com/acme/api.git', path: 'chart' }, { k: 'helm' as const, repo: SOURCE_REPOS[0], path: ['../chart', '/abs', 'charts/{stage}', ''][n % 4] },
      { k: 'helm' as const, repo: SOURCE_REPOS[0], path: 'chart', valuesFiles: ['values-{env}.yaml'] }, { k: 'helm' as const, repo: SOURCE_REPOS[0], path: 'chart', branch: 'bad branch' },
      { k: 'helm' as const, repo: SOURCE_REPOS[0], path: 'chart', releaseName: 'Bad_Release' }, { k: 'kustomize' as const, repo: SOURCE_REPOS[1], basePath: 'deploy/{stage}', overlayPath: 'deploy/../x' }][n % 6];
  },
  'release repo': (w, n) => { pick(w.apps, n).releaseRepo = ['git@github.com:acme/releases.git', 'https://github.com/', 'ftp://x.example.com/r.git', ''][n % 4]; },
  'release credentials': (w, n) => { const a = pick(w.apps, n); a.releaseCreds = { k: 'managed', source: '' }; a.releaseRepo = a.source.repo; a.source = { ...a.source, creds: { k: 'wi' } } as SourceSpec; },
  'random targets': (w, n) => { pick(w.apps, n).targets = [{ k: 'accelerator', v: ['google-tpu'] }, { k: 'labels', v: { zone: 'b' } }, { k: 'expr', key: 'ring', op: 'DoesNotExist' }][n % 3] as SelSpec; },
  'unmet requirement': (w, n) => { pick(w.apps, n).requires = [[{ k: 'minAcc', n: 1000 }, { k: 'k8s', v: '1.99' }, { k: 'k8s', v: 'x' }, { k: 'acc', v: [] }, { k: 'minAcc', n: 0 }][n % 5] as ReqSpec]; },
  'app check': (w, n) => { const a = pick(w.apps, n); a.checks = [...a.checks ?? [], badCheck(n)]; },
  'duplicate check': (w, n) => { const a = pick(w.apps, n); const c = { k: 'http' as const, name: 'dup', url: 'https://x.example.com' }; a.checks = [c, c]; },
  'stage checks': (w, n) => { pick(w.apps, n).stageChecks = { nope: [{ k: 'http', url: 'https://x.example.com' }] }; },
  'exemption': (w, n) => {
    pick(w.apps, n).exemptions = [[{ ruleId: 'Bad Rule', justification: 'agreed with the platform team' }], [{ ruleId: 'prod-gate', justification: 'short' }],
      [{ ruleId: 'no-such-rule', justification: 'agreed with the platform team' }]][n % 3];
  },
  'cluster resource': (w, n) => { pick(w.apps, n).clusterResources = [[{ group: 'Bad', kind: 'crd' }], [{ group: '', kind: 'Namespace' }]][n % 2]; },
  // a credential pasted into a free-text field: refused, and never shown (test/support/credentials.ts)
  'credential': (w, n) => {
    const shape = pick(CREDENTIAL_SHAPES, n);
    const place = Math.floor(n / CREDENTIAL_SHAPES.length) % 6;
    const a = pick(w.apps, n);
    const c = pick(w.fleet.clusters, n);
    if (place === 0) a.owner = { ...a.owner, contact: `#oncall ${shape.text}` };
    else if (place === 1) a.exemptions = [{ ruleId: 'prod-gate', justification: `agreed with the platform team, see ${shape.text}` }];
    else if (place === 2) a.releaseCreds = { k: 'managed', source: shape.text };
    else if (place === 3) c.labels = { ...c.labels, note: shape.text };
    else if (place === 4) a.checks = [...a.checks ?? [], { k: 'http', url: 'https://x.example.com', headers: { 'X-Note': shape.text } }];
    else c.auth = { k: 'exec', command: 'argocd-k8s-auth', args: ['--token', shape.text] };
  },
  'standards': (w, n) => {
    w.standards = [{ warnings: false, maxWavePercent: 0 }, { warnings: false, disabledRules: ['no-such-rule'] }, { warnings: false },
      { warnings: false, allowedRegistries: ['quay.io'] }][n % 4];
  },
};

export function pick<T>(list: T[], n: number): T {
  return list[n % list.length];
}

export function badCheck(n: number): CheckSpec {
  return [
    { k: 'http', url: 'ftp://x.example.com' }, { k: 'http', url: 'https://{bogus}.example.com' }, { k: 'http', url: 'https://x/{{ .cluster }}' },
    { k: 'http', url: 'https://x.example.com', jsonPath: '{$.status}' }, { k: 'http', url: 'https://x.example.com', headers: { Authorization: 'Bearer abcdefghijkl' } },
    { k: 'http', url: 'https://x.example.com', count: 1, failureLimit: 1 }, { k: 'http', name: 'Bad Name', url: 'https://x.example.com' },
    { k: 'http', url: 'https://x.example.com/{{args.missing}}' }, { k: 'http', url: 'https://x.example.com', intervalMs: 1500, count: 2 },
    { k: 'prometheus', address: 'https://p.example.com', query: '' }, { k: 'prometheus', address: 'https://p.example.com', query: 'up' },
    { k: 'prometheus', address: 'https://p.example.com', query: 'up', threshold: 1, comparison: '<', condition: 'true' },
    { k: 'job', image: 'bad image' }, { k: 'job', image: 'x', env: { PASSWORD: 'hunter2' } },
    { k: 'template', name: 'Bad_Template' }, { k: 'template', name: 't', args: { s: { k: 'secret', name: 's', key: 'k' } } },
    { k: 'http', url: 'https://x.example.com/{{args.v}}', args: { v: { k: 'value', text: '{cluster}' } } },
    { k: 'http', url: 'https://x.example.com/{{args.v}}', args: { v: { k: 'expr', text: 'outputs.x' } } },
    { k: 'http', name: 'x'.repeat(63), url: 'https://x.example.com' },
  ][n % 19] as CheckSpec;
}

/**
 * A check arg that reads the Freight (imageTag, commit) must name an artifact every app running
 * the check subscribes to (synth refuses it otherwise): app checks read the app's first image or
 * its source; pipeline checks, shared by apps with different artifacts, fall back to text.
 */
function readArtifactsTheAppsHave(world: WorldSpec): void {
  const image = (a: AppSpec) => a.artifacts.find(x => x.k === 'image')?.repo;
  const rewrite = (checks: CheckSpec[] | undefined, apps: AppSpec[]) => checks?.forEach(check => {
    for (const [name, arg] of Object.entries(check.args ?? {})) {
      if (arg.k === 'imageTag') {
        const repos = new Set(apps.map(image));
        check.args![name] = repos.size === 1 && [...repos][0] !== undefined ? { k: 'imageTag', repo: [...repos][0]! } : { k: 'value', text: 'v1' };
      } else if (arg.k === 'commit') {
        const repos = new Set(apps.map(a => a.source.repo));
        check.args![name] = repos.size === 1 ? { k: 'commit', url: [...repos][0] } : { k: 'value', text: 'v1' };
      }
    }
  });
  world.pipelines.forEach((p, i) => p.stages.forEach(s => rewrite(s.checks, world.apps.filter(a => a.pipeline === i))));
  for (const app of world.apps) {
    rewrite(app.checks, [app]);
    Object.values(app.stageChecks ?? {}).forEach(list => rewrite(list, [app]));
  }
}

export const worldArb: fc.Arbitrary<WorldSpec> = fleetArb.chain(fleet => fc.integer({ min: 1, max: 2 }).chain(n =>
  fc.tuple(...Array.from({ length: n }, (_, i) => pipelineArb(fleet.clusters, i === 0 ? 'standard' : `pipeline-${i + 1}`, `p${i + 1}`)))).chain(pipelines =>
  fc.record({
    standards: standardsArb,
    apps: fc.shuffledSubarray(APP_NAMES, { minLength: 1, maxLength: 3 }).chain(ids => fc.tuple(...ids.map(id => appArb(id, pipelines)))),
    defect: maybe(fc.tuple(fc.constantFrom(...Object.keys(DEFECTS)), fc.nat()), 3),
  }).map(({ standards, apps, defect }) => {
    const world: WorldSpec = clean({ fleet, pipelines: pipelines.map(p => p.pipeline), standards, apps, defect: defect?.[0] });
    readArtifactsTheAppsHave(world);
    if (defect) DEFECTS[defect[0]](world, defect[1]);
    return clean(world);
  })));
