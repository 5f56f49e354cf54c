// The `compat` task: the public API (.jsii) against the last release, with jsii-diff. The last
// release is the newest `v*` tag reachable from HEAD (projen's release tags each release so), and
// its assembly is the package the release published to npm (`npm:cdk8s-gitops-platform@<version>`).
// API_BASELINE names another baseline: a directory with a package.json and a .jsii, or an npm:
// reference. Without a tag and without API_BASELINE there is no released API to break: it says so.
//
// Every API is experimental until 1.0, and jsii-diff fails only on stable APIs by default; with
// --error-on all any break fails, unless its key (printed with -k) is in .compatignore.
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

const root = path.resolve(__dirname, '..');
const name: string = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')).name;

function lastReleaseTag(): string | undefined {
  try {
    return execFileSync('git', ['describe', '--tags', '--abbrev=0', '--match', 'v[0-9]*'], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim() || undefined;
  } catch {
    return undefined;
  }
}

let baseline = process.env.API_BASELINE;
if (!baseline) {
  const tag = lastReleaseTag();
  if (!tag) {
    console.log('compat: no release yet (no v* tag): no released API to compare against');
    process.exit(0);
  }
  baseline = `npm:${name}@${tag.replace(/^v/, '')}`;
}
if (!fs.existsSync(path.join(root, '.jsii'))) {
  console.error('compat: no .jsii: run `npx projen compile` first');
  process.exit(1);
}
console.log(`compat: the API of ${name} against ${baseline}`);
const run = spawnSync('jsii-diff', [baseline, root, '--keys', '--error-on', 'all', '--ignore-file', path.join(root, '.compatignore')], { stdio: 'inherit' });
if (run.status !== 0) {
  console.error(`compat: the public API breaks ${baseline} (above). If the break is intended, add its keys to .compatignore `
    + 'and mark the commit as a breaking change (feat!: ...), so that the release bumps the version accordingly.');
}
process.exit(run.status ?? 1);
