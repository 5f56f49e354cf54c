import { ControllerFinding, finding } from './controller-finding';
import { isFreightAvailable, listFreightAvailableToStage, ModelFreight } from './kargo-freight-availability';
import { promotionFailure } from './kargo-promotion-model';
import { ModelStage, modelStages, RunTimingOptions } from './kargo-stage-specs';
import { MODEL_CLOCK } from './kargo-steps';

/**
 * One release through a Kargo v1.11.2 project over simulated time: one Freight per Warehouse,
 * created at second 0, and the controllers that move it on:
 * - regular Stages (`pkg/controller/stages/regular_stages.go`): `Reconcile` runs on Freight
 *   newly verified upstream (`event_handlers.go` `downstreamStageEnqueuer`), on Freight approved
 *   for it (`stageEnqueuerForApprovedFreight`), on Freight created
 *   in a Warehouse it takes directly (`warehouseStageEnqueuer`), when its promotion or
 *   verification ends, and 5 minutes after each reconcile (`RequeueAfter`); `autoPromoteFreight`
 *   promotes the candidate of `ListFreightAvailableToStage` when the ProjectConfig enables it;
 *   `syncFreight` records the Freight current from the promotion's end; `verifyStageFreight`
 *   marks it verified at once without `spec.verification`, else when the AnalysisRun ends;
 * - a person, for Stages without auto-promotion, promoting as soon as the Freight is listed
 *   (the UI lists `ListFreightAvailableToStage`, `pkg/server/query_freights_v1alpha1.go`);
 * - every Promotion, automatic or not, is admitted only if `Stage.IsFreightAvailable`
 *   (`pkg/webhook/kubernetes/promotion/webhook.go` `ValidateCreate`), else retried later;
 * - a Promotion fails when one of its `fail` steps does at its start (a deploy freeze, whose
 *   `if` reads the clock: promotionFailure); Kargo does not promote the same Freight again by
 *   itself after that (`regular_stages.go` `autoPromoteFreight`), and a person tries again an
 *   hour later at the earliest (as conformance/controllers/kargo/timeline.go);
 * - control-flow Stages (`control_flow_stages.go`): reconciled only on creation and on the
 *   events above (no timer), marking every listed Freight verified (`markFreightVerifiedForStage`).
 */
export interface ReleaseTimelineOptions extends RunTimingOptions {
  /** How long a promotion takes, in seconds. @default 60 */
  readonly promotionSeconds?: number;
  /** How far the simulation looks, in seconds. @default 7 days */
  readonly horizonSeconds?: number;
  /** Freight a person approves for a Stage (`approvedFor`), with the second they do. @default - none */
  readonly approvals?: Array<{ readonly stage: string; readonly at: number }>;
  /** When the release is discovered: second 0 of the timeline, on the clock freeze steps read. @default MODEL_CLOCK */
  readonly now?: Date;
}

/** When the release reached each Stage (promotion done, or verified in a control-flow Stage) and was verified there. */
export interface StageTimes {
  readonly reached?: number;
  readonly verified?: number;
}

/** The simulated release: times by Kargo Stage (`<namespace>/<name>`), and what went wrong. */
export interface ReleaseTimeline {
  readonly stages: Map<string, StageTimes>;
  readonly findings: ControllerFinding[];
}

const TICK = 60;
const REQUEUE = 300;

interface Run {
  readonly stage: ModelStage;
  reached?: number;
  verified?: number;
  promotingUntil?: number;
  verifyingUntil?: number;
  nextReconcile: number;
  /** When its last promotion failed. */
  failedAt?: number;
  /** Why its last failed promotion failed; kept once it is promoted after all (it was held). */
  heldBy?: string;
}

/** How long a person waits before promoting Freight again after its promotion failed. */
const RETRY_AFTER_FAILURE = 3600;

