import * as fs from 'fs';
import * as path from 'path';
import { APPLICATIONS_SYNC_POLICIES } from './argocd-transition';
import { activeFreezes, changeRules, ChangeRulesConfig, checkChange } from './change-rules';
import { ManifestSet } from './manifest-set';
import { renderPlan } from './plan-markdown';
import { diffTrees } from './release-diff';
import { ModelOptions } from './release-model';
import { defaultBase, repoRoot, resolveCommit, Scratch, synthesizeBoth, UsageError } from './synth-tree';
import { formatIssues, ManifestIssue } from '../testkit/manifest-issue';
import { validateManifests } from '../testkit/manifest-validator';
import { simulateManifestDirectory } from '../testkit/model/simulate-controllers';

/** Where the CLI writes and what it runs in. */
export interface CliIo {
  readonly cwd: string;
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
}

/** Exit codes. */
export const EXIT_OK = 0;
export const EXIT_VIOLATION = 1;
export const EXIT_USAGE = 2;

const DEFAULT_CONFIG = '.gitops-platform.json';

export const USAGE = `usage:
  cdk8s-gitops-platform plan [--base <git ref>] [--config <file>] [--now <iso time>] [--max-wave-growth <n>]
  cdk8s-gitops-platform plan --base-dir <synthesized dir> --head-dir <synthesized dir> [options]
  cdk8s-gitops-platform validate [dir] [--crds <dir>]

plan      synthesizes the working tree and the base (default: the merge base with the default
          branch), prints the change per app as Markdown; exit 1 when a change standard is broken
validate  checks every YAML file below dir (default: cdk8s.yaml's output, else manifests) against
          the pinned schemas and a model of the live Argo CD, Kargo and Argo Rollouts controllers;
          one line per problem, exit 1 when there is any
exit codes: 0 ok, 1 problems found, 2 usage or synth error`;

/**
 * The checks `validate` runs on a directory, in order: the pinned schemas, then what the live
 * controllers would do with the files (the test kit's model; its finding code ends the message,
 * so a CI log names the modelled behaviour). Each returns issues in the validator's format.
 */
export const DIRECTORY_CHECKS: Array<(dir: string, crdsDir?: string) => ManifestIssue[]> = [
  (dir, crdsDir) => validateManifests(dir, { crdsDir }),
  (dir) => simulateManifestDirectory(dir).map(({ code, ...issue }) => ({ ...issue, message: `${issue.message} (live: ${code})` })),
];

/** Runs the CLI; returns the exit code. Errors meant for the user are printed without a stack. */
export async function run(argv: string[], io: CliIo): Promise<number> {
  try {
    const [command, ...rest] = argv;
    if (command === 'plan') return await plan(parseFlags(rest, ['base', 'base-dir', 'head-dir', 'config', 'now', 'max-wave-growth']), io);
    if (command === 'validate') return validate(parseFlags(rest, ['crds']), io);
    if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
      io.stdout(`${USAGE}\n`);
      return command === undefined ? EXIT_USAGE : EXIT_OK;
    }
    throw new UsageError(`unknown command "${command}"`);
  } catch (e) {
    if (e instanceof UsageError) {
      io.stderr(`error: ${e.message}\n`);
      return EXIT_USAGE;
    }
    // anything else is a bug, but the user still gets one line
    io.stderr(`error: ${(e as Error).message ?? String(e)}\n`);
    return EXIT_USAGE;
  }
}

interface Flags {
  readonly values: Record<string, string>;
  readonly positional: string[];
}

function parseFlags(args: string[], known: string[]): Flags {
  const values: Record<string, string> = {};
  const positional: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (!arg.startsWith('--')) {
      positional.push(arg);
      continue;
    }
    const [name, inline] = arg.slice(2).split(/=(.*)/s, 2);
    if (!known.includes(name)) throw new UsageError(`unknown option --${name}\n${USAGE}`);
    const value = inline ?? args[++i];
    if (value === undefined) throw new UsageError(`--${name} needs a value`);
    values[name] = value;
  }
  return { values, positional };
}

interface PlanConfig extends ModelOptions {
  readonly changeRules?: ChangeRulesConfig;
}

function readConfig(io: CliIo, file: string | undefined): PlanConfig {
  const configFile = file ? path.resolve(io.cwd, file) : path.join(io.cwd, DEFAULT_CONFIG);
  if (!fs.existsSync(configFile)) {
    if (file) throw new UsageError(`config file ${configFile} does not exist`);
    return {};
  }
  try {
    const config = JSON.parse(fs.readFileSync(configFile, 'utf8'));
    if (config === null || typeof config !== 'object' || Array.isArray(config)) throw new Error('not a JSON object');
    return config;
  } catch (e) {
    throw new UsageError(`config file ${configFile} is not valid: ${(e as Error).message}`);
  }
}

