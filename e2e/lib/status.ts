import { spawnSync } from 'child_process';
import { writeFileSync } from 'fs';
import { join } from 'path';
import type { ClusterStatus, StatusOutput } from '../../src/cli';
import { clustersOf as clustersOfApp } from '../../src/cli/status/status-model';
import { log } from './log';

/** What one `status` run printed and returned. */
export interface StatusRun {
  readonly code: number;
  readonly output: StatusOutput;
  /** The same run's Markdown (a second run without --json), for the log and the report. */
  readonly markdown: string;
}

/** Where `status` reads from: the synthesized platform, and Git's trust in the suite's CA. */
export interface StatusContext {
  readonly root: string;
  readonly dir: string;
  readonly synthDir: string;
  readonly caFile: string;
}

/** One `status` run of the suite, for the report. */
export interface StatusCall {
  readonly label: string;
  readonly args: string[];
  readonly code: number;
  readonly summary: string;
}

const calls: StatusCall[] = [];

/** The `status` runs so far, in order. */
export function statusCalls(): readonly StatusCall[] {
  return calls;
}

function summaryOf(o: StatusOutput): string {
  const s = o.summary;
  const q = o.query ? `; ${o.query.mode} ${o.query.release}: ${o.query.having} of ${o.query.selected}` : '';
  return `${s.rendered} rendered, ${s.notRendered} not rendered, ${s.orphans} orphan folders${s.drifted === undefined ? '' : `, ${s.drifted} drifted`}${q}`;
}

/**
 * Runs the CLI's `status` as a user does (the package's command, here from source through tsx)
 * on the synthesized platform, reading the release repository the apps name (over https from the
 * suite's Git server: Git trusts the suite's CA through `GIT_SSL_CAINFO`, the user's own Git
 * configuration in real life) unless `args` names another. Returns the JSON document and the
 * Markdown of the same question; the Markdown is kept in `<dir>/status/` for the report.
 */
export function runStatus(ctx: StatusContext, label: string, args: string[]): StatusRun {
  const cli = (extra: string[]) => spawnSync(join(ctx.root, 'node_modules', '.bin', 'tsx'),
    [join(ctx.root, 'src', 'cli', 'main.ts'), 'status', '--dir', ctx.synthDir, '--quiet', ...args, ...extra], {
      cwd: ctx.root,
      encoding: 'utf8',
      env: { ...process.env, GIT_SSL_CAINFO: ctx.caFile },
      timeout: 120_000,
    });
  const json = cli(['--json']);
  if (json.status !== 0 && json.status !== 1) {
    throw new Error(`status ${args.join(' ')} (${label}) exited ${json.status ?? json.signal}: ${json.stderr.trim()}`);
  }
  const output = JSON.parse(json.stdout) as StatusOutput;
  const md = cli([]);
  if (md.status !== json.status) throw new Error(`status ${args.join(' ')} (${label}) exited ${json.status} with --json and ${md.status} without: ${md.stderr.trim()}`);
  calls.push({ label, args, code: json.status, summary: summaryOf(output) });
  const file = join(ctx.dir, 'logs', `status-${String(calls.length).padStart(2, '0')}-${label.replace(/[^a-z0-9]+/gi, '-')}.md`);
  writeFileSync(file, `$ cdk8s-gitops-platform status ${args.join(' ')}\n\n${md.stdout}`);
  log(`  status ${args.join(' ')} (${label}): exit ${json.status}; ${file}`);
  return { code: json.status, output, markdown: md.stdout };
}

/** Every selected cluster of an app's stages, with the Kargo Stage that renders it. */
export function clustersOf(output: StatusOutput, app: string): ClusterStatus[] {
  const a = output.apps.find(x => x.name === app);
  if (!a) throw new Error(`status printed no app ${app}: it printed ${output.apps.map(x => x.name).join(', ') || 'none'}`);
  return clustersOfApp(a);
}

/** The cluster of an app rendered by a Kargo Stage, or an error naming what status printed. */
export function clusterOf(output: StatusOutput, app: string, kargoStage: string, cluster: string): ClusterStatus {
  const all = clustersOf(output, app);
  const c = all.find(x => x.kargoStage === kargoStage && x.cluster === cluster);
  if (!c) throw new Error(`status printed no cluster ${cluster} in Stage ${app}/${kargoStage}: it printed ${all.map(x => `${x.kargoStage}/${x.cluster}`).join(', ')}`);
  return c;
}

/** The image version a cluster's release records (its tag), or undefined. */
export function recordedTag(c: ClusterStatus): string | undefined {
  return c.release?.artifacts.find(a => a.kind === 'image')?.version;
}
