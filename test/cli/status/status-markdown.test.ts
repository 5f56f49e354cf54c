import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { run } from '../../../src/cli';
import { ManifestSet } from '../../../src/cli/manifest-set';
import { formatIssues, ManifestValidator } from '../../../src/testkit';
import { modelApplications } from '../../../src/testkit/model/argocd-applications';
import { ROOT, tempDir } from '../../support/cli-temp-dirs';
import { asShown, docOutputs, outputBlocks } from '../../support/doc-outputs';
import { FakeHub, hubApplication, hubStage, kubeconfigFor, startFakeHub } from '../../support/fake-hub';
import { ModelReleaseRepo } from '../../support/release-repo';

// The Markdown of `status` as docs/reviewing-and-operating.md shows it: each example output of
// the page is the command's own, run here on the scenario the page describes. The example
// platform's manifests/, a release repository written by checkout-api's own promotion steps (the
// test kit's model of Kargo runs the synthesized Stages): the older Freight promoted everywhere
// on 2026-06-08, the newer one up to prod-w2 on 2026-06-15; for --live, a stand-in API server
// with dev's and staging's Applications and Stages, one dev cluster left on the older release.
// The one thing normalized is the stand-in server's port (the page shows 6443).

const PAGE = 'docs/reviewing-and-operating.md';
const APP = 'checkout-api';
const DRIFTING = 'gcp-usc1-cpu-dev-01';
const SHOWN_SERVER = 'https://127.0.0.1:6443';

let dir: string;
let hub: FakeHub;

function git(args: string[]): string {
  return execFileSync('git', ['-C', path.join(dir, 'releases.git'), ...args], { encoding: 'utf8' }).trim();
}

beforeAll(async () => {
  dir = tempDir();
  const manifests = path.join(ROOT, 'manifests');
  fs.symlinkSync(manifests, path.join(dir, 'manifests'), 'dir');
  const objects = ManifestSet.load(manifests).objects.map((o) => o.obj);
  const stages = objects.filter((o) => o.kind === 'Stage' && o.metadata.namespace === APP);
  const model = new ModelReleaseRepo(manifests);
  for (const s of stages) model.promote({ project: APP, stage: s.metadata.name, generation: 1, at: '2026-06-08T09:30:00Z', alias: 'steady-otter' });
  for (const s of stages.filter((x) => /^(dev|staging|prod-w1|prod-w2)(-|$)/.test(x.metadata.name))) {
    model.promote({ project: APP, stage: s.metadata.name, generation: 2, at: '2026-06-15T10:02:00Z', alias: 'brisk-heron' });
  }
  model.write(path.join(dir, 'releases.git'));

  const live = ['dev', 'staging'];
  const applications = modelApplications(objects)
    .filter((a) => a.labels['gitops-platform.io/app'] === APP && live.includes(a.sources[0].targetRevision?.split('/').pop() ?? ''))
    .map((a) => {
      const head = git(['rev-parse', a.sources[0].targetRevision!]);
      return a.labels['gitops-platform.io/cluster'] === DRIFTING
        ? hubApplication(a, { head, synced: git(['rev-parse', `${a.sources[0].targetRevision}~1`]), sync: 'OutOfSync', health: 'Progressing' })
        : hubApplication(a, { head, synced: head, sync: 'Synced', health: 'Healthy' });
    });
  const freight = (branch: string) => /Kargo-Freight: (\S+)/.exec(git(['log', '-1', '--format=%B', branch]))![1];
  const hubStages = stages.filter((s) => live.includes(s.metadata.name)).map((s) => hubStage(s, freight(`rendered/${APP}/${s.metadata.name}`)));
  const issues = ManifestValidator.load().validateObjects([...applications, ...hubStages]).filter((i) => !i.message.startsWith('status must not be set'));
  expect(formatIssues(issues)).toBe('');
  hub = await startFakeHub(dir, { applications, stages: hubStages });
  fs.writeFileSync(path.join(dir, 'hub.kubeconfig'), kubeconfigFor(hub, {}));
}, 120_000);

afterAll(async () => hub?.close());

const THIS = `test/cli/status/${path.basename(__filename)}`;
const outputs = docOutputs(PAGE).filter((o) => o.test === THIS);

test('the release record the page shows is the commit message of checkout-api\'s promotion to prod-w1 (a pull request: the merge\'s second parent)', () => {
  expect(outputBlocks(PAGE, THIS)).toEqual([`${git(['log', '-1', '--format=%B', `rendered/${APP}/prod-w1^2`])}\n`]);
});

test('the page shows the example outputs: all of Git, --lacks and --live', () => {
  expect(outputs.map((o) => o.args.filter((a) => /^--(lacks|live)$/.test(a)).join(' '))).toEqual(['', '--lacks', '--live']);
});

test.each(outputs.map((o) => [`${PAGE}:${o.line}`, o] as const))('the output at %s is the command\'s own', async (_, shown) => {
  let out = '';
  let err = '';
  const code = await run(shown.args, { cwd: dir, stdout: (t) => { out += t; }, stderr: (t) => { err += t; } });
  expect(err).toBe('');
  expect(asShown(out.split(hub.url).join(SHOWN_SERVER))).toBe(shown.text);
  expect(code).toBe(shown.exitCode);
});
