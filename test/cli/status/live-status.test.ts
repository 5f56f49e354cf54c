import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { run } from '../../../src/cli';
import { ManifestSet } from '../../../src/cli/manifest-set';
import { formatIssues, ManifestValidator } from '../../../src/testkit';
import { modelApplications } from '../../../src/testkit/model/argocd-applications';
import { tempDir } from '../../support/cli-temp-dirs';
import { FakeHub, hubApplication, hubStage, kubeconfigFor, startFakeHub } from '../../support/fake-hub';
import { ModelReleaseRepo, synthesizePlatform } from '../../support/release-repo';

// `status --live` against a stand-in for the hub's API server: Argo CD Applications and Kargo
// Stages as the synthesized output defines them, with the status the controllers would write
// (validated against the pinned CRDs), and drift the test makes.

const TOKEN = 'test-reader-token';
let dir: string;
let repo: string;
let hub: FakeHub;
let freights: { older: string; newer: string };

async function status(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await run(['status', '--dir', 'out', '--release-repo', 'releases.git', '--app', 'api', '--stage', 'dev,staging', ...args],
    { cwd: dir, stdout: (t) => { out += t; }, stderr: (t) => { err += t; } });
  return { code, out, err };
}

function git(args: string[]): string {
  return execFileSync('git', ['-C', repo, ...args], { encoding: 'utf8' }).trim();
}

beforeAll(async () => {
  dir = tempDir();
  synthesizePlatform(path.join(dir, 'out'), { api: () => ({}) });
  const model = new ModelReleaseRepo(path.join(dir, 'out'));
  model.promote({ project: 'api', stage: 'dev', generation: 1, at: '2026-06-01T10:00:00Z', alias: 'old-dog' });
  model.promote({ project: 'api', stage: 'staging', generation: 1, at: '2026-06-01T11:00:00Z', alias: 'old-dog' });
  model.promote({ project: 'api', stage: 'dev', generation: 2, at: '2026-06-02T10:02:00Z', alias: 'new-cat' });
  repo = path.join(dir, 'releases.git');
  model.write(repo);
  const objects = ManifestSet.load(path.join(dir, 'out')).objects.map((o) => o.obj);
  const apps = modelApplications(objects).filter((a) => a.labels['gitops-platform.io/app'] === 'api');
  const byCluster = (c: string) => apps.find((a) => a.labels['gitops-platform.io/cluster'] === c)!;
  const head = git(['rev-parse', 'rendered/api/dev']);
  const previous = git(['rev-parse', 'rendered/api/dev~1']);
  const record = (rev: string) => /Kargo-Freight: (\S+)/.exec(git(['log', '-1', '--format=%B', rev]))![1];
  freights = { older: record(previous), newer: record(head) };
  const stageSpec = (name: string) => objects.find((o) => o.kind === 'Stage' && o.metadata.name === name && o.metadata.namespace === 'api');
  const staging = git(['rev-parse', 'rendered/api/staging']);
  const applications = [
    hubApplication(byCluster('aws-dev-cpu'), { head, synced: head, sync: 'Synced', health: 'Healthy' }),
    // the test's drift: this cluster's Application is still on the older release
    hubApplication(byCluster('gcp-dev-h100'), { head, synced: previous, sync: 'OutOfSync', health: 'Degraded' }),
    hubApplication(byCluster('aws-stg-cpu'), { head: staging, synced: staging, sync: 'Synced', health: 'Healthy' }),
    hubApplication(byCluster('gcp-stg-h100'), { head: staging, synced: staging, sync: 'Synced', health: 'Healthy' }),
  ];
  // staging's Stage says the newer Freight, its branch still the older one
  const stages = [hubStage(stageSpec('dev'), freights.newer), hubStage(stageSpec('staging'), freights.newer)];
  const issues = ManifestValidator.load().validateObjects([...applications, ...stages]).filter((i) => !i.message.startsWith('status must not be set'));
  expect(formatIssues(issues)).toBe('');
  hub = await startFakeHub(dir, { applications, stages, token: TOKEN, pageSize: 1 });
  fs.writeFileSync(path.join(dir, 'kubeconfig'), kubeconfigFor(hub, { token: TOKEN }));
}, 120_000);

