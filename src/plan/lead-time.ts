import { ReleasePlan, StagePlan, WavePlan } from './release-plan';
import { ApprovalKind } from '../pipeline/approval';
import { JoinKind } from '../pipeline/join';
import { parseGoDuration } from '../util/duration';

/**
 * How a Warehouse learns of a new artifact.
 */
export enum DiscoveryMode {
  /** Kargo polls every subscription each `interval` (Kargo's default, 5 minutes). */
  POLLING = 'polling',
  /** A webhook receiver refreshes the Warehouse on a push; polling is only the fallback. */
  WEBHOOK = 'webhook',
}

/**
 * How an app's Warehouse discovers new artifacts, and how long that takes at worst.
 */
export interface DiscoveryPlan {
  /** Webhook only when a receiver covers every subscription; otherwise polling. */
  readonly mode: DiscoveryMode;
  /** The Warehouse's `spec.interval` (Kargo duration). */
  readonly interval: string;
  /** The longest a new artifact waits to be discovered, in seconds: the interval when polling, 0 with webhooks. */
  readonly waitSeconds: number;
  /** The receivers that refresh the Warehouse (`<name>`, or `<project>/<name>` for a project's own). */
  readonly receivers: string[];
  /** The subscribed repositories no receiver covers: they are only polled. */
  readonly polled: string[];
}

/**
 * How long one Kargo Stage's verification takes at the least, and what makes it that long.
 */
export interface VerificationTime {
  /** Seconds from the start of the AnalysisRun to its end when every measurement passes. */
  readonly seconds: number;
  /** The metric that takes longest (`soak` for the soak the next Stages ask for). */
  readonly longest: string;
}

/** One part of a lead time. */
export interface LeadTimeContributor {
  /** What takes the time, e.g. `discovery: polling every 5m0s` or `prod-canary: soak`. */
  readonly what: string;
  /** How long it takes, in seconds. */
  readonly seconds: number;
}

/** A promotion a person must allow on the way: counted and named, never estimated. */
export interface LeadTimeApproval {
  /** The Kargo Stage the person promotes into. */
  readonly kargoStage: string;
  /** Its pipeline stage. */
  readonly stage: string;
  /** How the promotion is approved (`manual` or `pull-request`; `automatic` for a stage without auto-promotion). */
  readonly approval: ApprovalKind;
  /** The OIDC groups that may approve. */
  readonly promoters: string[];
}

/** One way from the Warehouse to a terminal Kargo Stage. */
export interface LeadTimePath {
  /** The Kargo Stages in order. */
  readonly kargoStages: string[];
  /** The discovery wait plus every Stage's verification on the way, in seconds. */
  readonly seconds: number;
  /** Whether the release waits for this path: false for a branch an any-of join does not wait for, or one a slower branch of an all join outlasts. */
  readonly binding: boolean;
}

/** How long a release takes to be verified on every cluster of one pipeline stage. */
export interface StageLeadTime {
  /** The pipeline stage. */
  readonly stage: string;
  /** Seconds from a new artifact to Freight verified on the stage's last Kargo Stage. */
  readonly seconds: number;
  /** The Kargo Stages the release waits for on the way, in order. */
  readonly criticalPath: string[];
  /** What makes up `seconds`, biggest first. */
  readonly contributors: LeadTimeContributor[];
}

/**
 * The least time from a new artifact (image, chart or commit) to a verified release on the last
 * cluster of every terminal stage, from what the definition says: discovery, verification
 * (checks and soaks), waves in series, fan-out in parallel, joins. Promotion steps and syncs are
 * not counted (they depend on the repositories and clusters), nor is a person's time: approvals
 * are counted and named instead, and freezes in force on the way are noted.
 */
export interface LeadTime {
  /** Seconds to the slowest terminal stage. */
  readonly seconds: number;
  /** How the Warehouse discovers artifacts. */
  readonly discovery: DiscoveryPlan;
  /** The Kargo Stages the release waits for on the way to the slowest terminal stage. */
  readonly criticalPath: string[];
  /** What makes up `seconds`, biggest first. */
  readonly contributors: LeadTimeContributor[];
  /** Every pipeline stage, in plan order. */
  readonly stages: StageLeadTime[];
  /** Every way from the Warehouse to a terminal Kargo Stage (at most `MAX_PATHS`). */
  readonly paths: LeadTimePath[];
  /** The promotions a person must allow on the ways the release waits for, in plan order. */
  readonly approvals: LeadTimeApproval[];
  /** The freezes of the stages on those ways: `<stage>: <reason> (<schedule> for <duration> <zone>)`. */
  readonly freezes: string[];
}

/** Paths listed before the rest are only counted (a wide fan-out joined again multiplies them). @internal */
export const MAX_PATHS = 32;

/**
 * How long one Stage's verification takes when every measurement passes. Kargo v1.11.2 runs
 * all the Stage's templates as ONE AnalysisRun (pkg/rollouts/analysis_run_builder.go, `Build`,
 * `combineAnalysisTemplateSpecs`), whose metrics run side by side; Argo Rollouts v1.9.1 ends the
 * run when its last metric completes (analysis/analysis.go, `assessRunStatus`). A metric's first
 * measurement waits `initialDelay` from the run's start, each further one `interval` after the
 * last finished, until `count` (`generateMetricTasks`; `Metric.EffectiveCount` in
 * pkg/apis/rollouts/v1alpha1/analysis_types.go: 1 when neither count nor interval is set).
 * @internal
 */
export function verificationTime(templates: { readonly spec: any }[]): VerificationTime {
  let longest: VerificationTime = { seconds: 0, longest: '' };
  for (const t of templates) {
    for (const m of t.spec?.metrics ?? []) {
      const seconds = metricSeconds(m);
      if (seconds > longest.seconds) longest = { seconds, longest: m.name };
    }
  }
  return longest;
}

