import { canonicalJson, ManifestObject } from './manifest-set';
import { AppChange, PlanChange } from './release-diff';
import { ActiveWindow, activeOccurrence, SyncWindow, windowApplies } from './sync-windows';
import { PlatformLabels } from '../contracts/labels';
import { didYouMean } from '../util/closest';
import { describe, within } from '../util/errors';

/**
 * Annotation that lets an app change production while a deny sync window is active. Put it on the
 * app's AppProject (or its Kargo Project) with the reason and who agreed, e.g.
 * `gitops-platform.io/freeze-override: "CHG-1234 hotfix, approved by release board"`.
 */
export const FREEZE_OVERRIDE_ANNOTATION = PlatformLabels.FREEZE_OVERRIDE;

/** What a change rule sees besides the change. */
export interface ChangeRuleContext {
  /** The time the change would be merged (for freezes). */
  readonly now: Date;
}

/** One broken change rule. */
export interface ChangeViolation {
  readonly ruleId: string;
  readonly app: string;
  /** What is wrong, showing the values. */
  readonly message: string;
  /** How to satisfy the rule. */
  readonly fix: string;
}

/**
 * A standard that looks at a change (base → head), not only at the end state.
 * The end state is checked by `PlatformStandards` at synth time.
 */
export interface ChangeRule {
  /** A stable id (lowercase, dashes), used in configuration and messages. */
  readonly id: string;
  /** What the rule asks for, in one line. */
  readonly description: string;
  /** @returns one violation per broken occurrence; empty when the change complies */
  check(change: PlanChange, context: ChangeRuleContext): ChangeViolation[];
}

/** Options of `maxProductionWaveGrowth`. */
export interface MaxProductionWaveGrowthOptions {
  /**
   * How many clusters a change may add to one production wave.
   * @default 5
   */
  readonly maxClusters?: number;
}

/**
 * `max-production-wave-growth`: a change may add at most N clusters to any production wave (a new
 * wave of an existing app counts from zero; a new app is exempt: nothing runs there yet, and the
 * end-state standards review its waves).
 */
export function maxProductionWaveGrowth(options: MaxProductionWaveGrowthOptions = {}): ChangeRule {
  const max = options.maxClusters ?? 5;
  if (!Number.isInteger(max) || max < 0) {
    throw new Error(within('max-production-wave-growth', describe('maxClusters', max, 'must be a whole number >= 0')));
  }
  return {
    id: 'max-production-wave-growth',
    description: `a change may add at most ${max} cluster(s) to one production wave`,
    check: (change) => change.apps.filter((a) => a.status === 'changed').flatMap((app) => app.stages
      .filter((s) => s.production)
      .flatMap((s) => s.waves.filter((w) => w.clustersAdded.length > max).map((w) => ({
        ruleId: 'max-production-wave-growth',
        app: app.app,
        message: `${app.app}: production wave ${w.wave} grows by ${w.clustersAdded.length} cluster(s) (${w.clustersAdded.join(', ')}), more than ${max}`,
        fix: `add at most ${max} cluster(s) to ${w.wave} per change (split the change, or add a wave), or raise maxClusters in the config`,
      })))),
  };
}

/**
 * `no-production-change-during-freeze`: while an Argo CD deny sync window of the app's AppProject
 * (before or after the change: removing a freeze does not lift it for the same change) is active
 * and applies to one of the app's production Applications, the change may not touch production,
 * unless the app's AppProject or Kargo Project carries `FREEZE_OVERRIDE_ANNOTATION` with a reason.
 */
export function noProductionChangeDuringFreeze(): ChangeRule {
  const id = 'no-production-change-during-freeze';
  return {
    id,
    description: 'no change to production while a deny sync window is active, unless overridden',
    check: (change, context) => change.apps.flatMap((app) => {
      if (!touchesProduction(app)) return [];
      const projects = [...change.base.ofGroup(app.app), ...change.head.ofGroup(app.app)]
        .filter((o) => o.obj?.kind === 'AppProject' && String(o.obj?.apiVersion ?? '').startsWith('argoproj.io/'));
      const windows = denyWindows(projects);
      if (windows.size === 0) return [];
      const targets = [...(app.before?.stages ?? []), ...(app.after?.stages ?? [])]
        .filter((s) => s.production).flatMap((s) => s.waves.flatMap((w) => w.targets));
      const violations: ChangeViolation[] = [];
      for (const group of windows.values()) {
        const window = group[0];
        let active;
        try {
          active = activeOccurrence(window, context.now);
        } catch (e) {
          violations.push({ ruleId: id, app: app.app, message: `${app.app}: sync window ${describeWindow(window)} cannot be evaluated: ${(e as Error).message}`, fix: 'fix the sync window' });
          continue;
        }
        const hit = targets.find((t) => group.some((w) => windowApplies(w, t)));
        if (!active || !hit) continue;
        const override = overrideReason(change, app.app);
        if (override) continue;
        violations.push({
          ruleId: id,
          app: app.app,
          message: `${app.app}: changes production (${countOf(app)}) during the freeze ${describeWindow(window)}, active from ${active.start.toISOString()} to ${active.end.toISOString()} for Application ${hit.application}`,
          fix: `merge after ${active.end.toISOString()}, or give the PlatformApp freezeOverride: FreezeOverride.of({ by, reason }), which writes the ${FREEZE_OVERRIDE_ANNOTATION} annotation`,
        });
      }
      return violations;
    }),
  };
}

