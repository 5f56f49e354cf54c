import * as fs from 'fs';
import * as path from 'path';
import * as ts from 'typescript';
import { describe as group, expect, test } from 'vitest';
import { describe, show } from '../../src/util/errors';

// Every validation message shows its value through show(): one quoting for the whole library.
group('show', () => {
  test('quotes strings as JSON and names a missing value', () => {
    expect(show('prod')).toBe('"prod"');
    expect(show('')).toBe('""');
    expect(show(undefined)).toBe('nothing');
    expect(show(null)).toBe('null');
    expect(show(3)).toBe('3');
    expect(show(['a', 1])).toBe('["a",1]');
  });

  test('shows numbers JSON has no form for as themselves, and never prints a function', () => {
    expect(show(NaN)).toBe('NaN');
    expect(show(-Infinity)).toBe('-Infinity');
    expect(show(() => 'token')).toBe('a function');
  });

  test('describe() is field, problem, value and fix', () => {
    expect(describe('job user', 0, 'must be a whole number above 0 (not root)', 'use e.g. 65532'))
      .toBe('job user must be a whole number above 0 (not root), got 0; use e.g. 65532');
    expect(describe('arg value', undefined, 'must not be empty')).toBe('arg value must not be empty, got nothing');
  });
});

// Every message of src/ goes through the one formatter (src/util/errors.ts): a message written
// as a string where it is thrown or collected is hand-built. Read from the sources: the places a
// message leaves (new Error, new UsageError, userError, a problem list's add or push, a validation's result)
// (and the problem `within` nests) must receive what the formatter returned, not a literal, a
// template or a concatenation.
// Not checked: util/errors.ts (the formatter), testkit/ and synth-app/ (standalone, they import
// nothing of src/; their messages restate upstream's: Kargo's, cdk8s's).

const SRC = path.join(__dirname, '..', '..', 'src');
const EXEMPT = ['util/errors.ts', 'testkit/', 'synth-app/'];

/** Receivers of `.add()`/`.push()` that collect problems. */
const COLLECTORS = /^(this|r|list|(this\.)?_?problems|errors|conflicts)$/;

function sources(): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, e.name);
      if (e.isDirectory()) walk(full);
      else if (e.name.endsWith('.ts')) out.push(path.relative(SRC, full).split(path.sep).join('/'));
    }
  };
  walk(SRC);
  return out.filter(rel => !EXEMPT.some(x => rel === x || rel.startsWith(x))).sort();
}

/** Whether an expression writes message text itself. */
function handBuilt(e: ts.Expression): boolean {
  if (ts.isParenthesizedExpression(e)) return handBuilt(e.expression);
  if (ts.isConditionalExpression(e)) return handBuilt(e.whenTrue) || handBuilt(e.whenFalse);
  if (ts.isBinaryExpression(e) && e.operatorToken.kind === ts.SyntaxKind.PlusToken) return true;
  return ts.isStringLiteral(e) || ts.isNoSubstitutionTemplateLiteral(e) || ts.isTemplateExpression(e);
}

/** The messages an expression (a validation's result) lists. */
function listed(e: ts.Node): ts.Expression[] {
  if (ts.isArrayLiteralExpression(e)) return e.elements.flatMap(x => (ts.isSpreadElement(x) ? listed(x.expression) : [x]));
  if (ts.isConditionalExpression(e)) return [...listed(e.whenTrue), ...listed(e.whenFalse)];
  if (ts.isParenthesizedExpression(e)) return listed(e.expression);
  return [];
}

/** `file:line text` of every hand-built message. */
export function handBuiltMessages(): string[] {
  const found: string[] = [];
  for (const rel of sources()) {
    const sf = ts.createSourceFile(rel, fs.readFileSync(path.join(SRC, rel), 'utf-8'), ts.ScriptTarget.Latest, true);
    const report = (e: ts.Expression) => {
      if (!handBuilt(e)) return;
      found.push(`${rel}:${sf.getLineAndCharacterOfPosition(e.getStart(sf)).line + 1} ${e.getText(sf).split('\n')[0].slice(0, 90)}`);
    };
    const visit = (node: ts.Node) => {
      if ((ts.isNewExpression(node) || ts.isCallExpression(node)) && ts.isIdentifier(node.expression)
        && ['Error', 'UsageError', 'userError'].includes(node.expression.text) && node.arguments?.[0]) {
        report(node.arguments[0]);
      } else if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'within' && node.arguments[1]) {
        report(node.arguments[1]);
      } else if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression)
        && ['add', 'push'].includes(node.expression.name.text) && COLLECTORS.test(node.expression.expression.getText(sf))) {
        node.arguments.filter(a => !ts.isSpreadElement(a)).forEach(a => report(a));
      } else if (ts.isPropertyAssignment(node) && node.name.getText(sf) === 'validate' && ts.isArrowFunction(node.initializer)) {
        listed(node.initializer.body).forEach(report);
      }
      ts.forEachChild(node, visit);
    };
    visit(sf);
  }
  return found;
}

group('one formatter for every message', () => {
  test('no message of src/ is hand-built', () => {
    expect(handBuiltMessages()).toEqual([]);
  });

  test('the reader finds a hand-built message, and passes one the formatter wrote', () => {
    const sf = (text: string) => ts.createSourceFile('x.ts', text, ts.ScriptTarget.Latest, true);
    const arg = (text: string) => ((sf(text).statements[0] as ts.ExpressionStatement).expression as ts.CallExpression).arguments[0];
    expect(handBuilt(arg('problems.add(`stage ${show(name)} has no clusters`)'))).toBe(true);
    expect(handBuilt(arg("problems.add('no owner team; ' + fix)"))).toBe(true);
    expect(handBuilt(arg("problems.add(ok ? describe('a', 1, 'b') : 'c')"))).toBe(true);
    expect(handBuilt(arg("problems.add(describe('stage', name, 'has no clusters'))"))).toBe(false);
    expect(handBuilt(arg('problems.add(message)'))).toBe(false);
  });
});
