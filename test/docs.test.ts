import * as fs from 'fs';
import * as path from 'path';
import { describe, expect, test } from 'vitest';
import { DOC_FACTS } from './support/doc-facts';
import { docOutputs, withoutOutputs } from './support/doc-outputs';

// The user documentation: README.md (the front door) and docs/*.md (a page per topic), and the
// maintainers' pages. Every code block in them is code that runs: it is preceded by a marker
// naming where it comes from, and this test holds it to that source:
//   <!-- file: PATH -->     the block is the whole file PATH (an example CI runs, a config file)
//   <!-- excerpt: PATH -->  the block's lines appear in PATH, in a row (indentation aside): code of
//                           the example platform in apps/ (synthesized and checked by the tests),
//                           of a test, or an output the tests pin (a snapshot, manifests/)
//   <!-- run: JOB -->       shell commands the CI job .ci/jobs/JOB runs as they are written (the job
//                           calls `doc_commands <this page> JOB`, which runs every such block)
//   <!-- manual: WHY -->    in the maintainers' pages only (CONTRIBUTING.md, ARCHITECTURE.md): a
//                           maintainer's command that needs what CI cannot have (publishing
//                           credentials), or the drawing of what a test enforces
//   <!-- output: TEST -->   an output the test TEST produces and compares with the block
// A command's output shown as it renders (Markdown the command writes) sits between
// `<!-- rendered: TEST -->` and `<!-- /rendered -->`: TEST runs the command and compares it with
// the page (test/support/doc-outputs.ts), so its figures are checked there.
// And no figure without a check: every number in the prose is one of DOC_FACTS (computed from the
// code or its output) or a version the project pins.
const ROOT = path.join(__dirname, '..');
const README = 'README.md';
const PAGES = [
  README,
  'CONTRIBUTING.md',
  'ARCHITECTURE.md',
  'CONFORMANCE-PROTOCOL.md',
  ...fs.readdirSync(path.join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).sort().map((f) => `docs/${f}`),
];

/** The page's text; a command's output it shows is its test's to check (test/support/doc-outputs.ts). */
function checkedText(page: string): string {
  return withoutOutputs(read(page));
}

interface Block {
  readonly page: string;
  readonly line: number;
  readonly marker?: string;
  readonly lang: string;
  readonly text: string;
}

function blocks(page: string): Block[] {
  const lines = checkedText(page).split('\n');
  const found: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\S*)\s*$/.exec(lines[i]);
    if (!open) continue;
    let end = i + 1;
    while (end < lines.length && lines[end] !== '```') end++;
    let before = i - 1;
    while (before >= 0 && lines[before].trim() === '') before--;
    const marker = before >= 0 ? /^<!-- ((?:file|excerpt|run|output): \S+|manual: .+) -->$/.exec(lines[before])?.[1] : undefined;
    found.push({ page, line: i + 1, marker, lang: open[1], text: lines.slice(i + 1, end).join('\n') + '\n' });
    i = end;
  }
  return found;
}

/** The text of the test file `file` if it names `page` (a test compares outputs with the pages it names). */
function comparesWith(file: string, page: string): string {
  const text = read(file);
  return text.includes(`'${page}'`) ? text : '';
}

function read(file: string): string {
  return fs.readFileSync(path.join(ROOT, file), 'utf8');
}

/** The lines of `block` appear in `source` in a row, each with the same indentation added. */
function isExcerpt(block: string, source: string): boolean {
  const want = block.replace(/\n$/, '').split('\n');
  const have = source.split('\n');
  for (let start = 0; start + want.length <= have.length; start++) {
    const indent = have[start].length - have[start].trimStart().length - (want[0].length - want[0].trimStart().length);
    if (indent < 0) continue;
    const pad = have[start].slice(0, indent);
    if (want.every((line, k) => (line === '' ? have[start + k].trim() === '' : have[start + k] === pad + line))) return true;
  }
  return false;
}

