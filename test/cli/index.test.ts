import * as path from 'path';
import * as ts from 'typescript';
import { describe, expect, test } from 'vitest';
import * as cli from '../../src/cli';

// The `cdk8s-gitops-platform/cli` entry point is what scripts hold us to: every name it exports
// is a promise, so the list is pinned here and grows only on purpose, and every exported member
// says what it is.

const ENTRY = path.join(__dirname, '..', '..', 'src', 'cli', 'index.ts');

// eslint-disable-next-line no-bitwise
const hasFlag = (s: ts.Symbol, flag: ts.SymbolFlags) => (s.flags & flag) !== 0;

/** Every name the entry point exports, with its members (of interfaces), and which lack a doc comment. */
function surface() {
  const program = ts.createProgram([ENTRY], { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.Node16, strict: true, skipLibCheck: true });
  const checker = program.getTypeChecker();
  const exports = checker.getExportsOfModule(checker.getSymbolAtLocation(program.getSourceFile(ENTRY)!)!);
  const documented = (s: ts.Symbol) => s.getDocumentationComment(checker).length > 0;
  const names: string[] = [];
  const undocumented: string[] = [];
  for (const e of exports) {
    const symbol = hasFlag(e, ts.SymbolFlags.Alias) ? checker.getAliasedSymbol(e) : e;
    names.push(e.name);
    if (!documented(symbol)) undocumented.push(e.name);
    for (const [member, m] of (symbol.members ?? new Map()) as Map<string, ts.Symbol>) {
      if (hasFlag(m, ts.SymbolFlags.TypeParameter)) continue;
      if (!documented(m)) undocumented.push(`${e.name}.${member}`);
    }
  }
  return { names: names.sort(), undocumented };
}

describe('the cli entry point', () => {
  const { names, undocumented } = surface();

  test('exports what a script drives the command line with and reads back, nothing of the machinery behind it', () => {
    expect(names).toEqual([
      'AppOutput', 'AppStatus', 'ChangedObjectOutput', 'CliIo', 'ClusterStatus', 'EXIT_DETAILED_CHANGES', 'EXIT_DETAILED_ERROR', 'EXIT_OK', 'EXIT_USAGE',
      'EXIT_VIOLATION', 'FieldChange', 'FleetOutput', 'FreezeOutput', 'LiveCluster', 'OUTPUT_SCHEMA_VERSION', 'ObjectsOutput', 'PlanOutput', 'QueryOutput',
      'ReleaseOutput', 'RiskCode', 'RiskFlag', 'RuleOutput', 'RuleViolationOutput', 'StageOutput', 'StageStatus', 'StatusOutput', 'ValidateIssueOutput',
      'ValidateOutput', 'WaveOutput', 'WaveStatus', 'run',
    ]);
    // the values a script reads at run time, as the compiled module has them
    expect(Object.keys(cli).sort()).toEqual(['EXIT_DETAILED_CHANGES', 'EXIT_DETAILED_ERROR', 'EXIT_OK', 'EXIT_USAGE', 'EXIT_VIOLATION',
      'OUTPUT_SCHEMA_VERSION', 'run']);
  });

  test('documents every exported name and every member of the exported types', () => {
    expect(undocumented).toEqual([]);
  });

  test('the exit codes are the documented ones: 0 ok, 1 broken, 2 usage; with --detailed-exitcode 1 error, 2 changes', () => {
    expect([cli.EXIT_OK, cli.EXIT_VIOLATION, cli.EXIT_USAGE, cli.EXIT_DETAILED_ERROR, cli.EXIT_DETAILED_CHANGES]).toEqual([0, 1, 2, 1, 2]);
  });
});
