import * as fs from 'fs';
import { createRequire } from 'module';
import * as path from 'path';
import * as YAML from 'yaml';
import { ManifestIssue } from './manifest-issue';

// secretlint (its core and the recommended preset) is ESM-only; this library compiles to
// CommonJS, and Node >= 20.19 can require() ESM. Loaded on first use: only a scan needs it.
type Core = typeof import('@secretlint/core', { with: { 'resolution-mode': 'import' } });
type Preset = typeof import('@secretlint/secretlint-rule-preset-recommend', { with: { 'resolution-mode': 'import' } });

let loaded: { core: Core; preset: Preset } | undefined;

function secretlint(): { core: Core; preset: Preset } {
  if (!loaded) {
    const load = createRequire(__filename);
    loaded = { core: load('@secretlint/core') as Core, preset: load('@secretlint/secretlint-rule-preset-recommend') as Preset };
  }
  return loaded;
}

/** Where a credential was found in a text: never the credential itself. */
export interface SecretFinding {
  /** The secretlint rule that found it, e.g. `@secretlint/secretlint-rule-github`. */
  readonly rule: string;
  /** What the rule found, e.g. `GITHUB_TOKEN`, `PrivateKey` (secretlint's message id). */
  readonly what: string;
  /** 1-based line of the finding's start. */
  readonly line: number;
  /** 1-based column of the finding's start. */
  readonly column: number;
  /** Offset of the finding's start in the text. */
  readonly offset: number;
}

/**
 * The credentials secretlint's recommended preset finds in `text` (GitHub, GitLab, Slack, npm,
 * AWS, GCP and other tokens, private keys, basic-auth URLs, database connection strings, ...),
 * located but never quoted: secretlint's own messages repeat the secret, these do not.
 */
export async function scanTextForSecrets(text: string, fileName = 'inline.txt'): Promise<SecretFinding[]> {
  const { core, preset } = secretlint();
  const result = await core.lintSource({
    source: { filePath: fileName, content: text, contentType: 'text' },
    options: { config: { rules: [{ id: '@secretlint/secretlint-rule-preset-recommend', rule: preset.creator }] } },
  });
  const starts = lineStarts(text);
  return result.messages.map((m) => {
    const offset = m.range[0];
    const line = lineOf(starts, offset);
    return { rule: m.ruleId, what: m.messageId, line: line + 1, column: offset - starts[line] + 1, offset };
  }).sort((a, b) => a.offset - b.offset);
}

/** The files a scan reads below a directory: what a synthesis writes (YAML, the Markdown reports, JSON). */
const SCANNED = /\.(ya?ml|md|json)$/;

/**
 * Scans every YAML, Markdown and JSON file below `dir` (manifests, reports, plans) with
 * secretlint's recommended preset and returns one issue per credential found, naming the file,
 * the object it is in (for YAML) and the line, never the credential. Generated manifests are
 * committed to Git: any finding is a credential that must be referenced instead.
 */
export async function scanForSecrets(dir: string): Promise<ManifestIssue[]> {
  const issues: ManifestIssue[] = [];
  for (const file of listFiles(dir)) {
    const text = fs.readFileSync(file, 'utf8');
    const findings = await scanTextForSecrets(text, path.basename(file));
    if (findings.length === 0) continue;
    const documents = /\.ya?ml$/.test(file) ? yamlDocuments(text) : [];
    for (const f of findings) {
      const doc = documents.find((d) => f.offset >= d.start && f.offset < d.end);
      issues.push({
        source: file,
        apiVersion: doc?.apiVersion ?? '',
        kind: doc?.kind ?? '',
        name: doc?.name ?? '',
        ...doc?.namespace ? { namespace: doc.namespace } : {},
        path: '',
        message: `secret material at line ${f.line} column ${f.column} (secretlint ${f.rule.replace(/^@secretlint\/secretlint-rule-/, '')}: ${f.what}); `
          + 'manifests are committed to Git: reference the credential (a Secret filled by another system, a workload identity) instead',
      });
    }
  }
  return issues;
}

interface DocumentSpan {
  readonly start: number;
  readonly end: number;
  readonly apiVersion: string;
  readonly kind: string;
  readonly name: string;
  readonly namespace?: string;
}

function yamlDocuments(text: string): DocumentSpan[] {
  const spans: DocumentSpan[] = [];
  for (const doc of YAML.parseAllDocuments(text)) {
    if (!('range' in doc) || doc.errors.length > 0) continue;
    const js = doc.toJS() as any;
    spans.push({
      start: doc.range[0],
      end: doc.range[2],
      apiVersion: `${js?.apiVersion ?? ''}`,
      kind: `${js?.kind ?? ''}`,
      name: `${js?.metadata?.name ?? ''}`,
      ...js?.metadata?.namespace ? { namespace: `${js.metadata.namespace}` } : {},
    });
  }
  return spans;
}

function listFiles(dir: string): string[] {
  const files: string[] = [];
  const walk = (current: string): void => {
    for (const entry of fs.readdirSync(current, { withFileTypes: true })) {
      const full = path.join(current, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.isFile() && SCANNED.test(entry.name)) files.push(full);
    }
  };
  walk(dir);
  return files.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}

/** The 0-based line holding `offset` (binary search over the line starts). */
function lineOf(starts: number[], offset: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = Math.floor((lo + hi + 1) / 2);
    if (starts[mid] <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}
