import * as fs from 'fs';
import * as path from 'path';
import * as ts from 'typescript';
import { describe, expect, test } from 'vitest';

// The shape of src/, checked on every run: imports flow one way through the layers ARCHITECTURE.md
// draws, no file imports itself back through others, and no file or function
// grows past what a reader takes in at once. The size limits hold in test/ too, where each test
// file sits at the path of the src/ module it tests.

const SRC = path.join(__dirname, '..', 'src');
const TEST = __dirname;

/**
 * Folders of src/ by layer, lowest first. A folder may import its own layer or lower ones only;
 * index.ts (the public re-exports) sits above all.
 */
const LAYERS: string[][] = [
  ['util'], // errors, names, collections: no knowledge of the domain
  ['contracts'], // labels, derived names, cluster variables, expression syntax: what emitters and checks agree on
  ['fleet'], // clusters, selectors, requirements
  ['artifact'], // artifacts, manifest sources, versioning, credentials
  ['verification'], // checks and their rendering
  ['pipeline'], // stages, approvals, waves
  ['plan'], // ReleasePlan and AppRelease: resolved once, pure data
  ['kargo', 'argocd'], // emitters: read the plan only
  ['synth'], // the one synthesis step: plan -> objects
  ['app'], // PlatformApp: defines, validates, plans, emits
  ['load'], // what the synthesized objects ask of the live controllers, counted from the objects
  ['standards', 'report'], // run over planned apps
  ['cli'], // the command line: reads synthesized YAML through the contracts and the test kit
];

/**
 * Folders that stand on their own, outside the layers: each reads nothing else of src/, and only
 * the folders listed may import it ('.' is index.ts).
 */
const STANDALONE: Record<string, readonly string[]> = {
  // ships on its own entry point; the command line validates directories with it, and load/
  // counts the Applications the ApplicationSets generate with its model of the generators (one
  // model of Argo CD, not a second one)
  'testkit': ['cli', 'load'],
  // cdk8s's App validating once, for any constructs; index.ts exports PlatformSynthApp, load/
  // counts the documents it wrote instead of rendering every object again
  'synth-app': ['.', 'load'],
  // writes a synthesis's files on another core
  'io': ['synth-app'],
};

function isStandalone(folder: string): boolean {
  return Object.prototype.hasOwnProperty.call(STANDALONE, folder);
}

/** Whether the standalone folder `to` may be imported by `from`. */
function lets(to: string, from: string): boolean {
  return isStandalone(to) && STANDALONE[to].includes(from);
}

const MAX_FILE_LINES = 500;
const MAX_FUNCTION_LINES = 80;

/**
 * Test files at the top of test/ that test no one module: the repository's shape, the committed
 * output, the apps/ examples and the README. Every other test file mirrors a src/ module.
 */
const CROSS_CUTTING_TESTS = ['architecture', 'determinism', 'docs', 'examples', 'fleet-scale', 'readme'];

/** Folders of test/ that are not a src/ folder: shared fixtures, and property tests over the whole library. */
const TEST_ONLY_FOLDERS = ['support', 'property'];

interface SourceFile {
  readonly rel: string;
  readonly text: string;
  readonly imports: string[];
}

function sourceFiles(root = SRC): SourceFile[] {
  const out: SourceFile[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {walk(full);} else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) {
        const text = fs.readFileSync(full, 'utf-8');
        const rel = path.relative(root, full).split(path.sep).join('/');
        out.push({ rel, text, imports: root === SRC ? localImports(rel, text) : [] });
      }
    }
  };
  walk(root);
  return out.sort((a, b) => a.rel.localeCompare(b.rel));
}

/** The src/ files a file imports or re-exports from (type-only imports count: they are coupling too). */
function localImports(rel: string, text: string): string[] {
  const info = ts.preProcessFile(text, true, true);
  const result = new Set<string>();
  for (const ref of info.importedFiles) {
    if (!ref.fileName.startsWith('.')) continue;
    const target = path.posix.normalize(path.posix.join(path.posix.dirname(rel), ref.fileName));
    if (target.startsWith('..')) continue; // imports/ (generated) is outside src/
    const candidates = [`${target}.ts`, `${target}/index.ts`];
    const found = candidates.find(c => fs.existsSync(path.join(SRC, c)));
    if (found) result.add(found);
  }
  return [...result].sort();
}

function folderOf(rel: string): string {
  return rel.includes('/') ? rel.split('/')[0] : '.';
}

