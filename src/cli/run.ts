import * as fs from 'fs';
import * as path from 'path';
import { APPLICATIONS_SYNC_POLICIES } from './argocd-transition';
import { activeFreezes, ChangeRule, changeRules, ChangeRulesConfig, checkChange } from './change-rules';
import { Flags, countFlag, packageVersion, parseFlags, PLAN, STATUS, USAGE, usageOf, VALIDATE, VERSION } from './cli-flags';
import { loadPair, ManifestPair } from './manifest-pair';
import { ManifestSet } from './manifest-set';
import { planOutput } from './plan-json';
import { renderComment, renderPlan } from './plan-markdown';
import { Progress } from './progress';
import { diffTrees, PlanChange } from './release-diff';
import { ModelOptions } from './release-model';
import { riskFlags, RiskOptions } from './risk-flags';
import { status } from './status/status-command';
import { defaultBase, hasCommit, repoRoot, resolveCommit, Scratch, synthesizeBoth, UsageError } from './synth-tree';
import { validate } from './validate-command';
import { closestOf } from '../util/closest';
import { describe, show, within } from '../util/errors';
import { redactSecrets } from '../util/redact';

export { DIRECTORY_CHECKS } from './validate-command';
export { USAGE } from './cli-flags';

/**
 * Where the command line writes and what it runs in: `main.ts` passes the process's own, a
 * script or test passes its own to capture the output.
 */
export interface CliIo {
  /** The working directory: where `cdk8s.yaml`, `.gitops-platform.json` and the git repository are looked for. */
  readonly cwd: string;
  /** Receives what the command prints (the plan, the JSON, the validation lines), in pieces. */
  readonly stdout: (text: string) => void;
  /** Receives errors (`error: …`), summaries and progress, in pieces. */
  readonly stderr: (text: string) => void;
  /**
   * Whether stderr is a terminal: progress is shown only then.
   * @default false
   */
  readonly stderrIsTty?: boolean;
}

// Exit codes. By default 0 unless there are problems: pipelines written for the first version
// keep working, and `validate` has no "changes". `plan --detailed-exitcode` follows terraform plan
// `-detailed-exitcode` instead (0 no changes, 1 error, 2 changes), with a broken change standard
// counted as an error: a pipeline that already branches on terraform's codes reuses its logic.
// Not `cdk diff --fail`'s single 1 for "differences", which cannot tell a change from a crash.

/** No problem (and, with `--detailed-exitcode`, no change). */
export const EXIT_OK = 0;
/** A change standard (`plan`) or a validation (`validate`) broken. */
export const EXIT_VIOLATION = 1;
/** A usage error, or a synth that failed. */
export const EXIT_USAGE = 2;
/** With `--detailed-exitcode`: an error or a broken change standard. */
export const EXIT_DETAILED_ERROR = 1;
/** With `--detailed-exitcode`: changes that break no standard. */
export const EXIT_DETAILED_CHANGES = 2;

const DEFAULT_CONFIG = '.gitops-platform.json';

/**
 * Runs the command line as `cdk8s-gitops-platform <argv…>` would (`plan`, `validate`, `status`,
 * `version`, `--help`), writing to `output`; resolves to the exit code (`EXIT_*`). Errors meant for
 * the user are printed to `output.stderr` without a stack, and never reject the promise.
 * Everything it prints (the plan's Markdown and JSON, validation findings, errors, progress)
 * passes through the library's one redaction rule: the manifests it reads may hold a credential
 * (a hand edit, an older synthesis), and a CI log must not repeat it.
 */
