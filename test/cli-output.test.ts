import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { afterAll, describe, expect, test } from 'vitest';
import { API, AppSpec, ARGO, CLUSTERS, prod, range, recordingIo, tree, WEB, withProdWaves, writeTree } from './cli-fixtures';
import {
  activeFreezes, changeRules, checkChange, COMMENT_LIMIT, COMMENT_MARKER, diffTrees, ManifestSet, renderComment, renderPlan, riskFlags, run,
  touchedClusters,
} from '../src/cli';
import { PLAN, VALIDATE } from '../src/cli/cli-flags';
import { Progress } from '../src/cli/progress';

const ROOT = path.join(__dirname, '..');
const temps: string[] = [];
afterAll(() => temps.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));
function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gitops-platform-output-test-'));
  temps.push(dir);
  return dir;
}
const version = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).version;

describe('--help and --version', () => {
  test('each command documents every option and exits 0', async () => {
    for (const [argv, spec] of [[['plan', '--help'], PLAN], [['plan', '-h'], PLAN], [['validate', '--help'], VALIDATE], [['help', 'plan'], PLAN]] as const) {
      const { out, err, io } = recordingIo(ROOT);
      expect(await run([...argv], io)).toBe(0);
      const usage = out.join('');
      expect(err).toEqual([]);
      expect(usage).toMatch(new RegExp(`^usage:\n  cdk8s-gitops-platform ${spec.name} `));
      for (const flag of spec.flags) expect(usage).toContain(`--${flag.name}${flag.value ? ` <${flag.value}>` : ''}  `);
      expect(usage).toContain('exit codes with --detailed-exitcode');
    }
    const { out, io } = recordingIo(ROOT);
    await run(['plan', '--help'], io);
    for (const flag of ['--config <file>', '--now <iso time>', '--max-wave-growth <n>', '--json', '--comment', '--report <file>', '--quiet']) expect(out.join('')).toContain(flag);
  });

  test('--version and version print the package version', async () => {
    for (const argv of [['--version'], ['version']]) {
      const { out, io } = recordingIo(ROOT);
      expect(await run(argv, io)).toBe(0);
      expect(out.join('')).toBe(`${version}\n`);
    }
  });

  test('fails if an option is unknown: names the command\'s --help', async () => {
    const { err, io } = recordingIo(ROOT);
    expect(await run(['validate', '--frobnicate'], io)).toBe(2);
    expect(err.join('')).toBe('error: unknown option --frobnicate for validate; `cdk8s-gitops-platform validate --help` lists them\n');
  });
});

describe('exit codes', () => {
  const dirs = tempDir();
  const base = writeTree(path.join(dirs, 'base'), tree({ api: API, web: WEB }));
  const changed = writeTree(path.join(dirs, 'changed'), tree({ api: withProdWaves(prod(1), prod(2, 3), prod(4, 5, 6, 7, 8)), web: WEB }));
  const broken = writeTree(path.join(dirs, 'broken'), tree({ api: withProdWaves(prod(1), prod(2, 3), prod(...range(4, 13))), web: WEB }));
  const code = async (...argv: string[]) => run(['plan', ...argv], recordingIo(ROOT).io);

  test('default: 0 unless a standard is broken (1), 2 for a usage error', async () => {
    expect(await code('--base-dir', base, '--head-dir', base)).toBe(0);
    expect(await code('--base-dir', base, '--head-dir', changed)).toBe(0);
    expect(await code('--base-dir', base, '--head-dir', broken)).toBe(1);
    expect(await code('--base-dir', base)).toBe(2);
  });

  test('--detailed-exitcode: terraform\'s 0 no changes, 1 error or broken standard, 2 changes', async () => {
    expect(await code('--detailed-exitcode', '--base-dir', base, '--head-dir', base)).toBe(0);
    expect(await code('--detailed-exitcode', '--base-dir', base, '--head-dir', changed)).toBe(2);
    expect(await code('--detailed-exitcode', '--base-dir', base, '--head-dir', broken)).toBe(1);
    expect(await code('--detailed-exitcode', '--base-dir', base)).toBe(1);
  });
});