/** Simulates one release through every Kargo project among the objects. */
export function simulateRelease(objects: any[], options: ReleaseTimelineOptions = {}): ReleaseTimeline {
  const all = modelStages(objects, options);
  const stages = new Map<string, StageTimes>();
  const findings: ControllerFinding[] = [];
  for (const namespace of [...new Set(all.map(s => s.namespace))].sort()) {
    const project = all.filter(s => s.namespace === namespace);
    const runs = simulateProject(project, objects, options);
    for (const r of runs.values()) stages.set(`${namespace}/${r.stage.name}`, { reached: r.reached, verified: r.verified });
    findings.push(...judge(runs, options));
  }
  return { stages, findings };
}

function simulateProject(project: ModelStage[], objects: any[], options: ReleaseTimelineOptions): Map<string, Run> {
  const namespace = project[0].namespace;
  const freight: ModelFreight[] = objects.filter(o => o?.kind === 'Warehouse' && o.metadata?.namespace === namespace)
    .map(w => ({ name: `${w.metadata.name}-release`, warehouse: String(w.metadata.name), verifiedIn: new Map(), currentlyIn: new Map(), approvedFor: new Set() }));
  const runs = new Map(project.map(s => [s.name, { stage: s, nextReconcile: 0 } as Run]));
  const downstream = (name: string) => project.filter(s => s.requests.some(r => r.stages.includes(name))).map(s => s.name);
  const promotion = options.promotionSeconds ?? 60;
  const horizon = options.horizonSeconds ?? 7 * 24 * 3600;
  const start = (options.now ?? MODEL_CLOCK).getTime();
  const failures = new Map(project.map(s => [s.name, promotionFailure(s.obj, objects)]));
  const failureAt = (stage: ModelStage, t: number) => {
    const at = new Date(start + t * 1000);
    const failure = failures.get(stage.name)!(at);
    return failure && `its promotion at ${at.toISOString()} fails: ${failure}`;
  };
  // creation: every Stage is reconciled once (GenerationChangedPredicate), the Freight wakes direct ones
  let queue = project.map(s => s.name);
  for (let t = 0; t <= horizon; t = nextMoment(runs, freight, options, t)) {
    // an approval wakes the Stage (event_handlers.go stageEnqueuerForApprovedFreight)
    for (const a of (options.approvals ?? []).filter(x => x.at <= t && runs.has(x.stage) && !freight.every(f => f.approvedFor.has(x.stage)))) {
      freight.forEach(f => f.approvedFor.add(a.stage));
      queue.push(a.stage);
    }
    for (const run of runs.values()) {
      if (run.promotingUntil !== undefined && run.promotingUntil <= t) {
        run.promotingUntil = undefined;
        run.reached = t;
        freight.forEach(f => f.currentlyIn.set(run.stage.name, t));
        if (run.stage.verifies) run.verifyingUntil = t + run.stage.verificationSeconds;
        else queue.push(...markVerified(run, freight, t, downstream));
        queue.push(run.stage.name);
      }
      if (run.verifyingUntil !== undefined && run.verifyingUntil <= t) {
        run.verifyingUntil = undefined;
        queue.push(...markVerified(run, freight, t, downstream), run.stage.name);
      }
      if (!run.stage.controlFlow && run.nextReconcile <= t) queue.push(run.stage.name);
      // a person looks at the Freight list of every Stage they promote by hand
      if (!run.stage.controlFlow && !run.stage.autoPromote) queue.push(run.stage.name);
    }
    while (queue.length > 0) {
      const next = [...new Set(queue)];
      queue = [];
      for (const name of next) queue.push(...reconcile(runs.get(name)!, freight, t, { promotion, downstream, failureAt }));
    }
    if ([...runs.values()].every(r => r.verified !== undefined)) break;
  }
  return runs;
}

/**
 * The next second anything can change, on the tick: a promotion or verification ends, a regular
 * Stage is requeued, a person approves, or a soak a waiting Stage asks for is over (which is
 * what a person watching the list would notice); past the horizon when nothing is left.
 */
