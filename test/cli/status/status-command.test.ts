import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { Duration } from 'cdk8s';
import { beforeAll, describe, expect, test } from 'vitest';
import { Approval, ClusterSelector, Tier, Waves } from '../../../src';
import { run } from '../../../src/cli';
import { ROOT, tempDir } from '../../support/cli-temp-dirs';
import { SMALL_FLEET } from '../../support/fixtures';
import { ModelReleaseRepo, synthesizePlatform } from '../../support/release-repo';

// `status` on a release repository made by the library's own promotion steps (the test kit's
// model of Kargo runs the synthesized Stages), read back against the synthesized plan.

const PIPELINE = {
  stages: [
    { name: 'dev', clusters: ClusterSelector.tier(Tier.DEV), approval: Approval.automatic() },
    { name: 'staging', clusters: ClusterSelector.tier(Tier.STAGING), approval: Approval.automatic() },
    { name: 'prod', clusters: ClusterSelector.tier(Tier.PROD), approval: Approval.pullRequest(), waves: Waves.byLabel('ring', ['canary', 'broad']), soak: Duration.minutes(30) },
  ],
};
// aws-prod-cpu-2 moves from the broad ring to the canary ring
const MOVED = SMALL_FLEET.map((c) => (c.name === 'aws-prod-cpu-2' ? { ...c, labels: { ring: 'canary' } } : c));

let dir: string;
let repo: string;

async function status(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await run(['status', ...args], { cwd: dir, stdout: (t) => { out += t; }, stderr: (t) => { err += t; } });
  return { code, out, err };
}

beforeAll(() => {
  dir = tempDir();
  synthesizePlatform(path.join(dir, 'before'), { api: () => ({}), web: () => ({}) }, SMALL_FLEET, PIPELINE);
  synthesizePlatform(path.join(dir, 'after'), { api: () => ({}), web: () => ({}) }, MOVED, PIPELINE);
  const model = new ModelReleaseRepo(path.join(dir, 'before'));
  const promote = (stage: string, generation: number, at: string, alias: string) => model.promote({ project: 'api', stage, generation, at, alias });
  for (const stage of ['dev', 'staging', 'prod-canary', 'prod-broad']) promote(stage, 1, '2026-06-01T10:00:00Z', 'old-dog');
  for (const stage of ['dev', 'staging', 'prod-canary']) promote(stage, 2, '2026-06-02T10:02:00Z', 'new-cat');
  model.promote({ project: 'web', stage: 'dev', generation: 1, at: '2026-06-03T08:00:00Z' });
  repo = path.join(dir, 'releases.git');
  model.write(repo);
}, 120_000);