function ajv() {
  const a = new Ajv({ allErrors: true, strict: true });
  addFormats(a);
  return a;
}

describe('--json', () => {
  test('plan: real output validates against src/cli/plan-output.schema.json', async () => {
    const dirs = tempDir();
    const freeze = [{ kind: 'deny', schedule: '0 18 * * fri', duration: '63h', clusters: ['prod-*'], description: 'weekend' }];
    const before = tree({ api: { ...API, syncWindows: freeze }, web: WEB });
    const after = tree({ api: { ...withProdWaves(prod(1), prod(2, 3), prod(...range(4, 13))), syncWindows: freeze } }, { ...CLUSTERS, 'prod-99': 'prod' });
    const { out, io } = recordingIo(ROOT);
    expect(await run(['plan', '--json', '--now', '2026-12-05T12:00:00Z', '--base-dir', writeTree(path.join(dirs, 'b'), before), '--head-dir', writeTree(path.join(dirs, 'h'), after)], io)).toBe(1);
    const output = JSON.parse(out.join(''));
    const validateSchema = ajv().compile(JSON.parse(fs.readFileSync(path.join(ROOT, 'src/cli/plan-output.schema.json'), 'utf8')));
    expect(validateSchema.errors ?? [], JSON.stringify(validateSchema.errors)).toEqual([]);
    expect(validateSchema(output), JSON.stringify(validateSchema.errors)).toBe(true);
    expect(output.schemaVersion).toBe(1);
    expect(output.apps.map((a: any) => [a.name, a.status])).toEqual([['api', 'changed'], ['web', 'removed']]);
    expect(output.rules.map((r: any) => [r.id, r.passed])).toEqual([['max-production-wave-growth', false], ['no-production-change-during-freeze', false]]);
    const appSet = output.apps[0].objects.changed.find((c: any) => c.key.endsWith('ApplicationSet argocd/api-prod-w3'));
    expect(appSet.fields[0]).toMatchObject({ path: '/spec/generators/0/clusters/selector/matchExpressions/0/values', before: prod(4, 5, 6, 7) });
    expect(output.fleet.clustersAdded).toEqual(['prod-99']);
    expect(output.risks.map((r: any) => r.code)).toContain('delete');
    expect(output.freezes).toEqual([{ app: 'api', stages: ['prod'], window: '"0 18 * * fri" for 63h – weekend', start: '2026-12-04T18:00:00.000Z', end: '2026-12-07T09:00:00.000Z', manualSync: false }]);
  });

  test('validate: real output validates against src/cli/validate-output.schema.json', async () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, 'a.k8s.yaml'), 'apiVersion: kargo.akuity.io/v1alpha1\nkind: Warehouse\nmetadata:\n  name: api\n  namespace: api\nspec:\n  subscriptions: []\n  colour: blue\n');
    const { out, io } = recordingIo(ROOT);
    expect(await run(['validate', '--json', dir], io)).toBe(1);
    const output = JSON.parse(out.join(''));
    const validateSchema = ajv().compile(JSON.parse(fs.readFileSync(path.join(ROOT, 'src/cli/validate-output.schema.json'), 'utf8')));
    expect(validateSchema(output), JSON.stringify(validateSchema.errors)).toBe(true);
    expect(output.errors).toBeGreaterThan(0);
    expect(output.issues[0]).toMatchObject({ kind: 'Warehouse', severity: 'error' });
  }, 60_000);
});