function nextMoment(runs: Map<string, Run>, freight: ModelFreight[], options: ReleaseTimelineOptions, t: number): number {
  const times: number[] = (options.approvals ?? []).map(a => a.at);
  for (const run of runs.values()) {
    times.push(run.promotingUntil ?? Infinity, run.verifyingUntil ?? Infinity);
    if (run.stage.controlFlow || run.reached !== undefined) continue;
    times.push(run.nextReconcile);
    for (const soak of run.stage.requests.map(r => r.soakSeconds).filter((x): x is number => x !== undefined)) {
      for (const f of freight) times.push(...[...f.currentlyIn.values()].map(since => since + soak));
    }
  }
  const next = Math.min(...times.filter(x => x > t));
  return Number.isFinite(next) ? Math.max(t + TICK, Math.ceil(next / TICK) * TICK) : Infinity;
}

function markVerified(run: Run, freight: ModelFreight[], t: number, downstream: (name: string) => string[]): string[] {
  run.verified = t;
  freight.forEach(f => f.verifiedIn.set(run.stage.name, t));
  return downstream(run.stage.name);
}

interface ReconcileContext {
  readonly promotion: number;
  readonly downstream: (name: string) => string[];
  /** Why a promotion of the Stage started at second t fails, or undefined. */
  readonly failureAt: (stage: ModelStage, t: number) => string | undefined;
}

/** One reconcile (or a person's look); returns the Stages it wakes. */
function reconcile(run: Run, freight: ModelFreight[], t: number, c: ReconcileContext): string[] {
  const { stage } = run;
  const listed = listFreightAvailableToStage(freight, stage.name, stage.requests, t);
  if (stage.controlFlow) {
    if (listed.length === 0 || run.verified !== undefined) return [];
    run.reached = t;
    return markVerified(run, freight, t, c.downstream);
  }
  if (run.nextReconcile <= t) run.nextReconcile = t + REQUEUE;
  if (run.reached !== undefined || run.promotingUntil !== undefined) return [];
  const candidate = listed[listed.length - 1];
  if (candidate === undefined || !isFreightAvailable(candidate, stage.name, stage.requests, t)) return [];
  if (run.failedAt !== undefined && t < run.failedAt + RETRY_AFTER_FAILURE) return [];
  const failure = c.failureAt(stage, t);
  if (failure !== undefined) {
    run.failedAt = t;
    run.heldBy = failure;
    return [];
  }
  run.failedAt = undefined;
  run.promotingUntil = t + c.promotion;
  return [];
}

/**
 * What the timeline shows against what the Stages ask: a Stage the release never reaches, one
 * it reaches later than its upstreams' checks and the soak it asks for allow (plus a promotion
 * and a reconcile; a Stage a failed promotion held, as a freeze does by design, and the Stages
 * after it count from when it was reached), and one it reaches before that soak is over.
 */
function judge(runs: Map<string, Run>, options: ReleaseTimelineOptions): ControllerFinding[] {
  const out: ControllerFinding[] = [];
  const latestOf = latestReach(runs, options.promotionSeconds ?? 60);
  for (const run of runs.values()) {
    const { stage } = run;
    const soak = stage.askedSoakSeconds ?? 0;
    const path = '/spec/requestedFreight/0/sources';
    if (run.reached === undefined) {
      out.push(finding(stage.obj, path, 'freight-never-available',
        `the release never reaches Stage ${JSON.stringify(stage.name)} (looked ${days(options.horizonSeconds ?? 7 * 24 * 3600)}): ${whyNot(run, runs)}`));
      continue;
    }
    const latest = latestOf(stage.name);
    if (Number.isFinite(latest) && run.reached > latest) {
      out.push(finding(stage.obj, path, 'freight-late',
        `the release reaches Stage ${JSON.stringify(stage.name)} after ${hours(run.reached)}, though its upstreams' checks and its soak allow ${hours(latest)}`));
    }
    const soakEnd = combine(stage, upstreamRuns(stage, runs).map(u => (u.reached ?? Infinity) + soak));
    if (soak > 0 && run.reached < soakEnd) {
      out.push(finding(stage.obj, path, 'soak-not-enforced',
        `the release reaches Stage ${JSON.stringify(stage.name)} after ${hours(run.reached)}, before its soak of ${hours(soak)} upstream is over (${hours(soakEnd)})`));
    }
  }
  return out;
}

