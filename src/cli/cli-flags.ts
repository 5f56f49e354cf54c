import * as fs from 'fs';
import * as path from 'path';
import { UsageError } from './synth-tree';
import { closestOf } from '../util/closest';
import { describe } from '../util/errors';

/** One option of a command: `--name <value>`, or a switch when `value` is absent. */
export interface FlagSpec {
  readonly name: string;
  /** The placeholder of the value in the usage; a switch (no value) when absent. */
  readonly value?: string;
  readonly help: string;
}

/** A command: its synopsis lines, what it does, its options. */
export interface CommandSpec {
  readonly name: string;
  readonly synopsis: string[];
  readonly description: string;
  readonly flags: FlagSpec[];
  /**
   * The command's exit codes, when they are not the plan's and validate's.
   * @default EXIT_CODES
   */
  readonly exitCodes?: string;
}

const HELP: FlagSpec = { name: 'help', help: 'print this usage and exit 0' };
const QUIET: FlagSpec = { name: 'quiet', help: 'no progress on stderr (it is also off when stderr is not a terminal)' };
const JSON_FLAG: FlagSpec = { name: 'json', help: 'print the result as JSON (schemaVersion 1, see docs/reviewing-and-operating.md) instead of text' };

/** The exit codes, as the usage and the README state them. */
export const EXIT_CODES = `exit codes (default): 0 no problem, 1 a change standard or validation broken, 2 usage or synth error
exit codes with --detailed-exitcode (plan, as terraform plan -detailed-exitcode): 0 no changes,
  1 error or a change standard broken, 2 changes that break no standard`;

export const PLAN: CommandSpec = {
  name: 'plan',
  synopsis: [
    'cdk8s-gitops-platform plan [--base <git ref>] [options]',
    'cdk8s-gitops-platform plan --base-dir <synthesized dir> --head-dir <synthesized dir> [options]',
  ],
  description: 'synthesizes the working tree and the base (default: the merge base with the default branch; a base\n'
    + 'without cdk8s.yaml or without any commit plans as "everything added") and prints the change per app as\n'
    + 'Markdown: stages, waves, clusters, objects, change standards, risks and active freezes',
  flags: [
    { name: 'base', value: 'git ref', help: 'the commit to compare with (default: the merge base with origin/HEAD, main or master)' },
    { name: 'base-dir', value: 'dir', help: 'compare two synthesized directories instead of synthesizing (with --head-dir)' },
    { name: 'head-dir', value: 'dir', help: 'the synthesized directory of the change (with --base-dir)' },
    { name: 'config', value: 'file', help: 'the JSON configuration (default: .gitops-platform.json in the working directory, if any)' },
    { name: 'now', value: 'iso time', help: 'evaluate sync windows (freezes) at this time instead of now, e.g. 2026-12-24T10:00:00Z' },
    { name: 'max-wave-growth', value: 'n', help: 'max-production-wave-growth: clusters a change may add to one production wave (default 5)' },
    { name: 'risk-clusters', value: 'n', help: 'flag a change that touches more than n clusters (default 10)' },
    { name: 'risk-apps', value: 'n', help: 'flag a change that touches more than n apps (default 5)' },
    { name: 'detailed-exitcode', help: '0 no changes, 1 error or broken standard, 2 changes (terraform plan -detailed-exitcode)' },
    JSON_FLAG,
    { name: 'comment', help: 'PR-comment mode: a hidden marker for sticky comments, at most 65,536 characters' },
    { name: 'report', value: 'file', help: 'also write the full Markdown to this file (the comment points to it when it is cut)' },
    QUIET,
    HELP,
  ],
};

export const VALIDATE: CommandSpec = {
  name: 'validate',
  synopsis: ['cdk8s-gitops-platform validate [dir] [options]'],
  description: 'checks every YAML file below dir (default: cdk8s.yaml\'s output, else manifests) against the pinned\n'
    + 'schemas and a model of the live Argo CD, Kargo and Argo Rollouts controllers; one line per problem',
  flags: [
    { name: 'crds', value: 'dir', help: 'validate against the CRDs in this directory instead of the bundled schemas' },
    { name: 'skip-kind', value: 'kind', help: 'do not check objects of this kind (repeatable, or comma-separated)' },
    { name: 'ignore-missing-schemas', help: 'no problem for a custom resource whose schema is unknown (listed as unchecked)' },
    JSON_FLAG,
    QUIET,
    HELP,
  ],
};

export const VERSION: CommandSpec = {
  name: 'version',
  synopsis: ['cdk8s-gitops-platform version', 'cdk8s-gitops-platform --version'],
  description: 'prints the version of the package',
  flags: [HELP],
};