/** The prose of a page: no code blocks, no inline code, no link targets, no HTML comments. */
function prose(page: string): string {
  return checkedText(page)
    .replace(/^```[\s\S]*?^```$/gm, '')
    .replace(/`[^`]*`/g, '')
    .replace(/\]\([^)]*\)/g, ']')
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/^\s*\d+\. /gm, '');
}

describe.each(PAGES)('%s', (page) => {
  test.each(blocks(page).map((b) => [`line ${b.line}`, b] as const))('the code block at %s comes from code that runs', (_, block) => {
    expect(block.marker, `${page}:${block.line}: a code block needs a <!-- file|excerpt|run: ... --> marker`).toBeDefined();
    const [kind, target] = block.marker!.split(': ');
    if (kind === 'manual') {
      expect(['CONTRIBUTING.md', 'ARCHITECTURE.md']).toContain(page);
      return;
    }
    if (kind === 'run') {
      const job = path.join('.ci', 'jobs', target);
      expect(fs.existsSync(path.join(ROOT, job)), `${job} exists`).toBe(true);
      expect(read(job)).toContain(`doc_commands ${page} ${target}`);
      expect(block.lang).toBe('sh');
      return;
    }
    expect(fs.existsSync(path.join(ROOT, target)), `${target} exists`).toBe(true);
    if (kind === 'output') expect(comparesWith(target, page), `${target} compares its output with ${page}`).toContain('outputBlocks(');
    else if (kind === 'file') expect(block.text).toBe(read(target));
    else expect(isExcerpt(block.text, read(target)), `${page}:${block.line}: not an excerpt of ${target}:\n${block.text}`).toBe(true);
  });

  test('every output it shows as rendered is compared with the command\'s own by the test it names', () => {
    const regions = read(page).split('\n').filter((l) => /^<!-- \/?rendered/.test(l));
    expect(regions.length, `${page}: every <!-- rendered: TEST --> is closed by <!-- /rendered -->`).toBe(docOutputs(page).length * 2);
    for (const shown of docOutputs(page)) {
      expect(fs.existsSync(path.join(ROOT, shown.test)), `${page}:${shown.line}: ${shown.test} exists`).toBe(true);
      expect(comparesWith(shown.test, page), `${page}:${shown.line}: ${shown.test} compares its outputs with ${page}`).toContain('docOutputs(');
    }
  });

  test('every relative link leads to a file of the repository', () => {
    const links = [...read(page).matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)].map((m) => m[1]).filter((l) => !/^[a-z]+:/.test(l));
    for (const link of links) {
      expect(fs.existsSync(path.join(ROOT, path.dirname(page), link)), `${page} links to ${link}`).toBe(true);
    }
  });

  test('every figure in the prose is checked against the code or its output', () => {
    let text = prose(page);
    for (const fact of DOC_FACTS) {
      for (const match of text.matchAll(new RegExp(fact.pattern, 'g'))) {
        const value = fact.value(match);
        expect(typeof value === 'string' ? [value] : value, `${page}: "${match[0]}"`).toContain(match.groups?.figure ?? match[1]);
      }
      text = text.replace(new RegExp(fact.pattern, 'g'), '');
    }
    // what remains may name versions and Kubernetes/API identifiers, not figures (a number with a
    // unit after it, 1.46 MB, is a figure however it is written)
    const figures = [...text.matchAll(/(?<![\w./@^~#-])\d+(?:[.,]\d+)*(?![\w.]*\d)(?!-)(?!\s*(?:[KMG]i?B|B|ms|s|%|×)(?!\w))/g)]
      .map((m) => m[0])
      .filter((n) => !/^\d+\.\d+(\.\d+)?$/.test(n));
    const measures = [...text.matchAll(/(?<![\w./@^~#-])\d+(?:[.,]\d+)*\s*(?:[KMG]i?B|B|ms|s|%|×)(?!\w)/g)].map((m) => m[0]);
    expect([...figures, ...measures], `${page}: figures no test checks (add a DOC_FACT in test/support/doc-facts.ts, or drop them)`).toEqual([]);
  });
});

test('the README is a front door: at most 300 lines', () => {
  expect(read(README).split('\n').length).toBeLessThanOrEqual(300);
});

test('the README links every page of docs/', () => {
  for (const page of fs.readdirSync(path.join(ROOT, 'docs')).filter((f) => f.endsWith('.md'))) {
    expect(read(README)).toContain(`(docs/${page})`);
  }
});

// docs/fleet.md shows the Terraform output the fleet reads as examples/terraform/outputs.tf: each
// field of its cluster is one the reader accepts
test('examples/terraform/outputs.tf names only fields the Terraform reader accepts', () => {
  const known = /const ENTRY_FIELDS = \[([^\]]*)\]/.exec(read('src/fleet/terraform-entries.ts'))![1];
  const fields = [...read('examples/terraform/outputs.tf').matchAll(/^ {6}#? ?(\w+)\s+=/gm)].map((m) => m[1]);
  expect(fields.length).toBeGreaterThan(5);
  for (const field of fields) expect(known).toContain(`'${field}'`);
});
