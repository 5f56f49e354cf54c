import * as fs from 'fs';
import {
  buildModules, ConformanceFinding, findModules, formatFinding, formatSummary, ManifestRunOptions, ModuleReport,
  runCommandsAndModel, sortFindings, SuiteError,
} from './suite';

/*
 * npm run conformance -- <manifests dir> [--before <dir>] [--now <RFC3339>]
 *
 * Runs a directory of synthesized manifests through every command of the Go modules under
 * conformance/ (Kargo's, Argo CD's, Argo Rollouts' and the API server's own code) and through the
 * test kit's model for what no command decides (docs/conformance.md). Prints each finding on one
 * line, then what each command counted; progress (which module builds, which case runs) goes to
 * stderr. Exit 0: no finding; 1: findings; 2: the suite itself failed (reason on stderr).
 */

const USAGE = 'usage: npm run conformance -- <manifests dir> [--before <dir>] [--now <RFC3339>]';

export interface ConformanceRun {
  readonly findings: ConformanceFinding[];
  readonly reports: ModuleReport[];
}

/** Builds the modules and runs them and the model on `dir`. @throws SuiteError */
export async function runConformance(dir: string, options: ManifestRunOptions = {}): Promise<ConformanceRun> {
  for (const d of [dir, options.before]) {
    if (d !== undefined && !fs.statSync(d, { throwIfNoEntry: false })?.isDirectory()) throw new SuiteError(`${d} is not a directory`);
  }
  const modules = findModules();
  // a caller that runs the suite many times (check-known-breaks.ts) builds the modules once
  if (process.env.CONFORMANCE_BUILT !== '1') buildModules(modules);
  const { commands, model } = await runCommandsAndModel(modules, dir, options);
  const reports = [...commands, model];
  return { reports, findings: sortFindings(reports.flatMap((r) => r.findings)) };
}

function parseArgs(argv: string[]): { dir: string } & ManifestRunOptions {
  let dir: string | undefined;
  let before: string | undefined;
  let now: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = () => {
      if (i + 1 >= argv.length) throw new SuiteError(`${a} needs a value; ${USAGE}`);
      return argv[++i];
    };
    if (a === '--before') before = value();
    else if (a === '--now') now = value();
    else if (a.startsWith('-')) throw new SuiteError(`unknown option ${a}; ${USAGE}`);
    else if (dir === undefined) dir = a;
    else throw new SuiteError(`one manifests directory only, got ${dir} and ${a}; ${USAGE}`);
  }
  if (dir === undefined) throw new SuiteError(USAGE);
  if (now !== undefined && !/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/.test(now)) {
    throw new SuiteError(`--now ${now} is not an RFC 3339 time such as 2026-12-01T22:00:00Z`);
  }
  return { dir, before, now };
}

async function main(): Promise<number> {
  try {
    const { dir, ...options } = parseArgs(process.argv.slice(2));
    const { findings, reports } = await runConformance(dir, options);
    for (const f of findings) console.log(formatFinding(f));
    if (findings.length > 0) console.log('');
    for (const line of formatSummary(reports)) console.log(line);
    return findings.length > 0 ? 1 : 0;
  } catch (e) {
    if (e instanceof SuiteError) {
      console.error(`conformance: ${e.message}`);
      return 2;
    }
    console.error(`conformance: ${(e as Error)?.message ?? String(e)}`);
    return 2;
  }
}

if (require.main === module) {
  // a reader that stops early (`| head`) is not a failure of the suite, and no stack trace
  process.stdout.on('error', (e: NodeJS.ErrnoException) => process.exit(e.code === 'EPIPE' ? process.exitCode ?? 0 : 2));
  void main().then((code) => { process.exitCode = code; });
}
