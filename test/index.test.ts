import * as fs from 'fs';
import * as path from 'path';
import * as ts from 'typescript';
import { describe, expect, test } from 'vitest';

// What each entry point of the package (package.json "exports") makes importable: a name marked
// @internal is a helper of the library, not API; reachable from an entry point, a user can come
// to depend on it. Read from the sources (export declarations followed through the re-exports),
// without type-checking.

const SRC = path.join(__dirname, '..', 'src');
const ENTRY_POINTS = ['index.ts', 'testkit/index.ts', 'cli/index.ts'];

interface Exported {
  readonly name: string;
  readonly file: string;
  readonly internal: boolean;
}

function parse(rel: string): ts.SourceFile {
  return ts.createSourceFile(rel, fs.readFileSync(path.join(SRC, rel), 'utf-8'), ts.ScriptTarget.Latest, true);
}

function resolve(from: string, specifier: string): string {
  const target = path.posix.normalize(path.posix.join(path.posix.dirname(from), specifier));
  const found = [`${target}.ts`, `${target}/index.ts`].find(c => fs.existsSync(path.join(SRC, c)));
  if (!found) throw new Error(`${from}: cannot resolve ${specifier}`);
  return found;
}

const isInternal = (node: ts.Node) => ts.getJSDocTags(node).some(t => t.tagName.text === 'internal');
const isExported = (node: ts.Node) => ts.canHaveModifiers(node) && (ts.getModifiers(node) ?? []).some(m => m.kind === ts.SyntaxKind.ExportKeyword);

/** Every name a module exports, by the name it is exported as, with the declaration's @internal. */
function exportsOf(rel: string, seen = new Map<string, Map<string, Exported>>()): Map<string, Exported> {
  const cached = seen.get(rel);
  if (cached) return cached;
  const out = new Map<string, Exported>();
  seen.set(rel, out);
  const sf = parse(rel);
  for (const statement of sf.statements) {
    if (ts.isExportDeclaration(statement) && statement.moduleSpecifier && ts.isStringLiteral(statement.moduleSpecifier)) {
      const from = exportsOf(resolve(rel, statement.moduleSpecifier.text), seen);
      if (!statement.exportClause) {
        for (const [name, e] of from) out.set(name, e);
      } else if (ts.isNamedExports(statement.exportClause)) {
        for (const el of statement.exportClause.elements) {
          const e = from.get((el.propertyName ?? el.name).text);
          if (e) out.set(el.name.text, e);
        }
      }
    } else if (ts.isVariableStatement(statement) && isExported(statement)) {
      for (const d of statement.declarationList.declarations) {
        if (ts.isIdentifier(d.name)) out.set(d.name.text, { name: d.name.text, file: rel, internal: isInternal(statement) });
      }
    } else if (isExported(statement) && (statement as ts.DeclarationStatement).name) {
      const name = (statement as ts.DeclarationStatement).name!.getText(sf);
      // a function's overloads or a merged declaration: internal if any is marked
      out.set(name, { name, file: rel, internal: (out.get(name)?.internal ?? false) || isInternal(statement) });
    }
  }
  return out;
}

describe('entry points of the package', () => {
  test.each(ENTRY_POINTS)('%s exports no name marked @internal', (entry) => {
    const leaked = [...exportsOf(entry).values()].filter(e => e.internal).map(e => `${e.name} (${e.file})`).sort();
    expect(leaked).toEqual([]);
  });

  test('the reader finds what index.ts exports, and sees @internal', () => {
    const all = exportsOf('index.ts');
    expect(all.get('PlatformApp')).toEqual({ name: 'PlatformApp', file: 'app/platform-app.ts', internal: false });
    expect(all.get('PlatformSynthApp')?.internal).toBe(false);
    expect(exportsOf('util/errors.ts').get('describe')).toEqual({ name: 'describe', file: 'util/errors.ts', internal: true });
  });
});
