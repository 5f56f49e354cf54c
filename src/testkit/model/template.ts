import { evaluateExpression, ExprError, ExprFunctions } from './expr';

/**
 * Kargo's expression templates, after `pkg/expressions/json_templates.go` (v1.11.2): `${{ }}` and
 * `${% %}` delimiters; a non-string result is JSON-encoded into the text; the whole result then
 * loses one trailing newline, one pair of surrounding double quotes (what `quote()` adds), or
 * becomes a number, a boolean or JSON when it parses as one. `quote()` is Go's `%q` for strings
 * and JSON in quotes otherwise.
 */
export function evaluateTemplate(template: string, env: Record<string, unknown>, fns: ExprFunctions): unknown {
  if (!template.includes('${{') && !template.includes('${%')) return template;
  const all: ExprFunctions = { ...fns, quote, unsafeQuote: (v) => `"${JSON.stringify(v ?? null)}"` };
  let text = '';
  let rest = template;
  for (;;) {
    const next = nextExpression(rest);
    text += next.before;
    if (next.expression === undefined) break;
    const value = evaluateExpression(next.expression, env, all);
    text += typeof value === 'string' ? value : JSON.stringify(value ?? null);
    rest = next.after;
  }
  return typed(text);
}

/** Evaluates every string of a step config, like `EvaluateJSONTemplate`. */
export function evaluateConfig(config: unknown, env: Record<string, unknown>, fns: ExprFunctions): unknown {
  if (typeof config === 'string') return evaluateTemplate(config, env, fns);
  if (Array.isArray(config)) return config.map((c) => evaluateConfig(c, env, fns));
  if (config !== null && typeof config === 'object') {
    return Object.fromEntries(Object.entries(config).map(([k, v]) => [k, evaluateConfig(v, env, fns)]));
  }
  return config;
}

function quote(value: unknown): string {
  return typeof value === 'string' ? JSON.stringify(value) : `"${JSON.stringify(value ?? null)}"`;
}

function nextExpression(template: string): { before: string; expression?: string; after: string } {
  const starts = [['${{', '}}'], ['${%', '%}']]
    .map(([open, close]) => ({ open, close, at: template.indexOf(open) }))
    .filter((d) => d.at >= 0)
    .sort((a, b) => a.at - b.at);
  if (starts.length === 0) return { before: template, after: '' };
  const d = starts[0];
  const end = template.indexOf(d.close, d.at + d.open.length);
  if (end < 0) throw new ExprError(`unclosed expression: expected "${d.close}" but reached end of template`);
  return { before: template.slice(0, d.at), expression: template.slice(d.at + d.open.length, end), after: template.slice(end + d.close.length) };
}

function typed(result: string): unknown {
  const removedNewline = result.endsWith('\n');
  const text = removedNewline ? result.slice(0, -1) : result;
  if (text.length > 1 && text.startsWith('"') && text.endsWith('"')) {
    return text.slice(1, -1) + (removedNewline ? '\n' : '');
  }
  if (text.trim() !== '' && /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(text)) return Number(text);
  // Go's strconv.ParseFloat also reads these words (a cluster may be named "nan" or "inf")
  if (/^[-+]?(inf|infinity)$/i.test(text)) return text.startsWith('-') ? -Infinity : Infinity;
  if (/^nan$/i.test(text)) return NaN;
  if (['true', 'TRUE', 'True', 't', 'T'].includes(text)) return true;
  if (['false', 'FALSE', 'False', 'f', 'F'].includes(text)) return false;
  // Only a text that can be JSON is parsed: most results are plain strings.
  if (/^\s*[[{"]/.test(text) || text === 'null') {
    try {
      return JSON.parse(text);
    } catch {
      // not JSON after all: the text itself
    }
  }
  return text + (removedNewline ? '\n' : '');
}