/**
 * The latest second the release should reach each Stage, from the Stages alone: when its
 * upstreams verified it (their AnalysisRun's length) or it soaked there as long as the Stage
 * asks, whichever is later, through every upstream of an All join and the first of a OneOf;
 * then a promotion and, for auto-promotion, one 5-minute requeue; one tick of slack.
 */
function latestReach(runs: Map<string, Run>, promotion: number): (name: string) => number {
  const memo = new Map<string, number>();
  const latest = (name: string): number => {
    const known = memo.get(name);
    if (known !== undefined) return known;
    memo.set(name, Infinity); // a cycle never delivers
    const run = runs.get(name)!;
    const { stage } = run;
    const soak = stage.askedSoakSeconds ?? 0;
    const ready = combine(stage, upstreamRuns(stage, runs).map(u => latest(u.stage.name) + Math.max(u.stage.verificationSeconds, soak)));
    const planned = ready + (stage.controlFlow ? 0 : promotion + (stage.autoPromote ? REQUEUE : 0)) + TICK;
    // a failed promotion (a freeze) holds a Stage by design: it and what follows it count from when it was reached
    const value = run.heldBy !== undefined && run.reached !== undefined ? Math.max(planned, run.reached) : planned;
    memo.set(name, value);
    return value;
  };
  return latest;
}

function upstreamRuns(stage: ModelStage, runs: Map<string, Run>): Run[] {
  return stage.requests.flatMap(r => r.stages).map(u => runs.get(u)).filter((u): u is Run => u !== undefined);
}

/** All joins wait for the last upstream, OneOf (the default) for the first. */
function combine(stage: ModelStage, times: number[]): number {
  if (times.length === 0) return 0;
  return stage.requests.every(r => r.strategy === 'All') ? Math.max(...times) : Math.min(...times);
}

function whyNot(run: Run, runs: Map<string, Run>): string {
  const { stage } = run;
  if (run.heldBy !== undefined) return run.heldBy;
  const missing = stage.requests.flatMap(r => r.stages).filter(u => runs.get(u)?.verified === undefined);
  const req = stage.requests[0];
  if (req === undefined) return 'it requests no Freight';
  if (req.strategy === 'All' ? missing.length > 0 : missing.length === req.stages.length) {
    const held = missing.map(m => heldUpstream(m, runs)).find(h => h !== undefined);
    return `its upstream ${missing.map(m => JSON.stringify(m)).join(', ')} never verifies it${held ? ` (${held})` : ''}`;
  }
  const ups = req.stages.map(u => runs.get(u)).filter((u): u is Run => u !== undefined);
  if (ups.some(u => u.stage.controlFlow) && req.soakSeconds !== undefined) {
    return 'it asks for a soak in a control-flow Stage, where Freight is never current, so its soak stays 0 (Freight.GetLongestSoak)';
  }
  if (req.strategy === 'All' && req.soakSeconds !== undefined) {
    return 'availabilityStrategy All with requiredSoakTime lists Freight only if the Stages it has soaked in EQUAL the upstreams '
      + '(ListFreightFromWarehouse), and it has soaked in earlier Stages too';
  }
  if (stage.controlFlow) {
    return 'a control-flow Stage is reconciled only when Freight is newly verified upstream, never on a timer, '
      + 'and the soak was not over then (control_flow_stages.go)';
  }
  return 'the Freight is never listed as available to it (ListFreightFromWarehouse)';
}

/** What holds a Stage the release never verifies, or the first of its upstreams that a failed promotion holds. */
function heldUpstream(name: string, runs: Map<string, Run>): string | undefined {
  const run = runs.get(name);
  if (run === undefined || run.verified !== undefined) return undefined;
  if (run.heldBy !== undefined) return `${JSON.stringify(name)}: ${run.heldBy}`;
  for (const u of run.stage.requests.flatMap(r => r.stages)) {
    const held = heldUpstream(u, runs);
    if (held !== undefined) return held;
  }
  return undefined;
}

function hours(seconds: number): string {
  return `${Math.round((seconds / 3600) * 100) / 100}h`;
}

function days(seconds: number): string {
  return `${Math.round((seconds / 86400) * 10) / 10}d`;
}
