import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { afterAll, describe, expect, test } from 'vitest';
import * as YAML from 'yaml';
import { run } from '../../src/cli';
import { ManifestSet } from '../../src/cli/manifest-set';
import { API, prod, range, recordingIo, tree, WEB, withProdWaves, writeTree } from '../support/cli-fixtures';
import { ROOT, tempDir } from '../support/cli-temp-dirs';

const version = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).version;

const temps: string[] = [];
afterAll(() => temps.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

describe('--help and --version', () => {

  test('--version and version print the package version', async () => {
    for (const argv of [['--version'], ['version']]) {
      const { out, io } = recordingIo(ROOT);
      expect(await run(argv, io)).toBe(0);
      expect(out.join('')).toBe(`${version}\n`);
    }
  });

  test('a misspelt option, command or help topic: did you mean the nearest one', async () => {
    for (const [argv, message] of [
      [['plan', '--bse', 'main'], 'error: plan option is unknown, got "--bse"; did you mean --base? `cdk8s-gitops-platform plan --help` lists them\n'],
      [['validate', '--skip-knd', 'Job'], 'error: validate option is unknown, got "--skip-knd"; did you mean --skip-kind? `cdk8s-gitops-platform validate --help` lists them\n'],
      [['valdate'], 'error: command is unknown, got "valdate"; did you mean validate? `cdk8s-gitops-platform --help` lists the commands\n'],
      [['help', 'pln'], 'error: command is unknown, got "pln"; did you mean plan? `cdk8s-gitops-platform --help` lists the commands\n'],
    ] as const) {
      const { err, io } = recordingIo(ROOT);
      expect(await run([...argv], io)).toBe(2);
      expect(err.join('')).toBe(message);
    }
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

describe('plan --base-dir/--head-dir', () => {
  const io = () => {
    const out: string[] = [];
    const err: string[] = [];
    return { out, err, io: { cwd: path.join(__dirname, '..', '..'), stdout: (t: string) => out.push(t), stderr: (t: string) => err.push(t) } };
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
    expect(typo.err.join('')).toBe('error: change rule is not known, got "max-production-wave-growht"; did you mean "max-production-wave-growth"?\n');
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
    expect(badPolicy.err.join('')).toBe('error: config applicationSetPolicy is not an ApplicationSet controller policy, got "upsert"; '
      + 'use one of "sync", "create-only", "create-update", "create-delete"\n');
  });

  test('usage errors exit 2 with a message and no stack', async () => {
    for (const argv of [['frobnicate'], ['plan', '--base-dir', 'manifests'], ['plan', '--nope', 'x'], ['plan', '--now', 'yesterday'], ['plan', '--base-dir', 'x', '--head-dir', 'y'], []]) {
      const { err, io: cli } = io();
      expect(await run(argv, cli)).toBe(2);
      expect(err.join('')).not.toMatch(/\n\s+at /);
    }
  });
});