export const STATUS: CommandSpec = {
  name: 'status',
  synopsis: ['cdk8s-gitops-platform status [--release-repo <path or url>] [--app|--stage|--cluster <filter>] [--has|--lacks <artifact>@<version>] [--live] [options]'],
  description: 'reads the release record back: for each app, stage, wave and cluster, the Freight and artifact versions its\n'
    + 'release branch renders, when they were promoted and how many promotions ago the cluster last changed; clusters the\n'
    + 'synthesized plan targets but no branch renders yet, and folders left for clusters no longer targeted there. With\n'
    + '--live, Argo CD\'s sync, health and synced revision and Kargo\'s Freight per Stage, with drift flagged. Reads only',
  flags: [
    { name: 'release-repo', value: 'path or url', help: 'read this clone (in place) or URL (fetched into a temporary repository) instead of the apps\' own release repositories; <apps\' url>=<path or url> for one of several' },
    { name: 'dir', value: 'synthesized dir', help: 'read the plan from this synthesized directory instead of synthesizing the working tree' },
    { name: 'app', value: 'name', help: 'only these apps (repeatable, comma-separated, * globs)' },
    { name: 'stage', value: 'name', help: 'only these pipeline stages, waves or Kargo Stages (repeatable, comma-separated, * globs)' },
    { name: 'cluster', value: 'name or selector', help: 'only these clusters (names, * globs) and label selector terms as kubectl -l writes them (tier=prod, ring!=canary, region in (a,b))' },
    { name: 'has', value: 'artifact@version', help: 'list the selected clusters that have this release (image tag or digest, chart version, commit); exit 1 unless all have it' },
    { name: 'lacks', value: 'artifact@version', help: 'list the selected clusters that lack this release, with what they have; exit 1 unless all have it' },
    { name: 'history', value: 'n', help: 'commits read per release branch (default 50): a folder unchanged for longer reads "at least n promotions ago"' },
    { name: 'live', help: 'also read Argo CD Applications and Kargo Stages on the hub (read only) and flag drift; exit 1 on drift' },
    { name: 'kubeconfig', value: 'file', help: 'the hub\'s kubeconfig for --live (default: $KUBECONFIG, else ~/.kube/config)' },
    { name: 'context', value: 'name', help: 'the kubeconfig context for --live (default: its current-context)' },
    { ...JSON_FLAG, help: 'print the result as JSON (schemaVersion 1, src/cli/status-output.schema.json) instead of Markdown' },
    QUIET,
    HELP,
  ],
  exitCodes: `exit codes: 0 the answer is yes (every selected cluster has the --has/--lacks release; with --live, no drift;
  without either, the report was written), 1 some selected cluster lacks the release or drifts, 2 usage, git or API error`,
};

export const COMMANDS: CommandSpec[] = [PLAN, VALIDATE, STATUS, VERSION];

/** The usage of one command: synopsis, description, every option, exit codes. */
export function usageOf(command: CommandSpec): string {
  const width = Math.max(...command.flags.map((f) => flagLabel(f).length));
  return [
    'usage:',
    ...command.synopsis.map((s) => `  ${s}`),
    '',
    command.description,
    '',
    'options:',
    ...command.flags.map((f) => `  ${flagLabel(f).padEnd(width)}  ${f.help}`),
    '',
    command.exitCodes ?? EXIT_CODES,
  ].join('\n');
}

/** The overview: every command in one line each. */
export const USAGE = `usage:
${COMMANDS.flatMap((c) => c.synopsis).map((s) => `  ${s}`).join('\n')}

plan      the change per app as Markdown (or JSON), with change standards and risks
validate  the pinned schemas and the live controllers' model on a directory of YAML
status    what runs where: each cluster's release from the release branches (and, with --live, the hub)
version   the package version

\`cdk8s-gitops-platform <command> --help\` documents every option.
${EXIT_CODES}`;

function flagLabel(f: FlagSpec): string {
  return f.value ? `--${f.name} <${f.value}>` : `--${f.name}`;
}

/** Parsed options: values by name (repeatable ones joined by commas), switches, positional arguments. */
export interface Flags {
  readonly values: Record<string, string>;
  readonly switches: Set<string>;
  readonly positional: string[];
}

/** Parses `--name value`, `--name=value` and switches; an unknown option is a usage error naming the command's usage. */
export function parseFlags(args: string[], command: CommandSpec): Flags {
  const values: Record<string, string> = {};
  const switches = new Set<string>();
  const positional: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === '-h') {
      switches.add('help');
      continue;
    }
    if (!arg.startsWith('--')) {
      positional.push(arg);
      continue;
    }
    const [name, inline] = arg.slice(2).split(/=(.*)/s, 2);
    const spec = command.flags.find((f) => f.name === name);
    if (!spec) {
      const near = closestOf(name, command.flags.map((f) => f.name));
      throw new UsageError(describe(`${command.name} option`, `--${name}`, 'is unknown',
        `${near ? `did you mean --${near}? ` : ''}\`cdk8s-gitops-platform ${command.name} --help\` lists them`));
    }
    if (!spec.value) {
      if (inline !== undefined) throw new UsageError(describe(`--${name}`, inline, 'takes no value', `write --${name} alone`));
      switches.add(name);
      continue;
    }
    const value = inline ?? args[++i];
    if (value === undefined) throw new UsageError(describe(`--${name}`, undefined, 'needs a value', `write --${name} <${spec.value}>`));
    values[name] = values[name] === undefined ? value : `${values[name]},${value}`;
  }
  return { values, switches, positional };
}

/** A whole number >= 0 from an option, or `fallback` when it is absent. */
export function countFlag(flags: Flags, name: string, fallback: number): number {
  const raw = flags.values[name];
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0 || raw.trim() === '') throw new UsageError(describe(`--${name}`, raw, 'must be a whole number >= 0', `write e.g. --${name} 3`));
  return n;
}

/** The version of this package: the `package.json` above this file (src/cli or lib/src/cli). */
export function packageVersion(): string {
  for (let dir = __dirname; ; dir = path.dirname(dir)) {
    const file = path.join(dir, 'package.json');
    if (fs.existsSync(file)) {
      const pkg = JSON.parse(fs.readFileSync(file, 'utf8'));
      if (pkg.name === 'cdk8s-gitops-platform') return String(pkg.version);
    }
    if (path.dirname(dir) === dir) return 'unknown';
  }
}