afterAll(async () => hub?.close());

describe('status --live', () => {
  test('reports sync, health and synced revision per cluster, and flags the cluster synced to an older release', async () => {
    const { code, out } = await status('--live', '--kubeconfig', 'kubeconfig', '--json');
    expect(code).toBe(1);
    const json = JSON.parse(out);
    expect(json.live).toEqual({ context: 'hub', server: hub.url });
    const clusters = json.apps[0].stages.flatMap((s: any) => s.waves.flatMap((w: any) => w.clusters));
    const live = Object.fromEntries(clusters.map((c: any) => [c.cluster, c.live]));
    expect(live['aws-dev-cpu']).toMatchObject({ argoCd: 'found', sync: 'Synced', health: 'Healthy', syncedRevision: git(['rev-parse', 'rendered/api/dev']), stageFreight: freights.newer, drift: [] });
    expect(live['gcp-dev-h100'].drift[0]).toMatch(/^Git records api 1\.2\.0, api [0-9a-f]{7} since 2026-06-02 10:02Z, Argo CD has synced api 1\.1\.0, api [0-9a-f]{7} \([0-9a-f]{7}\)$/);
    expect(live['aws-stg-cpu'].drift).toEqual([`Stage staging says Freight ${freights.newer.slice(0, 7)}, the branch says ${freights.older.slice(0, 7)} (old-dog)`]);
    expect(json.summary.drifted).toBe(3);
  });

  test('Markdown: an Argo CD column and the drift under the table', async () => {
    const { out } = await status('--live', '--kubeconfig', 'kubeconfig');
    expect(out).toContain('| Argo CD |');
    expect(out).toContain('Synced Healthy ×1, OutOfSync Degraded ×1');
    expect(out).toMatch(/- ⚠ drift on gcp-dev-h100: Git records api 1\.2\.0/);
    expect(out).toContain('⚠ 3 drifted');
  });

  test('reads only: GETs with the kubeconfig\'s token, pages followed; a forbidden cluster-wide list falls back to the apps\' namespaces', async () => {
    hub.requests.length = 0;
    await status('--live', '--kubeconfig', 'kubeconfig');
    expect(new Set(hub.requests.map((r) => r.method))).toEqual(new Set(['GET']));
    expect(new Set(hub.requests.map((r) => r.authorization))).toEqual(new Set([`Bearer ${TOKEN}`]));
    expect(hub.requests.filter((r) => r.path.includes('continue=')).length).toBeGreaterThan(0);
    const narrow = await startFakeHub(dir, { applications: [], stages: [], forbidClusterWide: true });
    try {
      fs.writeFileSync(path.join(dir, 'narrow'), kubeconfigFor(narrow, {}));
      const { code } = await status('--live', '--kubeconfig', 'narrow', '--json');
      expect(code).toBe(1);
      expect(narrow.requests.map((r) => r.path.split('?')[0])).toEqual([
        '/apis/argoproj.io/v1alpha1/applications', '/apis/argoproj.io/v1alpha1/namespaces/argocd/applications',
        '/apis/kargo.akuity.io/v1alpha1/stages', '/apis/kargo.akuity.io/v1alpha1/namespaces/api/stages',
      ]);
    } finally {
      await narrow.close();
    }
  });

  test('a wrong token is a one-line error without the token; --kubeconfig without --live is a usage error', async () => {
    fs.writeFileSync(path.join(dir, 'wrong'), kubeconfigFor(hub, { token: 'not-the-token' }));
    const wrong = await status('--live', '--kubeconfig', 'wrong');
    expect(wrong.code).toBe(2);
    expect(wrong.err).toBe(`error: GET ${hub.url}/apis/argoproj.io/v1alpha1/applications failed, got 401 Unauthorized; check the kubeconfig's credentials for this context\n`);
    expect((await status('--kubeconfig', 'kubeconfig')).err).toContain('--kubeconfig is for --live');
  });
});
