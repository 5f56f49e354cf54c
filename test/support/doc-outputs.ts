import * as fs from 'fs';
import * as path from 'path';

const ROOT = path.join(__dirname, '..', '..');

/**
 * A command's output shown in a page as it renders (Markdown, not a code block), between
 * `<!-- rendered: TEST -->` and `<!-- /rendered -->`: its first paragraph starts with the command in inline
 * code, with `(exit N)` when it exits other than 0, and ends with a colon; the rest is the output, its
 * headings three levels down so that they sit under the page's own. TEST runs the command and
 * compares; test/docs.test.ts checks that TEST reads the page, and leaves the region's figures to it.
 */
export interface DocOutput {
  readonly page: string;
  /** The test that produces it. */
  readonly test: string;
  readonly line: number;
  /** The command's arguments (the page may write `npx cdk8s-gitops-platform` before them). */
  readonly args: string[];
  readonly exitCode: number;
  /** The output as the page shows it. */
  readonly text: string;
}

const REGION = /^<!-- rendered: (\S+) -->\n([\s\S]*?)^<!-- \/rendered -->$/gm;

export function docOutputs(page: string): DocOutput[] {
  const text = fs.readFileSync(path.join(ROOT, page), 'utf8');
  return [...text.matchAll(REGION)].map((m) => {
    const cut = m[2].indexOf('\n\n');
    const first = m[2].slice(0, cut);
    const head = /^`(?:npx cdk8s-gitops-platform )?([^`]+)`(?: \(exit (\d+)\))?[^]*:$/.exec(first);
    const line = text.slice(0, m.index).split('\n').length;
    if (!head) throw new Error(`${page}:${line + 1}: an output starts with the command in inline code, its introduction ends with a colon, got "${first}"`);
    return { page, test: m[1], line, args: head[1].split(' '), exitCode: Number(head[2] ?? 0), text: m[2].slice(cut).trim() + '\n' };
  });
}

/** The page's text without its output regions (their figures are their test's). */
export function withoutOutputs(text: string): string {
  return text.replace(REGION, '');
}

/** A command's Markdown output as a page shows it: headings three levels down. */
export function asShown(markdown: string): string {
  return markdown.replace(/^(#{1,3}) /gm, '###$1 ').trim() + '\n';
}

/** The code blocks of a page marked `<!-- output: TEST -->`: an output TEST produces and compares, as it is. */
export function outputBlocks(page: string, test: string): string[] {
  const text = fs.readFileSync(path.join(ROOT, page), 'utf8');
  return [...text.matchAll(/^<!-- output: (\S+) -->\n+```\S*\n([\s\S]*?)^```$/gm)].filter((m) => m[1] === test).map((m) => m[2]);
}
