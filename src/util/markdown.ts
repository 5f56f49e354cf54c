// Reports put user text (names, reasons, descriptions, messages) into Markdown tables, lists and
// Mermaid graphs; one `|`, newline, backtick or `<` in that text must not break the document.

/**
 * Text for a Markdown line or table cell: newlines become spaces, `\`, `|` and backticks are
 * escaped (no cell break, no code span), `<`, `>` and `&` become entities (no HTML, no comment
 * that hides the rest). Emphasis characters stay: at worst they style a word, and cron
 * schedules (`0 18 * * fri`) stay readable.
 * @internal
 */
export function mdText(text: string): string {
  const plain = String(text);
  // most text (names, clusters) has nothing to escape: a report at fleet size asks this 100,000 times
  if (!MD_SPECIAL.test(plain)) return plain;
  return plain
    .replace(/\r\n?|\n/g, ' ')
    .replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
    .replace(/([\\|`])/g, '\\$1');
}

/**
 * A code span that holds any text: fenced with more backticks than the text's longest run, padded
 * when it starts or ends with a backtick; newlines become spaces, `|` is escaped for tables (GitHub
 * reads `\|` inside a code span in a table as `|`).
 * @internal
 */
export function mdCode(text: string): string {
  const flat = String(text).replace(/\r\n?|\n/g, ' ').replace(/\|/g, '\\|');
  const longest = Math.max(0, ...(flat.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  const pad = flat.startsWith('`') || flat.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${flat}${pad}${fence}`;
}

/**
 * A Mermaid node or edge label: the text between double quotes, with `"`, `<`, `>`, `#`, `|` and
 * newlines written as Mermaid entity codes (`#quot;`, `#lt;` …), so it cannot end the label,
 * open HTML or an edge. `<br/>` separators are added by the caller after escaping.
 * @internal
 */
export function mermaidText(text: string): string {
  const plain = String(text);
  if (!MERMAID_SPECIAL.test(plain)) return plain;
  return plain
    .replace(/#/g, '#35;')
    .replace(/"/g, '#quot;').replace(/</g, '#lt;').replace(/>/g, '#gt;').replace(/\|/g, '#124;')
    .replace(/`/g, '#96;')
    .replace(/\r\n?|\n/g, ' ');
}

/** The characters `mdText` changes. */
const MD_SPECIAL = /[\r\n&<>\\|`]/;
/** The characters `mermaidText` changes. */
const MERMAID_SPECIAL = /[#"<>|`\r\n]/;