export async function run(argv: string[], output: CliIo): Promise<number> {
  const io: CliIo = { ...output, stdout: text => output.stdout(redactSecrets(text)), stderr: text => output.stderr(redactSecrets(text)) };
  const [command, ...rest] = argv;
  const errorCode = command === 'plan' && rest.includes('--detailed-exitcode') ? EXIT_DETAILED_ERROR : EXIT_USAGE;
  try {
    if (command === '--version' || command === '-V' || command === 'version') {
      if (command === 'version' && parseFlags(rest, VERSION).switches.has('help')) return help(io, usageOf(VERSION));
      io.stdout(`${packageVersion()}\n`);
      return EXIT_OK;
    }
    if (command === 'plan') {
      const flags = parseFlags(rest, PLAN);
      return flags.switches.has('help') ? help(io, usageOf(PLAN)) : await plan(flags, io);
    }
    if (command === 'validate') {
      const flags = parseFlags(rest, VALIDATE);
      return flags.switches.has('help') ? help(io, usageOf(VALIDATE)) : await validate(flags, io);
    }
    if (command === 'status') {
      const flags = parseFlags(rest, STATUS);
      return flags.switches.has('help') ? help(io, usageOf(STATUS)) : await status(flags, io);
    }
    if (command === 'help') {
      if (rest[0] === undefined) return help(io, USAGE);
      const spec = [PLAN, VALIDATE, STATUS, VERSION].find((c) => c.name === rest[0]);
      if (!spec) throw unknownCommand(rest[0]);
      return help(io, usageOf(spec));
    }
    if (command === undefined || command === '--help' || command === '-h') {
      io.stdout(`${USAGE}\n`);
      return command === undefined ? EXIT_USAGE : EXIT_OK;
    }
    throw unknownCommand(command);
  } catch (e) {
    // a UsageError is meant for the user; anything else is a bug, but the user still gets one line
    io.stderr(`error: ${(e as Error).message ?? String(e)}\n`);
    return errorCode;
  }
}

/** The usage error of a command that does not exist, with the nearest one that does. */
function unknownCommand(command: string): UsageError {
  const near = closestOf(command, [PLAN, VALIDATE, STATUS, VERSION].map((c) => c.name).concat('help'));
  return new UsageError(describe('command', command, 'is unknown', `${near ? `did you mean ${near}? ` : ''}\`cdk8s-gitops-platform --help\` lists the commands`));
}

function help(io: CliIo, usage: string): number {
  io.stdout(`${usage}\n`);
  return EXIT_OK;
}

interface PlanConfig extends ModelOptions {
  readonly changeRules?: ChangeRulesConfig;
  readonly risks?: RiskOptions;
}

function readConfig(io: CliIo, file: string | undefined): PlanConfig {
  const configFile = file ? path.resolve(io.cwd, file) : path.join(io.cwd, DEFAULT_CONFIG);
  if (!fs.existsSync(configFile)) {
    if (file) throw new UsageError(describe('config file', configFile, 'does not exist', 'create it or pass another --config'));
    return {};
  }
  let config: unknown;
  try {
    config = JSON.parse(fs.readFileSync(configFile, 'utf8'));
  } catch (e) {
    throw new UsageError(within(`config file ${show(configFile)}`, describe('content', (e as Error).message, 'is not valid JSON', 'fix the JSON')));
  }
  if (config === null || typeof config !== 'object' || Array.isArray(config)) {
    throw new UsageError(within(`config file ${show(configFile)}`, describe('content', config, 'must be a JSON object', 'write { "changeRules": { ... } }')));
  }
  return config;
}