describe('risk flags', () => {
  const appSetKey = (app: string, wave: string) => `${ARGO} ApplicationSet argocd/${app}-${wave}`;

  test('a removed app: its ApplicationSets, AppProject and Kargo objects are deletes that say what Argo CD does', () => {
    const change = diffTrees(tree({ api: API, web: WEB }), tree({ web: WEB }));
    const risks = riskFlags(change);
    const appSet = risks.find((r) => r.objects[0] === appSetKey('api', 'prod-w1'))!;
    expect(appSet).toMatchObject({ code: 'delete', app: 'api' });
    expect(appSet.message).toBe(`${appSetKey('api', 'prod-w1')} is deleted: Kubernetes deletes its Applications (owner reference) and, without preserveResourcesOnDeletion, Argo CD deletes every resource they deployed`);
    expect(risks.find((r) => r.objects[0] === `${ARGO} AppProject argocd/api`)!.message)
      .toContain('Argo CD deletes it at once; Applications still in project "api" report "Application referencing project … which does not exist" and stop syncing');
  });

  test('preserveResourcesOnDeletion, cluster Secrets, delete-and-recreate, template renames, production and wide changes', () => {
    const preserve = (set: ManifestSet) => ManifestSet.fromObjects(set.objects.map((o) => (o.obj.kind === 'ApplicationSet'
      ? { file: o.file, obj: { ...o.obj, spec: { ...o.obj.spec, syncPolicy: { preserveResourcesOnDeletion: true } } } } : o)));
    const removed = riskFlags(diffTrees(preserve(tree({ api: API })), tree({})));
    expect(removed.find((r) => r.objects[0] === appSetKey('api', 'dev'))!.message).toContain('preserveResourcesOnDeletion is set, so they have no resources finalizer and the deployed resources stay, unmanaged');

    const { 'prod-20': _gone, ...fewer } = CLUSTERS;
    const fleetRisks = riskFlags(diffTrees(tree({}), tree({}, fewer)));
    expect(fleetRisks).toEqual([{ code: 'delete', app: 'fleet', objects: ['v1 Secret argocd/cluster-prod-20'], message: expect.stringContaining('Argo CD forgets the cluster') }]);

    // the same Namespace/name under another key: deleted, then created again
    const moved = ManifestSet.fromObjects(tree({ api: API }).objects.map((o) => (o.obj.kind === 'Warehouse' ? { file: o.file, obj: { ...o.obj, metadata: { ...o.obj.metadata, namespace: 'api-new' } } } : o)));
    expect(riskFlags(diffTrees(tree({ api: API }), moved)).filter((r) => r.code === 'delete-and-recreate').map((r) => r.objects))
      .toEqual([['kargo.akuity.io/v1alpha1 Warehouse api/api', 'kargo.akuity.io/v1alpha1 Warehouse api-new/api']]);

    const renamed = ManifestSet.fromObjects(tree({ api: API }).objects.map((o) => (o.obj.kind === 'ApplicationSet' && o.obj.metadata.name === 'api-dev'
      ? { file: o.file, obj: { ...o.obj, spec: { ...o.obj.spec, template: { ...o.obj.spec.template, metadata: { name: 'api-v2-{{ .name }}' } } } } } : o)));
    expect(riskFlags(diffTrees(tree({ api: API }), renamed)).map((r) => [r.code, r.objects])).toEqual([['recreates-applications', [appSetKey('api', 'dev')]]]);

    const grown = diffTrees(tree({ api: API }), tree({ api: withProdWaves(prod(1), prod(2, 3), prod(...range(4, 15))) }));
    expect(touchedClusters(grown)).toEqual(prod(...range(4, 15)).sort());
    expect(riskFlags(grown).map((r) => [r.code, r.message])).toEqual([
      ['production', 'changes production: 0 added, 1 changed, 0 removed object(s), stage prod'],
      ['wide-change', 'touches 12 clusters, more than 10'],
    ]);
    expect(riskFlags(grown, { maxClusters: 12 }).map((r) => r.code)).toEqual(['production']);

    // prod-2 moves from w2 to w1, prod-4…7 from the removed w3 to w2
    const regrouped = riskFlags(diffTrees(tree({ api: API }), tree({ api: withProdWaves(prod(1, 2), prod(3, 4, 5, 6, 7)) })));
    expect(regrouped.filter((r) => r.code === 'recreates-applications').map((r) => r.message)).toEqual([
      '5 Application(s) change ApplicationSet (argocd/api-prod-2, argocd/api-prod-4, argocd/api-prod-5, argocd/api-prod-6, argocd/api-prod-7): '
      + 'the old ApplicationSet deletes them and the new one creates them again',
    ]);
    // one ApplicationSet per app (the library's shape): the same moves change the Applications in place
    const regroupedFamily: AppSpec = { ...withProdWaves(prod(1, 2), prod(3, 4, 5, 6, 7)), family: true };
    const inPlace = riskFlags(diffTrees(tree({ api: { ...API, family: true } }), tree({ api: regroupedFamily })));
    expect(inPlace.filter((r) => r.code === 'recreates-applications')).toEqual([]);
  });
});

