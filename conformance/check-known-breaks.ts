import * as path from 'path';
import { buildModules, collect, Collected, findModules, inPool, PARALLEL, progress, ROOT, SuiteError } from './suite';

/*
 * npx tsx conformance/check-known-breaks.ts
 *
 * Runs the conformance suite (conformance/run.ts, as `npm run conformance` runs it) on each fixture
 * of conformance/testdata/known-breaks/ (objects as the library wrote them before the break was
 * fixed, or hand-mutated to show it) and fails unless the suite exits 1 with a finding on the
 * fixture's object decided by upstream code, naming the function that decides the break live
 * (never the test kit model). The README beside the fixtures says what each break does.
 * Exit 0: every break is caught; 1: one is not; 2: the suite failed to run.
 */

interface KnownBreak {
  /** The fixture directory under conformance/testdata/known-breaks/. */
  readonly name: string;
  /** The upstream function that decides the break live (the finding's upstream names it). */
  readonly decidedBy: string;
  /** The command under conformance/ whose upstream code judges it. */
  readonly judge: string;
  /** The object the finding must be on (`<kind>/<namespace>/<name>`, as the suite prints it). */
  readonly object: string;
  /** A platform change: the suite compares `after/` with `before/`. */
  readonly change?: boolean;
}

const BREAKS: KnownBreak[] = [
  { name: 'cron-descriptor-weekly', judge: 'argocd', object: 'AppProject/argocd/checkout-api', decidedBy: 'pkg/apis/application/v1alpha1.SyncWindows.CanSync' },
  { name: 'cron-day-of-week-7', judge: 'argocd', object: 'AppProject/argocd/checkout-api', decidedBy: 'pkg/apis/application/v1alpha1.SyncWindows.CanSync' },
  { name: 'prometheus-no-data', judge: 'rollouts', object: 'AnalysisTemplate/checkout-api/prod-error-rate', decidedBy: 'utils/evaluate.EvaluateResult' },
  { name: 'dry-run-substring', judge: 'rollouts', object: 'AnalysisTemplate/guestbook/prod-w1-verification', decidedBy: 'utils/analysis.GetDryRunMetrics' },
  { name: 'wave-swap', judge: 'argocd', object: 'ApplicationSet/argocd/checkout-api-prod-early', decidedBy: 'applicationset/controllers.ApplicationSetReconciler.createOrUpdateInCluster', change: true },
  { name: 'all-join-soak', judge: 'kargo', object: 'Stage/checkout-api/prod-w2', decidedBy: 'pkg/api.ListFreightFromWarehouse' },
  { name: 'control-flow-soak', judge: 'kargo', object: 'Stage/storefront/prod-gate', decidedBy: 'pkg/controller/stages.ControlFlowStageReconciler.Reconcile' },
  { name: 'pr-stage-freeze', judge: 'kargo', object: 'Stage/checkout-api/prod-w1', decidedBy: 'pkg/promotion.LocalOrchestrator.ExecuteSteps' },
  { name: 'receiver-secret-missing', judge: 'kargo', object: 'ProjectConfig/telemetry-agent/telemetry-agent', decidedBy: 'pkg/webhook/external.NewReceiver' },
  // a mutation, not a live break: proves the receivers check can fail (the library accepts the expression)
  { name: 'when-expression-syntax', judge: 'kargo', object: 'ClusterConfig/cluster', decidedBy: 'pkg/webhook/external.whenExpressionMet' },
];

const FIXTURES = path.join('conformance', 'testdata', 'known-breaks');

async function check(b: KnownBreak): Promise<string | undefined> {
  progress(`known break ${b.name}`);
  const dir = path.join(FIXTURES, b.name);
  const args = b.change ? [path.join(dir, 'after'), '--before', path.join(dir, 'before')] : [dir];
  const run = await suiteOn(args);
  if (run.status === 2 || run.error) {
    console.error(`conformance: the suite failed on ${dir}: ${(run.error?.message ?? run.stderr).trim()}`);
    process.exit(2);
  }
  const lines = run.stdout.split('\n');
  const upstreams = lines.map((l) => /\(upstream: (.*)\)$/.exec(l)?.[1]).filter((u): u is string => u !== undefined);
  const onObject = lines.filter((l) => l.includes(` ${b.object} `)).map((l) => /\(upstream: (.*)\)$/.exec(l)?.[1] ?? '');
  const judged = lines.some((l) => l.startsWith(`${b.judge}: `));
  if (!judged) return `the conformance command ${b.judge} did not run on it`;
  if (run.status === 1 && onObject.some((u) => !u.startsWith('model:') && u.includes(b.decidedBy))) return undefined;
  const other = [...new Set(upstreams)];
  return `the suite exited ${run.status} without a finding on ${b.object} decided by ${b.decidedBy}`
    + (other.length ? `; its findings name ${other.join('; ')}` : '; it has no finding');
}

/** `npx tsx conformance/run.ts <args>` (the modules are built already), its output collected. */
function suiteOn(args: string[]): Promise<Collected> {
  return collect('npx', ['tsx', path.join('conformance', 'run.ts'), ...args], { cwd: ROOT, env: { ...process.env, CONFORMANCE_BUILT: '1' } });
}

async function main(): Promise<void> {
  try {
    buildModules(findModules());
  } catch (e) {
    console.error(`conformance: ${e instanceof SuiteError ? e.message : (e as Error).message}`);
    process.exit(2);
  }
  const problems = await inPool(BREAKS, PARALLEL, check);
  let missed = 0;
  BREAKS.forEach((b, i) => {
    const problem = problems[i];
    if (problem) missed++;
    console.log(`${problem ? 'MISSED' : 'caught'} ${b.name} (${b.judge}, ${b.decidedBy})${problem ? `: ${problem}` : ''}`);
  });
  console.log(`${BREAKS.length - missed} of ${BREAKS.length} known breaks caught`);
  process.exitCode = missed > 0 ? 1 : 0;
}

void main();
