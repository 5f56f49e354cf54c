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
  /** The subscribed repositories no ready receiver covers: they are only polled. */
  readonly polled: string[];
  /**
   * Receivers that cover a subscription but are not declared ready (`WebhookReceiverOptions.ready`):
   * the Warehouse keeps polling at Kargo's interval until they are.
   */
  readonly notReady: string[];
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

/**
 * One way from the Warehouse to a terminal wave. A wave whose clusters several Argo CDs deploy
 * is several Kargo Stages promoted side by side; a path names it by its first (central) one.
 */
export interface LeadTimePath {
  /** The first Kargo Stage of each wave on the way, in order. */
  readonly waves: string[];
  /** The discovery wait plus the slowest verification of each wave on the way, in seconds. */
  readonly seconds: number;
  /** Whether this is the way to the slowest terminal stage the release waits for. */
  readonly critical: boolean;
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
  // every Kargo Stage a release must pass: an all join (Kargo's availabilityStrategy All) needs
  // Freight verified in every upstream, so each upstream branch's approvals are given too; an
  // any-of join needs one branch (the fastest, as timed above)
  const waited = new Set<string>();
  const visit = (kargoStage: string) => {
    if (waited.has(kargoStage)) return;
    waited.add(kargoStage);
    const wave = byKargoStage.get(kargoStage)?.wave;
    if (wave === undefined) return;
    const via = reach.get(kargoStage)?.via;
    for (const up of wave.join === JoinKind.ANY_OF ? (via === undefined ? [] : [via]) : wave.upstreams) visit(up);
  };
  terminals.forEach(visit);
  const waitedWaves = waves.filter(x => waited.has(x.wave.kargoStage));
  return {
    seconds: last === undefined ? discovery.waitSeconds : reach.get(last)!.verified,
    discovery,
    criticalPath,
    contributors: contributors(criticalPath),
    stages,
    paths: wavePaths(plan, discovery, verification, bindingChains, criticalPath),
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

/** A wave: the Kargo Stages of one stage and wave name, promoted side by side from the same upstreams. */
interface WaveGroup {
  readonly first: string;
  readonly upstreams: Set<string>;
  seconds: number;
}

/**
 * Every way from the Warehouse to each terminal wave, at most `MAX_PATHS`: over waves, not Kargo
 * Stages, or the parallel Stages of clusters with their own Argo CD multiply the ways.
 */
function wavePaths(plan: ReleasePlan, discovery: DiscoveryPlan, verification: Map<string, VerificationTime>, bindingChains: string[][],
  criticalPath: string[]): LeadTimePath[] {
  const groupOf = new Map<string, string>();
  const groups = new Map<string, WaveGroup>();
  for (const stage of plan.stages) {
    for (const wave of stage.waves) {
      const key = `${stage.name}/${wave.name}`;
      groupOf.set(wave.kargoStage, key);
      const g = groups.get(key) ?? { first: wave.kargoStage, upstreams: new Set<string>(), seconds: 0 };
      wave.upstreams.forEach(up => g.upstreams.add(up));
      g.seconds = Math.max(g.seconds, wave.controlFlow ? 0 : verification.get(wave.kargoStage)?.seconds ?? 0);
      groups.set(key, g);
    }
  }
  const asWaves = (chain: string[]) => [...new Set(chain.map(k => groupOf.get(k)!))].join('>');
  const binding = new Set(bindingChains.map(asWaves));
  const critical = asWaves(criticalPath);
  const downstream = new Set([...groups.values()].flatMap(g => [...g.upstreams].map(up => groupOf.get(up)!)));
  const out: string[][] = [];
  const walk = (key: string, rest: string[]) => {
    if (out.length >= MAX_PATHS) return;
    const ups = [...new Set([...groups.get(key)!.upstreams].map(up => groupOf.get(up)!))];
    if (ups.length === 0) out.push([key, ...rest]);
    for (const up of ups) walk(up, [key, ...rest]);
  };
  for (const key of groups.keys()) if (!downstream.has(key)) walk(key, []);
  return out.map(path => ({
    waves: path.map(key => groups.get(key)!.first),
    seconds: discovery.waitSeconds + path.reduce((sum, key) => sum + groups.get(key)!.seconds, 0),
    critical: path.join('>') === critical,
    binding: binding.has(path.join('>')),
  }));
}