describe('Markdown that survives any user text', () => {
  const weird = 'a|b\n`c` <script>';
  const spec = (description: string): AppSpec => ({ ...API, syncWindows: [{ kind: 'deny', schedule: '0 18 * * fri', duration: '63h', clusters: ['prod-*'], description }] });

  test('|, newlines, backticks and < > in names and descriptions are escaped', async () => {
    const dirs = tempDir();
    const { out, io } = recordingIo(ROOT);
    await run(['plan', '--now', '2026-12-05T12:00:00Z', '--base-dir', writeTree(path.join(dirs, 'b'), tree({ api: spec(weird) })),
      '--head-dir', writeTree(path.join(dirs, 'h'), tree({ api: { ...spec(weird), stages: [API.stages[0], { ...API.stages[1], soak: '2h' }] } }))], io);
    const text = out.join('');
    expect(text).toContain('frozen by "0 18 * * fri" for 63h – a\\|b \\`c\\` &lt;script&gt; until');
    expect(text).not.toContain('<script>');
  });

  test('each freeze once, though every AppProject of the app carries it', () => {
    // the central AppProject and a cluster's own AppProject: the same window, other applications
    const withCopy = (set: ManifestSet) => ManifestSet.fromObjects([...set.objects, ...set.objects.filter((o) => o.obj.kind === 'AppProject').map((o) => ({
      file: 'api--prod-1.k8s.yaml', obj: { ...o.obj, spec: { ...o.obj.spec, syncWindows: o.obj.spec.syncWindows.map((w: any) => ({ ...w, applications: ['api-prod-1'] })) } },
    }))]);
    const before = withCopy(tree({ api: spec('weekend') }));
    const after = withCopy(tree({ api: { ...spec('weekend'), stages: [API.stages[0], { ...API.stages[1], soak: '2h' }] } }));
    const markdown = renderPlan(diffTrees(before, after), [], 'main', activeFreezes(diffTrees(before, after), new Date('2026-12-05T12:00:00Z')));
    expect(markdown.split('\n').filter((l) => l.includes('frozen by'))).toEqual(['- api: `prod` frozen by "0 18 * * fri" for 63h – weekend until 2026-12-07T09:00:00.000Z']);
    expect(checkChange(diffTrees(before, after), changeRules(), { now: new Date('2026-12-05T12:00:00Z') }).map((v) => v.ruleId)).toEqual(['no-production-change-during-freeze']);
  });

  test('--comment: the sticky marker first, at most 65,536 characters, the summary kept and the full report pointed to', async () => {
    const many: Record<string, AppSpec> = {};
    for (let i = 0; i < 60; i++) many[`app-${String(i).padStart(2, '0')}`] = API;
    const grown: Record<string, AppSpec> = {};
    for (const name of Object.keys(many)) grown[name] = withProdWaves(prod(1), prod(2, 3), prod(...range(4, 20)));
    const change = diffTrees(tree(many), tree(grown));
    const full = renderPlan(change, [], 'main');
    const comment = renderComment(change, [], 'main', [], { reportFile: 'plan.md' });
    expect(full.length).toBeLessThan(COMMENT_LIMIT);
    expect(comment).toBe(`${COMMENT_MARKER}\n${full}`);
    // with the per-object field lists the whole plan no longer fits
    const big: Record<string, AppSpec> = {};
    for (let i = 0; i < 400; i++) big[`app-${String(i).padStart(3, '0')}`] = API;
    const bigGrown: Record<string, AppSpec> = {};
    for (const name of Object.keys(big)) bigGrown[name] = withProdWaves(prod(1), prod(2, 3), prod(...range(4, 20)));
    const bigChange = diffTrees(tree(big), tree(bigGrown));
    const cut = renderComment(bigChange, [], 'main', [], { reportFile: 'plan.md' });
    expect(renderPlan(bigChange, [], 'main').length).toBeGreaterThan(COMMENT_LIMIT);
    expect(cut.length).toBeLessThanOrEqual(COMMENT_LIMIT);
    expect(cut.startsWith(`${COMMENT_MARKER}\n## Release plan against \`main\``)).toBe(true);
    expect(cut).toContain('- **app-399: ');
    expect(cut).toMatch(/_The details of 400 apps do not fit into a comment \(\d+ characters, at most 65536\): the full report is in `plan\.md`\._\n$/);
  }, 60_000);

  test('--report writes the full Markdown; more than 10 unaffected apps are counted', async () => {
    const dirs = tempDir();
    const apps: Record<string, AppSpec> = { api: API };
    for (let i = 0; i < 15; i++) apps[`quiet-${String(i).padStart(2, '0')}`] = WEB;
    const report = path.join(dirs, 'plan.md');
    const { out, io } = recordingIo(ROOT);
    await run(['plan', '--comment', '--report', report, '--base-dir', writeTree(path.join(dirs, 'b'), tree(apps)),
      '--head-dir', writeTree(path.join(dirs, 'h'), tree({ ...apps, api: { ...API, stages: [{ ...API.stages[0], auto: false }, API.stages[1]] } }))], io);
    expect(out.join('')).toBe(`${COMMENT_MARKER}\n${fs.readFileSync(report, 'utf8')}`);
    expect(out.join('')).toContain('Unaffected: quiet-00, quiet-01, quiet-02, quiet-03, quiet-04, quiet-05, quiet-06, quiet-07, quiet-08, quiet-09 and 5 more unaffected; the fleet is unchanged.');
  });
});