/** The rules, the time and the model options of a plan, from the config file and the flags. */
function planSettings(flags: Flags, io: CliIo): { rules: ChangeRule[]; now: Date; options: ModelOptions; risks: RiskOptions } {
  const { values } = flags;
  const config = readConfig(io, values.config);
  let rulesConfig: ChangeRulesConfig = config.changeRules ?? {};
  if (values['max-wave-growth'] !== undefined) {
    const n = countFlag(flags, 'max-wave-growth', 0);
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
  if (Number.isNaN(now.getTime())) throw new UsageError(describe('--now', values.now, 'is not an ISO time', 'use e.g. 2026-12-24T10:00:00Z'));
  const policy = config.applicationSetPolicy;
  if (policy !== undefined && !APPLICATIONS_SYNC_POLICIES.includes(policy)) {
    throw new UsageError(describe('config applicationSetPolicy', policy, 'is not an ApplicationSet controller policy',
      `use one of ${APPLICATIONS_SYNC_POLICIES.map(p => show(p)).join(', ')}`));
  }
  const risks: RiskOptions = {
    maxClusters: countFlag(flags, 'risk-clusters', config.risks?.maxClusters ?? 10),
    maxApps: countFlag(flags, 'risk-apps', config.risks?.maxApps ?? 5),
  };
  const options: ModelOptions = { productionStages: config.productionStages, productionTiers: config.productionTiers, applicationSetPolicy: policy };
  return { rules, now, options, risks };
}

async function plan(flags: Flags, io: CliIo): Promise<number> {
  const { values, switches } = flags;
  if (flags.positional.length) throw new UsageError(describe('plan', flags.positional.join(' '), 'takes no arguments', '`cdk8s-gitops-platform plan --help` lists its options'));
  if (switches.has('json') && switches.has('comment')) throw new UsageError(describe('--json and --comment', 'both', 'are two outputs', 'choose one', String));
  const { rules, now, options, risks: riskOptions } = planSettings(flags, io);

  const render = (base: ManifestSet, head: ManifestSet, label: string, note?: string): number => {
    const change = diffTrees(base, head, options);
    const violations = checkChange(change, rules, { now });
    const freezes = activeFreezes(change, now);
    const risks = riskFlags(change, riskOptions);
    const extras = { risks, note };
    const markdown = renderPlan(change, violations, label, freezes, extras);
    if (values.report !== undefined) fs.writeFileSync(path.resolve(io.cwd, values.report), redactSecrets(markdown));
    if (switches.has('json')) io.stdout(`${JSON.stringify(planOutput(change, label, rules, violations, risks, freezes, note), null, 2)}\n`);
    else if (switches.has('comment')) io.stdout(renderComment(change, violations, label, freezes, { ...extras, reportFile: values.report }));
    else io.stdout(markdown);
    return exitCode(change, violations.length > 0, switches.has('detailed-exitcode'));
  };

  if (values['base-dir'] !== undefined || values['head-dir'] !== undefined) {
    if (values['base-dir'] === undefined || values['head-dir'] === undefined) {
      throw new UsageError(describe('--base-dir and --head-dir', values['base-dir'] === undefined ? 'only --head-dir' : 'only --base-dir', 'go together',
        'pass both', String));
    }
    if (values.base !== undefined) throw new UsageError(describe('--base', values.base, 'cannot be combined with --base-dir/--head-dir', 'drop one of them'));
    const [baseDir, headDir] = [path.resolve(io.cwd, values['base-dir']), path.resolve(io.cwd, values['head-dir'])];
    for (const dir of [baseDir, headDir]) if (!fs.existsSync(dir)) throw new UsageError(describe('directory', dir, 'does not exist', 'pass existing directories to --base-dir and --head-dir'));
    const pair = loadBoth(baseDir, headDir);
    return render(pair.base, pair.head, values['base-dir']);
  }

  const root = repoRoot(io.cwd);
  const base = values.base !== undefined ? { ref: resolveCommit(root, values.base), label: values.base }
    : hasCommit(root) ? defaultBase(root) : { ref: undefined, label: 'an empty repository' };
  const scratch = new Scratch();
  const progress = new Progress(io, switches.has('quiet'));
  try {
    const trees = await progress.around(`synthesizing the working tree and ${base.label}`, () => synthesizeBoth(root, io.cwd, base.ref, scratch));
    const pair = loadBoth(trees.baseDir, trees.headDir);
    return render(pair.base, pair.head, base.label, trees.note);
  } finally {
    progress.stop();
    scratch.cleanup();
  }
}

/** The exit code of a plan (see `EXIT_*`). */
function exitCode(change: PlanChange, broken: boolean, detailed: boolean): number {
  if (!detailed) return broken ? EXIT_VIOLATION : EXIT_OK;
  if (broken) return EXIT_DETAILED_ERROR;
  return change.apps.length > 0 || change.fleet ? EXIT_DETAILED_CHANGES : EXIT_OK;
}

function loadBoth(baseDir: string | undefined, headDir: string): ManifestPair {
  try {
    return loadPair(baseDir, headDir);
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
}