/** Every cycle's members (strongly connected components with more than one node, or a self-loop). */
function cycles(edges: Map<string, Set<string>>): string[][] {
  let index = 0;
  const stack: string[] = [];
  const onStack = new Set<string>();
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const result: string[][] = [];
  const visit = (v: string) => {
    idx.set(v, index);
    low.set(v, index);
    index++;
    stack.push(v);
    onStack.add(v);
    for (const w of edges.get(v) ?? []) {
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v)!, idx.get(w)!));
      }
    }
    if (low.get(v) === idx.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || edges.get(v)?.has(v)) result.push(component.sort());
    }
  };
  for (const v of [...edges.keys()].sort()) if (!idx.has(v)) visit(v);
  return result;
}

function fileGraph(files: SourceFile[]): Map<string, Set<string>> {
  return new Map(files.map(f => [f.rel, new Set(f.imports)]));
}

function folderGraph(files: SourceFile[]): Map<string, Set<string>> {
  const g = new Map<string, Set<string>>();
  for (const f of files) {
    const from = folderOf(f.rel);
    if (!g.has(from)) g.set(from, new Set());
    for (const i of f.imports) {
      const to = folderOf(i);
      if (to !== from) g.get(from)!.add(to);
    }
  }
  return g;
}

function layerOf(folder: string): number {
  if (folder === '.') return LAYERS.length;
  return LAYERS.findIndex(l => l.includes(folder));
}

/** Lines of a file, not counting the newline that ends the last one. */
function lineCount(f: SourceFile): number {
  return f.text.split('\n').length - (f.text.endsWith('\n') ? 1 : 0);
}

/** A describe() body: its tests are counted one by one. */
function isSuiteBody(node: ts.Node, sf: ts.SourceFile): boolean {
  return ts.isCallExpression(node.parent) && /^describe\b/.test(node.parent.expression.getText(sf));
}