describe('validate severities and unchecked kinds', () => {
  const deployment = 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n  namespace: web\nspec: {}\n---\napiVersion: v1\nkind: Service\nmetadata:\n  name: web\n  namespace: web\n';
  const custom = 'apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w\n';

  test('core Kubernetes kinds are unchecked, never errors', async () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, 'web.yaml'), deployment);
    const { out, err, io } = recordingIo(ROOT);
    expect(await run(['validate', dir], io)).toBe(0);
    expect(out).toEqual([]);
    expect(err.join('')).toBe(`no problems below ${path.relative(ROOT, dir)}; unchecked: 1 Deployment, 1 Service\n`);
  }, 60_000);

  test('fails if a custom resource has no schema, unless --ignore-missing-schemas or --skip-kind', async () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, 'w.yaml'), custom);
    const rel = path.relative(ROOT, dir);
    const strict = recordingIo(ROOT);
    expect(await run(['validate', dir], strict.io)).toBe(1);
    expect(strict.out.join('')).toBe(`${rel}/w.yaml Widget/w /: no pinned schema for example.com/v1/Widget\n`);
    const ignored = recordingIo(ROOT);
    expect(await run(['validate', '--ignore-missing-schemas', dir], ignored.io)).toBe(0);
    expect(ignored.err.join('')).toBe(`no problems below ${rel}; unchecked: 1 Widget\n`);
    const skipped = recordingIo(ROOT);
    expect(await run(['validate', '--skip-kind', 'Widget', dir], skipped.io)).toBe(0);
    expect(skipped.err.join('')).toBe(`no problems below ${rel}; unchecked: 1 Widget\n`);
  }, 60_000);
});