function touchesProduction(app: AppChange): boolean {
  const p = app.productionObjects;
  return p.added.length + p.changed.length + p.removed.length > 0
    || app.stages.some((s) => s.production && (s.waves.length > 0 || s.status !== 'changed'));
}

function countOf(app: AppChange): string {
  const p = app.productionObjects;
  return `${p.added.length} added, ${p.changed.length} changed, ${p.removed.length} removed object(s)`;
}

/** A window in one line: schedule, duration, zone and reason. */
export function describeWindow(w: SyncWindow): string {
  return `"${w.schedule}" for ${w.duration}${w.timeZone ? ` (${w.timeZone})` : ''}${w.description ? ` – ${w.description}` : ''}`;
}

function overrideReason(change: PlanChange, app: string): string | undefined {
  for (const o of change.head.ofGroup(app)) {
    const kind = o.obj?.kind;
    if (kind !== 'AppProject' && kind !== 'Project') continue;
    const reason = o.obj?.metadata?.annotations?.[FREEZE_OVERRIDE_ANNOTATION];
    if (typeof reason === 'string' && reason.trim() !== '') return reason;
  }
  return undefined;
}

/**
 * The deny windows of some AppProjects, one group per freeze: the app's central AppProject and the
 * AppProject of each cluster with its own Argo CD carry the same window, each with its own
 * `applications`/`namespaces`/`clusters` selectors, so windows group by everything else (one
 * freeze, listed and reported once, that applies where any of its copies applies).
 */
function denyWindows(projects: ManifestObject[]): Map<string, SyncWindow[]> {
  const groups = new Map<string, SyncWindow[]>();
  for (const p of projects) {
    for (const w of p.obj.spec?.syncWindows ?? []) {
      if (w?.kind !== 'deny') continue;
      const { applications: _a, namespaces: _n, clusters: _c, ...when } = w;
      const key = canonicalJson(when);
      groups.set(key, [...(groups.get(key) ?? []), w]);
    }
  }
  return groups;
}

/** A deny sync window that is active now and holds some stages of a changed app. */
export interface ActiveFreeze {
  readonly app: string;
  /** The pipeline stages whose Applications it holds, in promotion order. */
  readonly stages: string[];
  readonly window: SyncWindow;
  readonly active: ActiveWindow;
  /** The override recorded on the app's AppProject or Kargo Project, if any. */
  readonly override?: string;
}

/**
 * The deny windows of the changed apps' AppProjects (after the change) that are active at `now`,
 * with the stages they hold: what the plan shows as active freezes. Windows that do not evaluate
 * are left to `no-production-change-during-freeze`, which reports them.
 */
export function activeFreezes(change: PlanChange, now: Date): ActiveFreeze[] {
  return change.apps.flatMap((app) => {
    const windows = denyWindows(change.head.ofGroup(app.app).filter((o) => o.obj?.kind === 'AppProject' && String(o.obj?.apiVersion ?? '').startsWith('argoproj.io/')));
    const out: ActiveFreeze[] = [];
    for (const group of windows.values()) {
      const window = group[0];
      let active: ActiveWindow | undefined;
      try {
        active = activeOccurrence(window, now);
      } catch {
        continue;
      }
      if (!active) continue;
      const stages = (app.after?.stages ?? [])
        .filter((s) => s.waves.some((w) => w.targets.some((t) => group.some((g) => windowApplies(g, t))))).map((s) => s.name);
      if (stages.length > 0) out.push({ app: app.app, stages, window, active, override: overrideReason(change, app.app) });
    }
    return out;
  });
}

/** Configuration of the change rules (the `changeRules` key of the config file). */
export interface ChangeRulesConfig {
  /**
   * Per rule id: `false` turns a built-in rule off, an object passes options.
   * @default - every built-in rule with its defaults
   */
  readonly [ruleId: string]: boolean | Record<string, unknown> | undefined;
}

/** The ids of the built-in rules, in the order they run. */
export const BUILT_IN_CHANGE_RULES = ['max-production-wave-growth', 'no-production-change-during-freeze'];

/**
 * The built-in rules as configured.
 * @throws on an unknown rule id or a bad option
 */
export function changeRules(config: ChangeRulesConfig = {}): ChangeRule[] {
  for (const key of Object.keys(config)) {
    if (!BUILT_IN_CHANGE_RULES.includes(key)) {
      throw new Error(describe('change rule', key, 'is not known', didYouMean(key, BUILT_IN_CHANGE_RULES)));
    }
  }
  const options = (id: string): Record<string, unknown> | undefined => {
    const value = config[id];
    if (value === false) return undefined;
    return typeof value === 'object' && value !== null ? value : {};
  };
  const rules: ChangeRule[] = [];
  const growth = options('max-production-wave-growth');
  if (growth) rules.push(maxProductionWaveGrowth({ maxClusters: growth.maxClusters as number | undefined }));
  if (options('no-production-change-during-freeze')) rules.push(noProductionChangeDuringFreeze());
  return rules;
}

/** Runs rules in order. */
export function checkChange(change: PlanChange, rules: ChangeRule[], context: ChangeRuleContext): ChangeViolation[] {
  return rules.flatMap((r) => r.check(change, context));
}