/** Functions, methods, constructors and accessors longer than the limit, as `file:line name (n lines)`. */
function longFunctions(files: SourceFile[]): string[] {
  const found: string[] = [];
  for (const f of files) {
    const sf = ts.createSourceFile(f.rel, f.text, ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node) => {
      if (ts.isFunctionLike(node) && (node as ts.FunctionLikeDeclaration).body && !isSuiteBody(node, sf)) {
        const start = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line;
        const end = sf.getLineAndCharacterOfPosition(node.getEnd()).line;
        const lines = end - start + 1;
        if (lines > MAX_FUNCTION_LINES) {
          const name = (node as ts.FunctionLikeDeclaration).name?.getText(sf) ?? ts.SyntaxKind[node.kind];
          found.push(`${f.rel}:${start + 1} ${name} (${lines} lines)`);
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(sf);
  }
  return found;
}

describe('architecture of src/', () => {
  const files = sourceFiles();

  test('no import cycle between files', () => {
    expect(cycles(fileGraph(files))).toEqual([]);
  });

  test('no import cycle between folders', () => {
    expect(cycles(folderGraph(files))).toEqual([]);
  });

  test('every folder has a layer', () => {
    const folders = [...new Set(files.map(f => folderOf(f.rel)))].filter(d => d !== '.' && !isStandalone(d));
    expect(folders.filter(d => layerOf(d) < 0)).toEqual([]);
  });

  test('imports flow down the layers only', () => {
    const upward: string[] = [];
    for (const f of files) {
      const from = folderOf(f.rel);
      if (isStandalone(from)) continue;
      for (const i of f.imports) {
        const to = folderOf(i);
        if (to === from) continue;
        if (isStandalone(to) ? !lets(to, from) : layerOf(to) >= layerOf(from)) upward.push(`${f.rel} -> ${i}`);
      }
    }
    expect(upward).toEqual([]);
  });

  test('the test kit, synth-app and io import nothing else of src/ but what lets them', () => {
    const outside = files.filter(f => isStandalone(folderOf(f.rel)))
      .flatMap(f => f.imports.filter(i => folderOf(i) !== folderOf(f.rel) && !lets(folderOf(i), folderOf(f.rel))).map(i => `${f.rel} -> ${i}`));
    expect(outside).toEqual([]);
  });

  test(`no file over ${MAX_FILE_LINES} lines`, () => {
    const long = files.map(f => ({ rel: f.rel, lines: lineCount(f) }))
      .filter(f => f.lines > MAX_FILE_LINES).map(f => `${f.rel} (${f.lines} lines)`);
    expect(long).toEqual([]);
  });

  test('every exported class of the public API shows an @example', () => {
    const missing: string[] = [];
    for (const f of files.filter(x => folderOf(x.rel) !== 'testkit')) {
      for (const m of f.text.matchAll(/(\/\*\*(?:(?!\*\/)[\s\S])*\*\/\n)?export (?:abstract )?class (\w+)/g)) {
        const doc = m[1] ?? '';
        if (!doc.includes('@internal') && !doc.includes('@example')) missing.push(`${f.rel} ${m[2]}`);
      }
    }
    expect(missing).toEqual([]);
  });

  test(`no function over ${MAX_FUNCTION_LINES} lines`, () => {
    expect(longFunctions(files)).toEqual([]);
  });
});

describe('architecture of test/', () => {
  const files = sourceFiles(TEST);
  const modules = new Set(sourceFiles().map(f => f.rel.replace(/\.ts$/, '')));

  test(`no file over ${MAX_FILE_LINES} lines`, () => {
    const long = files.filter(f => lineCount(f) > MAX_FILE_LINES).map(f => `${f.rel} (${lineCount(f)} lines)`);
    expect(long).toEqual([]);
  });

  // a suite's describe() body is a list of tests, not one function, and is not counted
  test(`no function over ${MAX_FUNCTION_LINES} lines`, () => {
    expect(longFunctions(files)).toEqual([]);
  });

  test('every test file mirrors a src/ module: test/<folder>/<module>.test.ts tests src/<folder>/<module>.ts', () => {
    const stray = files.map(f => f.rel).filter(rel => rel.endsWith('.test.ts'))
      .filter(rel => !TEST_ONLY_FOLDERS.includes(folderOf(rel)))
      .map(rel => rel.replace(/\.test\.ts$/, ''))
      .filter(stem => !modules.has(stem) && !(folderOf(stem) === '.' && CROSS_CUTTING_TESTS.includes(stem)));
    expect(stray).toEqual([]);
  });
});

/** A repository path ARCHITECTURE.md names in backticks (not a placeholder, an entry point or a package spec). */
function isRepoPath(token: string): boolean {
  if (/[\s<>*{}:]/.test(token) || token.startsWith('./') || token.startsWith('../') || token === '.') return false;
  return token.includes('/') || /\.(ts|md|json|ya?ml|mts)$/.test(token);
}

/**
 * The backticked tokens of each list item of ARCHITECTURE.md (an item with its continuation
 * lines), and of the prose around them.
 */
function architectureItems(text: string): string[][] {
  const items: string[][] = [];
  let current: string[] | undefined;
  for (const line of text.split('\n')) {
    if (/^\s*(\d+\.|-) /.test(line)) items.push(current = []);
    else if (!/^\s+\S/.test(line)) current = undefined;
    const tokens = [...line.matchAll(/`([^`]+)`/g)].map(m => m[1]);
    if (current) current.push(...tokens);
    else items.push(tokens.filter(isRepoPath));
  }
  return items;
}

describe('ARCHITECTURE.md', () => {
  const ROOT = path.join(__dirname, '..');
  const text = fs.readFileSync(path.join(ROOT, 'ARCHITECTURE.md'), 'utf-8');
  const items = architectureItems(text);
  // the walk: the section from an app definition to its YAML
  const walk = architectureItems(text.slice(text.indexOf('## From an app definition'), text.indexOf('\n## ', text.indexOf('## From an app definition') + 3)));
  const textOf = (p: string): string => {
    const full = path.join(ROOT, p);
    if (!fs.statSync(full).isDirectory()) return fs.readFileSync(full, 'utf-8');
    return fs.readdirSync(full).filter(f => f.endsWith('.ts')).map(f => fs.readFileSync(path.join(full, f), 'utf-8')).join('\n');
  };

  test('every file or folder it names exists', () => {
    const paths = [...new Set(items.flat().filter(isRepoPath))];
    expect(paths.length).toBeGreaterThan(40);
    expect(paths.filter(p => !fs.existsSync(path.join(ROOT, p)))).toEqual([]);
  });

  // in a step of the walk, each name after a path is a function, class or member of that path
  test('every name a step of the walk gives is in the file or folder named before it', () => {
    const missing: string[] = [];
    let checked = 0;
    for (const tokens of walk) {
      let file: string | undefined;
      for (const token of tokens) {
        if (isRepoPath(token)) {
          file = fs.existsSync(path.join(ROOT, token)) && /\.ts$|\/$/.test(token) ? token : undefined;
          continue;
        }
        const name = /^[A-Za-z_]\w*(\.\w+)?(\(\))?$/.test(token) ? token.replace(/\(\)$/, '').split('.').pop()! : undefined;
        if (file === undefined || name === undefined) continue;
        checked++;
        if (!new RegExp(`\\b${name}\\b`).test(textOf(file))) missing.push(`${file}: ${name}`);
      }
    }
    expect(checked).toBeGreaterThan(40);
    expect(missing).toEqual([]);
  });
});
