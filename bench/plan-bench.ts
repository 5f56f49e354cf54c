/**
 * Plan benchmark: the whole `cdk8s-gitops-platform plan --base HEAD~1` of a one-app change on a
 * generated platform, both sides synthesized by the CLI as in a pull request's CI. `npm run bench`
 * (synth-bench.ts) runs `plan-100x1000` after the synth scenarios; alone:
 *
 *   npx tsx bench/plan-bench.ts 3 plan-100x1000     # <samples> plan-<clusters>x<apps>...
 *
 * It builds a scratch git repository in `.bench/plan-<c>x<a>/repo`: the library and
 * `generated-platform.ts` bundled to plain JavaScript once (esbuild, packages left external and
 * resolved through a `node_modules` symlink, as an installed library would be), a cdk8s.yaml whose
 * app is `node platform.js`, the base commit with every app at `^1.0.0` and the head commit with
 * app 500 (or the middle app) at `^2.0.0`. The CLI is bundled the same way and run with plain
 * node; each sample is one fresh process, timed with bash's `time` (wall, and user + sys of the
 * CLI and every process it starts).
 */
import { execFileSync, spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { GO_PARSERS_WASM } from '../src/util/go-parsers';

const root = path.join(__dirname, '..');
const esbuild = path.join(root, 'node_modules', '.bin', 'esbuild');

export interface PlanSample { readonly wallMs: number; readonly cpuMs: number; readonly load: string }

function git(cwd: string, ...args: string[]): void {
  execFileSync('git', ['-c', 'user.name=bench', '-c', 'user.email=bench@example.com', '-c', 'commit.gpgsign=false', ...args], { cwd, stdio: 'ignore' });
}

function bundle(entry: string, outfile: string): void {
  execFileSync(esbuild, [entry, '--bundle', '--platform=node', '--target=node20', '--packages=external', '--log-level=warning', `--outfile=${outfile}`],
    { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
}

/** Sets up the scratch repository (base and head commits) and the bundled CLI; returns their paths. */
export function setUpPlanRepo(dir: string, clusters: number, apps: number): { repo: string; cli: string; changedApp: string } {
  fs.rmSync(dir, { recursive: true, force: true });
  const repo = path.join(dir, 'repo');
  fs.mkdirSync(repo, { recursive: true });
  const entry = path.join(dir, 'platform-entry.ts');
  const from = (file: string) => JSON.stringify(path.relative(dir, path.join(root, file)).split(path.sep).join('/'));
  fs.writeFileSync(entry, [
    `import { PlatformReport, PlatformSynthApp } from ${from('src')};`,
    `import { defineGeneratedPlatform } from ${from('bench/generated-platform')};`,
    '',
    'export function synth(clusters: number, apps: number, changedApp?: number): void {',
    '  const app = new PlatformSynthApp();',
    '  defineGeneratedPlatform(app, clusters, apps, changedApp);',
    '  app.synth();',
    '  PlatformReport.write(app);',
    '}',
    '',
  ].join('\n'));
  bundle(entry, path.join(repo, 'platform-lib.js'));
  const cli = path.join(dir, 'cli.js');
  bundle(path.join(root, 'src', 'cli', 'main.ts'), cli);
  fs.symlinkSync(fs.realpathSync(path.join(root, 'node_modules')), path.join(repo, 'node_modules'), 'dir');
  fs.writeFileSync(path.join(repo, '.gitignore'), 'node_modules\ndist\n');
  // the bundled library finds its Go parsers module under the nearest package.json, as in its
  // installed package (src/util/go-parsers.ts packageRoot): the repository is that package here
  fs.writeFileSync(path.join(repo, 'package.json'), `${JSON.stringify({ name: 'plan-bench-platform', private: true }, null, 2)}\n`);
  fs.mkdirSync(path.dirname(path.join(repo, GO_PARSERS_WASM)), { recursive: true });
  fs.copyFileSync(path.join(root, GO_PARSERS_WASM), path.join(repo, GO_PARSERS_WASM));
  fs.writeFileSync(path.join(repo, 'cdk8s.yaml'), 'language: typescript\napp: node platform.js\noutput: dist\n');
  const changed = Math.min(500, Math.floor(apps / 2));
  const platform = (changedApp?: number) => fs.writeFileSync(path.join(repo, 'platform.js'),
    `require('./platform-lib.js').synth(${clusters}, ${apps}, ${changedApp});\n`);
  git(repo, 'init', '--quiet');
  platform(undefined);
  git(repo, 'add', '--all');
  git(repo, 'commit', '--quiet', '--message', 'base: every app at ^1.0.0');
  platform(changed);
  git(repo, 'commit', '--quiet', '--all', '--message', `head: app ${changed} at ^2.0.0`);
  return { repo, cli, changedApp: `app-${String(changed).padStart(3, '0')}` };
}

/** One timed `plan --base HEAD~1`; checks that it planned the one-app change. */
export function planOnce(repo: string, cli: string, changedApp: string, apps: number): PlanSample {
  const load = fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  const out = path.join(path.dirname(repo), 'plan.md');
  const script = 'TIMEFORMAT=\'%R %U %S\'; time node "$0" plan --base HEAD~1 --quiet > "$1"';
  const result = spawnSync('bash', ['-c', script, cli, out], { cwd: repo, encoding: 'utf8', stdio: ['ignore', 'ignore', 'pipe'] });
  if (result.status !== 0) throw new Error(`plan failed (exit ${result.status}):\n${result.stderr}`);
  // bash's time reports on stderr, after whatever the CLI wrote there
  const [wall, user, sys] = result.stderr.trim().split('\n').pop()!.split(' ').map(Number);
  const plan = fs.readFileSync(out, 'utf8');
  if (!plan.includes(`- **${changedApp}: 1 artifact changed`) || !plan.includes(`and ${apps - 11} more unaffected`)) {
    throw new Error(`the plan does not show the one-app change of ${changedApp}:\n${plan}`);
  }
  return { wallMs: Math.round(wall * 1000), cpuMs: Math.round((user + sys) * 1000), load };
}

/** Runs the plan case of `scenario` (`plan-<clusters>x<apps>`) `samples` times; returns its table row. */
export function planBench(scenario: string, samples: number): string {
  const m = /^plan-(\d+)x(\d+)$/.exec(scenario);
  if (!m) throw new Error(`unknown plan scenario "${scenario}"; use plan-<clusters>x<apps>`);
  const [clusters, apps] = [Number(m[1]), Number(m[2])];
  const dir = path.join(root, '.bench', scenario);
  const { repo, cli, changedApp } = setUpPlanRepo(dir, clusters, apps);
  try {
    return sampleRow(`${scenario}: plan --base of a one-app change`, Array.from({ length: samples }, () => planOnce(repo, cli, changedApp, apps)));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** A table row of a timed case: the median wall and CPU, every sample, the load at each start. */
export function sampleRow(label: string, runs: PlanSample[]): string {
  const mid = (key: 'wallMs' | 'cpuMs') => runs.map((r) => r[key]).sort((a, b) => a - b)[Math.floor(runs.length / 2)];
  const sec = (ms: number) => (ms / 1000).toFixed(1);
  return `| ${label} | ${sec(mid('wallMs'))} | ${sec(mid('cpuMs'))} `
    + `| ${runs.map((r) => `${sec(r.wallMs)}/${sec(r.cpuMs)}`).join(', ')} | ${runs.map((r) => r.load).join('; ')} | ${os.cpus().length} |`;
}

/** Prints the header of a table of timed cases. */
export function printTableHeader(what: string): void {
  console.log(`\n| ${what} case | wall s (median) | CPU s (median) | samples wall/CPU s | loadavg at each start | cores |`);
  console.log('| --- | ---: | ---: | --- | --- | ---: |');
}

/** Prints the table of the plan cases, if any (target: under 20 s wall at 100 × 1000 on 2 cores). */
export function runPlanCases(scenarios: string[], samples: number): void {
  if (scenarios.length === 0) return;
  printTableHeader('plan');
  for (const scenario of scenarios) console.log(planBench(scenario, samples));
}

if (require.main === module) {
  runPlanCases(process.argv.length > 3 ? process.argv.slice(3) : ['plan-100x1000'], Number(process.argv[2] ?? 3));
}