function metricSeconds(metric: any): number {
  const delay = metric.initialDelay ? parseGoDuration(metric.initialDelay) / 1000 : 0;
  const interval = metric.interval ? parseGoDuration(metric.interval) / 1000 : 0;
  const count = Number(metric.count);
  const measurements = Number.isFinite(count) && count > 0 ? count : 1;
  return delay + (measurements - 1) * interval;
}

interface Reach {
  /** When Freight is verified in the Kargo Stage. */
  readonly verified: number;
  /** The upstream the Stage waits for (the slowest of an all join, the fastest of an any-of join). */
  readonly via?: string;
}

/**
 * The lead time of a plan, from its discovery and each Kargo Stage's verification time (by Kargo
 * Stage; a Stage without one verifies at once). Reads the plan's graph: upstreams come before
 * their downstreams in plan order.
 * @internal
 */
export function computeLeadTime(plan: ReleasePlan, discovery: DiscoveryPlan, verification: Map<string, VerificationTime>): LeadTime {
  const waves = plan.stages.flatMap(stage => stage.waves.map(wave => ({ stage, wave })));
  const reach = new Map<string, Reach>();
  for (const { wave } of waves) {
    const own = wave.controlFlow ? 0 : verification.get(wave.kargoStage)?.seconds ?? 0;
    if (wave.upstreams.length === 0) {
      reach.set(wave.kargoStage, { verified: discovery.waitSeconds + own });
      continue;
    }
    const anyOf = wave.join === JoinKind.ANY_OF;
    const pick = wave.upstreams.reduce((best, up) => {
      const at = reach.get(up)?.verified ?? 0;
      return (anyOf ? at < reach.get(best)!.verified : at > reach.get(best)!.verified) ? up : best;
    });
    reach.set(wave.kargoStage, { verified: reach.get(pick)!.verified + own, via: pick });
  }
  const chain = (kargoStage: string): string[] => {
    const path = [kargoStage];
    for (let via = reach.get(kargoStage)?.via; via !== undefined; via = reach.get(via)?.via) path.unshift(via);
    return path;
  };
  const byKargoStage = new Map(waves.map(x => [x.wave.kargoStage, x]));
  const contributors = (path: string[]): LeadTimeContributor[] => [
    ...discovery.waitSeconds > 0 ? [{ what: `discovery: polling every ${discovery.interval}`, seconds: discovery.waitSeconds }] : [],
    ...path.flatMap(k => {
      const v = verification.get(k);
      return v && v.seconds > 0 && !byKargoStage.get(k)!.wave.controlFlow ? [{ what: `${k}: ${v.longest}`, seconds: v.seconds }] : [];
    }),
  ].sort((a, b) => b.seconds - a.seconds);

  const stages: StageLeadTime[] = plan.stages.map(stage => {
    const slowest = stage.waves.reduce((a, b) => (reach.get(b.kargoStage)!.verified > reach.get(a.kargoStage)!.verified ? b : a));
    const path = chain(slowest.kargoStage);
    return { stage: stage.name, seconds: reach.get(slowest.kargoStage)!.verified, criticalPath: path, contributors: contributors(path) };
  });
  const downstreamOf = new Set(waves.flatMap(x => x.wave.upstreams));
  const terminals = waves.filter(x => !downstreamOf.has(x.wave.kargoStage)).map(x => x.wave.kargoStage);
  const last = terminals.reduce((a, b) => (reach.get(b)!.verified > reach.get(a)!.verified ? b : a), terminals[0]);
  const criticalPath = last === undefined ? [] : chain(last);
  const bindingChains = terminals.map(chain);
  const binding = new Set(bindingChains.map(c => c.join('>')));
  const waited = new Set(bindingChains.flat());
  const waitedWaves = waves.filter(x => waited.has(x.wave.kargoStage));
  return {
    seconds: last === undefined ? discovery.waitSeconds : reach.get(last)!.verified,
    discovery,
    criticalPath,
    contributors: contributors(criticalPath),
    stages,
    paths: allPaths(byKargoStage, terminals).map(p => ({
      kargoStages: p,
      seconds: discovery.waitSeconds + p.reduce((sum, k) => sum + (byKargoStage.get(k)!.wave.controlFlow ? 0 : verification.get(k)?.seconds ?? 0), 0),
      binding: binding.has(p.join('>')),
    })),
    approvals: waitedWaves.filter(x => isGated(x.stage, x.wave)).map(({ stage, wave }) => ({
      kargoStage: wave.kargoStage, stage: stage.name, approval: stage.approval, promoters: [...stage.promoters],
    })),
    freezes: [...new Set(waitedWaves.map(x => x.stage))].flatMap(s => s.freezes.map(f =>
      `${s.name}: ${f.reason} (${f.schedule} for ${f.duration} ${f.timeZone})`)),
  };
}

/** A person must act before Freight enters the Stage: an approval gate, or no auto-promotion. */
function isGated(stage: StagePlan, wave: WavePlan): boolean {
  return !wave.controlFlow && (stage.gated || !stage.autoPromote);
}

/** Every way from a Stage without upstreams to each terminal Stage, at most `MAX_PATHS`. */
function allPaths(byKargoStage: Map<string, { wave: WavePlan }>, terminals: string[]): string[][] {
  const out: string[][] = [];
  const walk = (k: string, rest: string[]) => {
    if (out.length >= MAX_PATHS) return;
    const ups = byKargoStage.get(k)?.wave.upstreams ?? [];
    if (ups.length === 0) {
      out.push([k, ...rest]);
      return;
    }
    for (const up of ups) walk(up, [k, ...rest]);
  };
  for (const t of terminals) walk(t, []);
  return out;
}