describe('status from Git', () => {
  test('reports each cluster\'s version, Freight and promotion time from the release branches', async () => {
    const { code, out } = await status('--dir', 'before', '--release-repo', 'releases.git', '--app', 'api', '--json');
    expect(code).toBe(0);
    const app = JSON.parse(out).apps[0];
    const rows = app.stages.flatMap((s: any) => s.waves.flatMap((w: any) => w.clusters.map((c: any) =>
      [w.name, c.cluster, c.state, c.release?.artifacts.find((a: any) => a.kind === 'image')?.version, c.release?.freightAlias, c.release?.promotedAt])));
    expect(rows).toEqual([
      ['dev', 'aws-dev-cpu', 'rendered', '1.2.0', 'new-cat', '2026-06-02T10:02:00Z'],
      ['dev', 'gcp-dev-h100', 'rendered', '1.2.0', 'new-cat', '2026-06-02T10:02:00Z'],
      ['staging', 'aws-stg-cpu', 'rendered', '1.2.0', 'new-cat', '2026-06-02T10:02:00Z'],
      ['staging', 'gcp-stg-h100', 'rendered', '1.2.0', 'new-cat', '2026-06-02T10:02:00Z'],
      ['prod-canary', 'aws-prod-cpu-1', 'rendered', '1.2.0', 'new-cat', '2026-06-02T10:02:00Z'],
      ['prod-canary', 'gcp-prod-h100-1', 'rendered', '1.2.0', 'new-cat', '2026-06-02T10:02:00Z'],
      ['prod-broad', 'aws-prod-cpu-2', 'rendered', '1.1.0', 'old-dog', '2026-06-01T10:00:00Z'],
      ['prod-broad', 'gcp-prod-h100-2', 'rendered', '1.1.0', 'old-dog', '2026-06-01T10:00:00Z'],
    ]);
    // prod promotes through a pull request: the branch commit is the merge, the record its second parent's
    const canary = app.stages[2].waves[0].clusters[0];
    expect(canary.release.recordCommit).toMatch(/^[0-9a-f]{40}$/);
    expect(canary.release.commit).not.toBe(canary.release.recordCommit);
    expect(canary.changed).toMatchObject({ commitsAgo: 0, atLeast: false });
    expect(git(['log', '-1', '--format=%s', canary.release.commit])).toBe('Merge pull request #3');
  });

  test('--has answers which production clusters have a release that reached some and not others, and exits 1', async () => {
    const has = await status('--dir', 'before', '--release-repo', 'releases.git', '--has', 'api@1.2.0', '--cluster', 'tier=prod', '--json');
    expect(has.code).toBe(1);
    const out = JSON.parse(has.out);
    expect(out.query).toEqual({ mode: 'has', release: 'api@1.2.0', artifact: 'api', version: '1.2.0', selected: 4, having: 2, lacking: 2, all: false });
    const marks = out.apps.flatMap((a: any) => a.stages.flatMap((s: any) => s.waves.flatMap((w: any) => w.clusters.map((c: any) => `${c.cluster} ${c.has}`))));
    expect(marks).toEqual(['aws-prod-cpu-1 true', 'gcp-prod-h100-1 true', 'aws-prod-cpu-2 false', 'gcp-prod-h100-2 false']);
    const lacks = await status('--dir', 'before', '--release-repo', 'releases.git', '--lacks', 'ghcr.io/acme/api:1.2.0', '--stage', 'prod');
    expect(lacks.out).toContain('# `ghcr.io/acme/api:1.2.0`: on 2 of 4 selected cluster(s)');
    expect(lacks.out).toContain('| api | prod | prod-broad | aws-prod-cpu-2, gcp-prod-h100-2 | `1.1.0`');
    expect((await status('--dir', 'before', '--release-repo', 'releases.git', '--has', 'api@1.2.0', '--stage', 'dev,staging,prod-canary')).code).toBe(0);
  });

  test('lists a cluster that moved waves as not rendered yet, and its folder on the old wave as left behind', async () => {
    const { code, out } = await status('--dir', 'after', '--release-repo', 'releases.git', '--app', 'api', '--stage', 'prod', '--json');
    expect(code).toBe(0);
    const app = JSON.parse(out).apps[0];
    const moved = app.stages[0].waves[0].clusters.find((c: any) => c.cluster === 'aws-prod-cpu-2');
    expect(moved).toMatchObject({ state: 'not-rendered', reason: 'no-folder', branch: 'rendered/api/prod-canary', renderedOn: ['rendered/api/prod-broad'] });
    expect(app.orphans).toEqual([{ branch: 'rendered/api/prod-broad', cluster: 'aws-prod-cpu-2', targetedOn: ['rendered/api/prod-canary'] }]);
    const md = (await status('--dir', 'after', '--release-repo', 'releases.git', '--app', 'api')).out;
    expect(md).toContain('| prod | prod-canary | aws-prod-cpu-2 | – | – | ⚠ **not rendered yet** (not on `rendered/api/prod-canary` yet; still on `rendered/api/prod-broad`) | – |');
    expect(md).toContain('- ⚠ left behind on `rendered/api/prod-broad`: aws-prod-cpu-2 (now on `rendered/api/prod-canary`); its next promotion removes them');
  });

  test('Markdown: a table per app, stages as rows, the versions that differ in bold', async () => {
    const { out } = await status('--dir', 'before', '--release-repo', 'releases.git', '--app', 'api', '--quiet');
    expect(out).toContain('| stage | wave | clusters | api (image) | api (git) | Freight | promoted |');
    expect(out).toMatch(/\| dev \| dev \| aws-dev-cpu, gcp-dev-h100 \| `1\.2\.0` \| `[0-9a-f]{7}` \| `[0-9a-f]{7}` new-cat \| 2026-06-02 10:02Z \|/);
    expect(out).toMatch(/\| prod \| prod-broad \| aws-prod-cpu-2, gcp-prod-h100-2 \| \*\*`1\.1\.0`\*\* \| \*\*`[0-9a-f]{7}`\*\* \| `[0-9a-f]{7}` old-dog \| 2026-06-01 10:00Z \|/);
    expect(out).toContain('**Bold**: another version than dev/dev\'s.');
  });

  test('a URL is fetched into a temporary repository (commits and trees only) with the same result; the clone is left as it was', async () => {
    const refsBefore = git(['for-each-ref']);
    const local = JSON.parse((await status('--dir', 'before', '--release-repo', 'releases.git', '--json')).out);
    const fetched = JSON.parse((await status('--dir', 'before', '--release-repo', `file://${repo}`, '--json')).out);
    expect(fetched.repositories).toEqual([{ url: 'https://github.com/acme/releases.git', readFrom: `file://${repo}`, fetched: true, branches: local.repositories[0].branches }]);
    expect(fetched.apps).toEqual(local.apps);
    expect(git(['for-each-ref'])).toBe(refsBefore);
  });

  test('the JSON validates against src/cli/status-output.schema.json', async () => {
    const a = new Ajv({ allErrors: true, strict: true });
    addFormats(a);
    const validate = a.compile(JSON.parse(fs.readFileSync(path.join(ROOT, 'src/cli/status-output.schema.json'), 'utf8')));
    for (const args of [['--dir', 'after'], ['--dir', 'before', '--lacks', 'web@1.1.0']]) {
      const out = JSON.parse((await status(...args, '--release-repo', 'releases.git', '--json')).out);
      expect(validate(out) ? [] : validate.errors).toEqual([]);
    }
  });

  test('--help documents every option and the exit codes; an unknown option is a usage error', async () => {
    const help = await status('--help');
    expect(help.code).toBe(0);
    for (const flag of ['--release-repo', '--dir', '--app', '--stage', '--cluster', '--has', '--lacks', '--history', '--live', '--kubeconfig', '--context', '--json', '--quiet']) {
      expect(help.out).toContain(`  ${flag}`);
    }
    expect(help.out).toContain('exit codes: 0 the answer is yes');
    expect(await status('--hass', 'x')).toMatchObject({ code: 2 });
  });

  test('usage errors name the fix and exit 2; credentials in a URL are refused without being echoed', async () => {
    expect(await status('--dir', 'before', '--app', 'apx')).toMatchObject({ code: 2, err: 'error: --app matches nothing the synthesized apps define, got "apx"; did you mean "api"?\n' });
    expect((await status('--dir', 'before', '--release-repo', 'releases.git', '--has', 'api')).err).toContain('--has names no version, got "api"; write --has <artifact>@<version>');
    expect((await status('--dir', 'before', '--cluster', 'rimg=canary')).err).toContain('--cluster label is on no cluster of the fleet, got "rimg"; did you mean "ring"?');
    const secret = await status('--dir', 'before', '--release-repo', 'https://user:hunter2@git.example.com/releases.git');
    expect(secret.code).toBe(2);
    expect(secret.err).toContain('carries credentials');
    expect(secret.err).not.toContain('hunter2');
  });
});

function git(args: string[]): string {
  return execFileSync('git', ['-C', repo, ...args], { encoding: 'utf8' }).trim();
}