async function plan(flags: Flags, io: CliIo): Promise<number> {
  const { values } = flags;
  if (flags.positional.length) throw new UsageError(`plan takes no arguments, got "${flags.positional.join(' ')}"`);
  const config = readConfig(io, values.config);
  let rulesConfig: ChangeRulesConfig = config.changeRules ?? {};
  if (values['max-wave-growth'] !== undefined) {
    const n = Number(values['max-wave-growth']);
    if (!Number.isInteger(n) || n < 0) throw new UsageError(`--max-wave-growth must be a whole number >= 0, got "${values['max-wave-growth']}"`);
    const current = rulesConfig['max-production-wave-growth'];
    rulesConfig = { ...rulesConfig, 'max-production-wave-growth': { ...(typeof current === 'object' ? current : {}), maxClusters: n } };
  }
  let rules;
  try {
    rules = changeRules(rulesConfig);
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  const now = values.now === undefined ? new Date() : new Date(values.now);
  if (Number.isNaN(now.getTime())) throw new UsageError(`--now "${values.now}" is not an ISO time such as 2026-12-24T10:00:00Z`);
  const policy = config.applicationSetPolicy;
  if (policy !== undefined && !APPLICATIONS_SYNC_POLICIES.includes(policy)) {
    throw new UsageError(`config applicationSetPolicy "${String(policy)}" is not an ApplicationSet controller policy (${APPLICATIONS_SYNC_POLICIES.join(', ')})`);
  }
  const options: ModelOptions = { productionStages: config.productionStages, productionTiers: config.productionTiers, applicationSetPolicy: policy };

  const render = (base: ManifestSet, head: ManifestSet, label: string): number => {
    const change = diffTrees(base, head, options);
    const violations = checkChange(change, rules, { now });
    io.stdout(renderPlan(change, violations, label, activeFreezes(change, now)));
    return violations.length ? EXIT_VIOLATION : EXIT_OK;
  };

  if (values['base-dir'] !== undefined || values['head-dir'] !== undefined) {
    if (values['base-dir'] === undefined || values['head-dir'] === undefined) throw new UsageError('--base-dir and --head-dir go together');
    if (values.base !== undefined) throw new UsageError('--base cannot be combined with --base-dir/--head-dir');
    const [baseDir, headDir] = [path.resolve(io.cwd, values['base-dir']), path.resolve(io.cwd, values['head-dir'])];
    for (const dir of [baseDir, headDir]) if (!fs.existsSync(dir)) throw new UsageError(`${dir} does not exist`);
    return render(loadSet(baseDir), loadSet(headDir), values['base-dir']);
  }

  const root = repoRoot(io.cwd);
  const base = values.base !== undefined ? { ref: resolveCommit(root, values.base), label: values.base } : defaultBase(root);
  const scratch = new Scratch();
  try {
    const { baseDir, headDir } = await synthesizeBoth(root, io.cwd, base.ref, scratch);
    return render(loadSet(baseDir), loadSet(headDir), base.label);
  } finally {
    scratch.cleanup();
  }
}

function loadSet(dir: string): ManifestSet {
  try {
    return ManifestSet.load(dir);
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
}

function validate(flags: Flags, io: CliIo): number {
  if (flags.positional.length > 1) throw new UsageError(`validate takes one directory, got "${flags.positional.join(' ')}"`);
  const dir = path.resolve(io.cwd, flags.positional[0] ?? outputDir(io.cwd));
  if (!fs.existsSync(dir) || !fs.statSync(dir).isDirectory()) throw new UsageError(`${dir} is not a directory`);
  const crdsDir = flags.values.crds === undefined ? undefined : path.resolve(io.cwd, flags.values.crds);
  let issues: ManifestIssue[];
  try {
    issues = DIRECTORY_CHECKS.flatMap((check) => check(dir, crdsDir));
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  // sources relative to where the command runs: short lines, the same on every machine
  const relative = issues.map((i) => ({ ...i, source: path.relative(io.cwd, i.source) || i.source }));
  if (relative.length) io.stdout(`${formatIssues(relative)}\n`);
  const files = new Set(relative.map((i) => i.source)).size;
  io.stderr(relative.length ? `${relative.length} problem(s) in ${files} file(s) below ${path.relative(io.cwd, dir) || '.'}\n` : `no problems below ${path.relative(io.cwd, dir) || '.'}\n`);
  return relative.length ? EXIT_VIOLATION : EXIT_OK;
}

function outputDir(cwd: string): string {
  const configFile = path.join(cwd, 'cdk8s.yaml');
  if (fs.existsSync(configFile)) {
    const match = /^output:\s*(\S+)\s*$/m.exec(fs.readFileSync(configFile, 'utf8'));
    if (match) return match[1];
  }
  return 'manifests';
}
