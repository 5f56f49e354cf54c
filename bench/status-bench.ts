/**
 * Status benchmark: `cdk8s-gitops-platform status` on a generated platform and its release
 * repository (`generated-release-repo.ts`: every app's release branches, three promotions each,
 * the broad waves one behind), from a local clone. `npm run bench` (synth-bench.ts) runs
 * `status-100x1000` after the plan case; alone:
 *
 *   npx tsx bench/status-bench.ts 3 status-100x1000     # <samples> status-<clusters>x<apps>...
 *
 * It reuses the plan benchmark's scratch project (the platform bundled to plain JavaScript,
 * `app: node platform.js`, the CLI bundled and run with plain node) and times two commands, each
 * sample one fresh process timed with bash's `time` (wall, and user + sys of the CLI and every
 * process it starts): the default, which synthesizes the working tree first, and `--dir` on an
 * already synthesized directory (the release record alone).
 */
import { execFileSync, spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { generateReleaseRepo } from './generated-release-repo';
import { PlanSample, printTableHeader, sampleRow, setUpPlanRepo } from './plan-bench';

const root = path.join(__dirname, '..');

/** One timed status; checks that it read every rendered cluster. */
function statusOnce(repo: string, cli: string, args: string[], rendered: number): PlanSample {
  const load = fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  const out = path.join(path.dirname(repo), 'status.json');
  const script = 'TIMEFORMAT=\'%R %U %S\'; cli=$1; out=$2; shift 2; time node "$cli" status "$@" --quiet --json > "$out"';
  const result = spawnSync('bash', ['-c', script, 'bash', cli, out, ...args], { cwd: repo, encoding: 'utf8', stdio: ['ignore', 'ignore', 'pipe'] });
  if (result.status !== 0) throw new Error(`status failed (exit ${result.status}):\n${result.stderr}`);
  const [wall, user, sys] = result.stderr.trim().split('\n').pop()!.split(' ').map(Number);
  const summary = JSON.parse(fs.readFileSync(out, 'utf8')).summary;
  if (summary.rendered !== rendered) throw new Error(`status read ${summary.rendered} rendered clusters, expected ${rendered}: ${JSON.stringify(summary)}`);
  return { wallMs: Math.round(wall * 1000), cpuMs: Math.round((user + sys) * 1000), load };
}

/** Runs the status case of `scenario` (`status-<clusters>x<apps>`) `samples` times; returns its table rows. */
export function statusBench(scenario: string, samples: number): string[] {
  const m = /^status-(\d+)x(\d+)$/.exec(scenario);
  if (!m) throw new Error(`unknown status scenario "${scenario}"; use status-<clusters>x<apps>`);
  const [clusters, apps] = [Number(m[1]), Number(m[2])];
  const dir = path.join(root, '.bench', scenario);
  const { repo, cli } = setUpPlanRepo(dir, clusters, apps);
  try {
    const synthesized = path.join(dir, 'synthesized');
    execFileSync(process.execPath, ['platform.js'], { cwd: repo, env: { ...process.env, CDK8S_OUTDIR: synthesized }, stdio: 'ignore' });
    const started = Date.now();
    const generated = generateReleaseRepo(synthesized, path.join(dir, 'releases.git'));
    console.error(`${scenario}: release repository of ${generated.branches} branches, ${generated.commits} commits generated in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    const row = (what: string, args: string[]) => sampleRow(`${scenario}: ${what}`, Array.from({ length: samples }, () => statusOnce(repo, cli, args, generated.rendered)));
    return [
      row(`status of ${generated.branches} release branches (${generated.commits} commits, ${generated.rendered} rendered app-cluster pairs), synthesizing the working tree`,
        ['--release-repo', '../releases.git']),
      row('status --dir (already synthesized)', ['--dir', synthesized, '--release-repo', '../releases.git']),
    ];
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Prints the table of the status cases, if any (target: under 30 s wall at 100 × 1000 from a local clone). */
export function runStatusCases(scenarios: string[], samples: number): void {
  if (scenarios.length === 0) return;
  printTableHeader('status');
  for (const scenario of scenarios) statusBench(scenario, samples).forEach((r) => console.log(r));
}

if (require.main === module) {
  runStatusCases(process.argv.length > 3 ? process.argv.slice(3) : ['status-100x1000'], Number(process.argv[2] ?? 3));
}
