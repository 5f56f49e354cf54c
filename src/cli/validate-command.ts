import * as fs from 'fs';
import * as path from 'path';
import * as YAML from 'yaml';
import { Flags } from './cli-flags';
import { OUTPUT_SCHEMA_VERSION, ValidateIssueOutput, ValidateOutput } from './plan-json';
import { Progress } from './progress';
import { UsageError } from './synth-tree';
import { formatIssues, ManifestIssue } from '../testkit/manifest-issue';
import { validateManifests } from '../testkit/manifest-validator';
import { simulateManifestDirectory } from '../testkit/model/simulate-controllers';
import { scanForSecrets } from '../testkit/secret-scan';
import { listYamlFiles } from '../testkit/yaml-files';
import { describe } from '../util/errors';

/** What `validate` writes to. */
export interface ValidateIo {
  readonly cwd: string;
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  /** Whether stderr is a terminal (progress). */
  readonly stderrIsTty?: boolean;
}

/**
 * The checks `validate` runs on a directory, in order: the pinned schemas, then what the live
 * controllers would do with the files (the test kit's model; its finding code ends the message,
 * so a CI log names the modelled behaviour). Each returns issues in the validator's format.
 */
export const DIRECTORY_CHECKS: Array<(dir: string, crdsDir?: string) => ManifestIssue[]> = [
  (dir, crdsDir) => validateManifests(dir, { crdsDir }),
  (dir) => simulateManifestDirectory(dir).map(({ code, ...issue }) => ({ ...issue, message: `${issue.message} (live: ${code})` })),
];

/**
 * Model findings that depend on what the files do not hold (the chart, the cluster's API
 * versions): the live system may be fine, so they warn. Every other finding is a live break.
 */
export const WARNING_CODES = ['helm-template-capabilities'];

const NO_SCHEMA = /^no pinned schema for /;
const LIVE_CODE = / \(live: ([a-z0-9-]+)\)$/;

/**
 * Whether an apiVersion belongs to Kubernetes itself (the core group, `apps`, `batch`, … and
 * `*.k8s.io`): the package pins no schema for most of those kinds (Deployment, Service…), and
 * the API server checks them on apply, so `validate` lists them as unchecked, never as errors.
 */
export function isKubernetesApi(apiVersion: string): boolean {
  if (!apiVersion.includes('/')) return true;
  const group = apiVersion.split('/')[0];
  return ['apps', 'batch', 'autoscaling', 'policy'].includes(group) || group.endsWith('.k8s.io');
}

/** `validate [dir]`: see the usage. */
export async function validate(flags: Flags, io: ValidateIo): Promise<number> {
  if (flags.positional.length > 1) {
    throw new UsageError(describe('validate', flags.positional.join(' '), 'takes one directory', 'pass one, or none for the cdk8s output directory'));
  }
  const dir = path.resolve(io.cwd, flags.positional[0] ?? outputDir(io.cwd));
  if (!fs.existsSync(dir) || !fs.statSync(dir).isDirectory()) throw new UsageError(describe('directory', dir, 'does not exist or is not a directory', 'pass the directory cdk8s synth wrote'));
  const crdsDir = flags.values.crds === undefined ? undefined : path.resolve(io.cwd, flags.values.crds);
  const skip = new Set((flags.values['skip-kind'] ?? '').split(',').map((k) => k.trim()).filter(Boolean));
  let raw: ManifestIssue[];
  try {
    const progress = new Progress(io, flags.switches.has('quiet'));
    raw = progress.aroundSync(`validating ${path.relative(io.cwd, dir) || '.'}`, () => DIRECTORY_CHECKS.flatMap((check) => check(dir, crdsDir)));
    // every file a synthesis writes, reports included, through a well-kept scanner's rules
    raw.push(...await progress.around(`scanning ${path.relative(io.cwd, dir) || '.'} for secrets`, () => scanForSecrets(dir)));
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  const unchecked = new Map<string, number>();
  for (const kind of skip) {
    const n = countKind(dir, kind);
    if (n) unchecked.set(kind, n);
  }
  const issues: ValidateIssueOutput[] = [];
  for (const issue of raw) {
    if (skip.has(issue.kind)) continue;
    if (NO_SCHEMA.test(issue.message) && (isKubernetesApi(issue.apiVersion) || flags.switches.has('ignore-missing-schemas'))) {
      unchecked.set(issue.kind, (unchecked.get(issue.kind) ?? 0) + 1);
      continue;
    }
    const code = LIVE_CODE.exec(issue.message)?.[1];
    // sources relative to where the command runs: short lines, the same on every machine
    const source = path.relative(io.cwd, issue.source) || issue.source;
    issues.push({ ...issue, source, severity: code && WARNING_CODES.includes(code) ? 'warning' : 'error', ...(code ? { code } : {}) });
  }
  const errors = issues.filter((i) => i.severity === 'error');
  const warnings = issues.filter((i) => i.severity === 'warning');
  const where = path.relative(io.cwd, dir) || '.';
  if (flags.switches.has('json')) {
    const output: ValidateOutput = {
      schemaVersion: OUTPUT_SCHEMA_VERSION,
      command: 'validate',
      directory: where,
      issues,
      unchecked: Object.fromEntries([...unchecked].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))),
      errors: errors.length,
      warnings: warnings.length,
    };
    io.stdout(`${JSON.stringify(output, null, 2)}\n`);
  } else {
    if (errors.length) io.stdout(`${formatIssues(errors)}\n`);
    if (warnings.length) io.stdout(`${formatIssues(warnings).split('\n').map((l) => `warning: ${l}`).join('\n')}\n`);
  }
  const files = new Set(errors.map((i) => i.source)).size;
  const notes = [
    warnings.length ? `${warnings.length} warning(s)` : '',
    unchecked.size ? `unchecked: ${[...unchecked].map(([kind, n]) => `${n} ${kind}`).join(', ')}` : '',
  ].filter(Boolean).map((n) => `; ${n}`).join('');
  io.stderr(errors.length ? `${errors.length} problem(s) in ${files} file(s) below ${where}${notes}\n` : `no problems below ${where}${notes}\n`);
  return errors.length ? 1 : 0;
}

/** How many objects of a kind the directory holds (documents that do not parse are skipped). */
function countKind(dir: string, kind: string): number {
  let n = 0;
  for (const file of listYamlFiles(dir)) {
    for (const doc of YAML.parseAllDocuments(fs.readFileSync(file, 'utf8'))) {
      if (doc.errors.length === 0 && doc.toJS()?.kind === kind) n++;
    }
  }
  return n;
}

function outputDir(cwd: string): string {
  const configFile = path.join(cwd, 'cdk8s.yaml');
  if (fs.existsSync(configFile)) {
    const match = /^output:\s*(\S+)\s*$/m.exec(fs.readFileSync(configFile, 'utf8'));
    if (match) return match[1];
  }
  return 'manifests';
}
