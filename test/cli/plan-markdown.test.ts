import * as fs from 'fs';
import * as path from 'path';
import { describe, expect, test } from 'vitest';
import { run } from '../../src/cli';
import { activeFreezes, changeRules, checkChange } from '../../src/cli/change-rules';
import { ManifestSet } from '../../src/cli/manifest-set';
import { COMMENT_LIMIT, COMMENT_MARKER, renderComment, renderPlan } from '../../src/cli/plan-markdown';
import { diffTrees } from '../../src/cli/release-diff';
import { API, AppSpec, prod, range, recordingIo, tree, WEB, withProdWaves, writeTree } from '../support/cli-fixtures';
import { ROOT, tempDir } from '../support/cli-temp-dirs';

describe('Markdown that survives any user text', () => {
  const weird = 'a|b\n`c` <script>';
  const spec = (description: string): AppSpec => ({ ...API, syncWindows: [{ kind: 'deny', schedule: '0 18 * * fri', duration: '63h', clusters: ['prod-*'], description }] });

  test('|, newlines, backticks and < > in names and descriptions are escaped', async () => {
    const dirs = tempDir();
    const { out, io } = recordingIo(ROOT);
    await run(['plan', '--now', '2026-12-05T12:00:00Z', '--base-dir', writeTree(path.join(dirs, 'b'), tree({ api: spec(weird) })),
      '--head-dir', writeTree(path.join(dirs, 'h'), tree({ api: { ...spec(weird), stages: [API.stages[0], { ...API.stages[1], soak: '2h' }] } }))], io);
    const text = out.join('');
    expect(text).toContain('frozen by "0 18 * * fri" for 63h – a\\|b \\`c\\` &lt;script&gt; until');
    expect(text).not.toContain('<script>');
  });

  test('each freeze once, though every AppProject of the app carries it', () => {
    // the central AppProject and a cluster's own AppProject: the same window, other applications
    const withCopy = (set: ManifestSet) => ManifestSet.fromObjects([...set.objects, ...set.objects.filter((o) => o.obj.kind === 'AppProject').map((o) => ({
      file: 'api--prod-1.k8s.yaml', obj: { ...o.obj, spec: { ...o.obj.spec, syncWindows: o.obj.spec.syncWindows.map((w: any) => ({ ...w, applications: ['api-prod-1'] })) } },
    }))]);
    const before = withCopy(tree({ api: spec('weekend') }));
    const after = withCopy(tree({ api: { ...spec('weekend'), stages: [API.stages[0], { ...API.stages[1], soak: '2h' }] } }));
    const markdown = renderPlan(diffTrees(before, after), [], 'main', activeFreezes(diffTrees(before, after), new Date('2026-12-05T12:00:00Z')));
    expect(markdown.split('\n').filter((l) => l.includes('frozen by'))).toEqual(['- api: `prod` frozen by "0 18 * * fri" for 63h – weekend until 2026-12-07T09:00:00.000Z']);
    expect(checkChange(diffTrees(before, after), changeRules(), { now: new Date('2026-12-05T12:00:00Z') }).map((v) => v.ruleId)).toEqual(['no-production-change-during-freeze']);
  });

  test('--comment: the sticky marker first, at most 65,536 characters, the summary kept and the full report pointed to', async () => {
    const many: Record<string, AppSpec> = {};
    for (let i = 0; i < 60; i++) many[`app-${String(i).padStart(2, '0')}`] = API;
    const grown: Record<string, AppSpec> = {};
    for (const name of Object.keys(many)) grown[name] = withProdWaves(prod(1), prod(2, 3), prod(...range(4, 20)));
    const change = diffTrees(tree(many), tree(grown));
    const full = renderPlan(change, [], 'main');
    const comment = renderComment(change, [], 'main', [], { reportFile: 'plan.md' });
    expect(full.length).toBeLessThan(COMMENT_LIMIT);
    expect(comment).toBe(`${COMMENT_MARKER}\n${full}`);
    // with the per-object field lists the whole plan no longer fits
    const big: Record<string, AppSpec> = {};
    for (let i = 0; i < 400; i++) big[`app-${String(i).padStart(3, '0')}`] = API;
    const bigGrown: Record<string, AppSpec> = {};
    for (const name of Object.keys(big)) bigGrown[name] = withProdWaves(prod(1), prod(2, 3), prod(...range(4, 20)));
    const bigChange = diffTrees(tree(big), tree(bigGrown));
    const cut = renderComment(bigChange, [], 'main', [], { reportFile: 'plan.md' });
    expect(renderPlan(bigChange, [], 'main').length).toBeGreaterThan(COMMENT_LIMIT);
    expect(cut.length).toBeLessThanOrEqual(COMMENT_LIMIT);
    expect(cut.startsWith(`${COMMENT_MARKER}\n## Release plan against \`main\``)).toBe(true);
    expect(cut).toContain('- **app-399: ');
    expect(cut).toMatch(/_The details of 400 apps do not fit into a comment \(\d+ characters, at most 65536\): the full report is in `plan\.md`\._\n$/);
  }, 60_000);

  test('--report writes the full Markdown; more than 10 unaffected apps are counted', async () => {
    const dirs = tempDir();
    const apps: Record<string, AppSpec> = { api: API };
    for (let i = 0; i < 15; i++) apps[`quiet-${String(i).padStart(2, '0')}`] = WEB;
    const report = path.join(dirs, 'plan.md');
    const { out, io } = recordingIo(ROOT);
    await run(['plan', '--comment', '--report', report, '--base-dir', writeTree(path.join(dirs, 'b'), tree(apps)),
      '--head-dir', writeTree(path.join(dirs, 'h'), tree({ ...apps, api: { ...API, stages: [{ ...API.stages[0], auto: false }, API.stages[1]] } }))], io);
    expect(out.join('')).toBe(`${COMMENT_MARKER}\n${fs.readFileSync(report, 'utf8')}`);
    expect(out.join('')).toContain('Unaffected: quiet-00, quiet-01, quiet-02, quiet-03, quiet-04, quiet-05, quiet-06, quiet-07, quiet-08, quiet-09 and 5 more unaffected; the fleet is unchanged.');
  });
});