describe('progress', () => {
  const slow = () => new Promise<string>((resolve) => setTimeout(() => resolve('done'), 1300));

  test('on a terminal, a step longer than a second shows its label and elapsed time, then erases it', async () => {
    const err: string[] = [];
    expect(await new Progress({ stderr: (t) => err.push(t), stderrIsTty: true }).around('synthesizing', slow)).toBe('done');
    expect(err).toEqual(['\rsynthesizing… 1s\x1b[K', '\r\x1b[K']);
  });

  test('validate on a terminal: the blocking check is announced, then erased; nothing without a TTY or with --quiet', async () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, 'cm.yaml'), 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  namespace: a\n');
    const tty = recordingIo(ROOT, true);
    expect(await run(['validate', dir], tty.io)).toBe(0);
    const rel = path.relative(ROOT, dir);
    expect(tty.err).toEqual([`\rvalidating ${rel}…\x1b[K`, '\r\x1b[K', `no problems below ${rel}\n`]);
    for (const [argv, isTty] of [[['validate', dir], false], [['validate', '--quiet', dir], true]] as const) {
      const other = recordingIo(ROOT, isTty);
      await run([...argv], other.io);
      expect(other.err).toEqual([`no problems below ${rel}\n`]);
    }
  }, 60_000);

  test('off without a TTY, with --quiet, and for short steps', async () => {
    const err: string[] = [];
    await new Progress({ stderr: (t) => err.push(t) }).around('synthesizing', slow);
    await new Progress({ stderr: (t) => err.push(t), stderrIsTty: true }, true).around('synthesizing', slow);
    await new Progress({ stderr: (t) => err.push(t), stderrIsTty: true }).around('synthesizing', async () => 'quick');
    expect(err).toEqual([]);
  });
});

test('validate: what depends on the chart (helm-template-capabilities) warns, exit 0', async () => {
  const dir = tempDir();
  fs.copyFileSync(path.join(ROOT, 'manifests', 'fleet.k8s.yaml'), path.join(dir, 'fleet.k8s.yaml'));
  const app = fs.readFileSync(path.join(ROOT, 'manifests', 'docs-preview.k8s.yaml'), 'utf8');
  const withoutKubeVersion = app.replace('        kubeVersion: ${{ quote(vars.kubeVersion) }}\n', '');
  expect(withoutKubeVersion).not.toBe(app);
  fs.writeFileSync(path.join(dir, 'docs-preview.k8s.yaml'), withoutKubeVersion);
  const { out, err, io } = recordingIo(ROOT);
  expect(await run(['validate', dir], io)).toBe(0);
  const lines = out.join('').trim().split('\n');
  expect(lines.length).toBeGreaterThan(0);
  for (const line of lines) expect(line).toMatch(/^warning: .* helm-template renders client-only without kubeVersion .*\(live: helm-template-capabilities\)$/);
  expect(err.join('')).toBe(`no problems below ${path.relative(ROOT, dir)}; ${lines.length} warning(s)\n`);
  const json = recordingIo(ROOT);
  await run(['validate', '--json', dir], json.io);
  expect(JSON.parse(json.out.join('')).issues.map((i: any) => [i.severity, i.code])).toEqual(lines.map(() => ['warning', 'helm-template-capabilities']));
}, 60_000);

test('the README\'s "Use it in your own project" example validates without an error', async () => {
  const dir = tempDir();
  // examples/consumer/platform.ts (the README shows it verbatim) on this worktree's library
  const source = fs.readFileSync(path.join(ROOT, 'examples', 'consumer', 'platform.ts'), 'utf8');
  const local = source.replace("from 'cdk8s-gitops-platform';", `from ${JSON.stringify(path.join(ROOT, 'src', 'index.ts'))};`);
  expect(local).not.toBe(source);
  fs.writeFileSync(path.join(dir, 'platform.ts'), local);
  const { definePlatform } = await import(path.join(dir, 'platform.ts'));
  const { App } = await import('cdk8s');
  const app = new App({ outdir: path.join(dir, 'dist') });
  definePlatform(app);
  app.synth();
  const { out, err, io } = recordingIo(dir);
  expect(await run(['validate', 'dist'], io)).toBe(0);
  // no error; the one warning is true of the example: its clusters declare no API versions
  expect(out.join('').split('\n').filter(Boolean).map((l) => l.replace(/: helm-template .*\(live: /, ': … (live: '))).toEqual([
    'warning: dist/checkout-api.k8s.yaml PromotionTask/checkout-api/render-cluster /spec/steps/0/config: … (live: helm-template-capabilities)',
  ]);
  expect(err.join('')).toBe('no problems below dist; 1 warning(s)\n');
}, 120_000);
