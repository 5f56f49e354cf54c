import { ActiveFreeze, ChangeRule, ChangeViolation, describeWindow } from './change-rules';
import { ManifestObject } from './manifest-set';
import { FieldChange, fieldChanges } from './object-fields';
import { ObjectChanges, PlanChange } from './release-diff';
import { RiskFlag, touchedClusters } from './risk-flags';
import { ManifestIssue } from '../testkit/manifest-issue';

/**
 * The version of the JSON that `plan --json` and `validate --json` print. It changes only when a
 * field is removed or changes meaning; new fields keep it. The JSON Schemas are
 * `src/cli/plan-output.schema.json` and `src/cli/validate-output.schema.json`.
 */
export const OUTPUT_SCHEMA_VERSION = 1;

/**
 * What `plan --json` prints: the change between two synthesized trees, per app and for the fleet,
 * with the change standards, risks and active freezes. Its JSON Schema ships as
 * `cdk8s-gitops-platform/cli/plan-output.schema.json`.
 */
export interface PlanOutput {
  /** `OUTPUT_SCHEMA_VERSION`: changes only when a field is removed or changes meaning. */
  readonly schemaVersion: number;
  /** The command that printed the document. */
  readonly command: 'plan';
  /** What the change is compared with: the base commit, or the base directory. */
  readonly base: string;
  /** Why the base is empty (no commit, no cdk8s.yaml): everything is added. */
  readonly note?: string;
  /** Whether any app or the fleet changed (`--detailed-exitcode` then exits 2). */
  readonly changed: boolean;
  /** The apps whose objects changed, by name. */
  readonly apps: AppOutput[];
  /** The apps whose objects are identical on both sides, by name. */
  readonly unaffected: string[];
  /** The fleet's change (cluster Secrets and the fleet's other objects), or null when it has none. */
  readonly fleet: FleetOutput | null;
  /** Every cluster one of whose objects changed, sorted. */
  readonly clustersTouched: string[];
  /** Every change standard that ran, with its violations. */
  readonly rules: RuleOutput[];
  /** What a reviewer must not miss; risks never change the exit code. */
  readonly risks: RiskFlag[];
  /** The deploy freezes (deny sync windows) active at the time `plan` evaluated them. */
  readonly freezes: FreezeOutput[];
}

/** The objects of an app or of the fleet that were added, changed or removed. */
export interface ObjectsOutput {
  /** The keys of the objects added: `[<cluster>] <apiVersion> <kind> <namespace>/<name>`. */
  readonly added: string[];
  /** The objects changed, each with the fields that differ. */
  readonly changed: ChangedObjectOutput[];
  /** The keys of the objects removed. */
  readonly removed: string[];
}

/** One changed object. */
export interface ChangedObjectOutput {
  /** The object's key (see `ObjectsOutput.added`). */
  readonly key: string;
  /** The leaf fields that differ, sorted by path; a Secret's data is redacted. */
  readonly fields: FieldChange[];
}

/** The change of one app. */
export interface AppOutput {
  /** The app's name. */
  readonly name: string;
  /** Whether the app is new, gone, or changed. */
  readonly status: 'added' | 'removed' | 'changed';
  /** The clusters the app now deploys to and did not before. */
  readonly clustersAdded: string[];
  /** The clusters the app no longer deploys to. */
  readonly clustersRemoved: string[];
  /** The pipeline stages whose waves, clusters, gates, soak or checks changed. */
  readonly stages: StageOutput[];
  /** The app's objects added, changed and removed. */
  readonly objects: ObjectsOutput;
  /** How many of those objects belong to a production stage. */
  readonly productionObjects: number;
  /**
   * The app's lead time (a new artifact to the last cluster of every terminal stage) before and
   * after, present only when the change alters it; `unknown` where a side records none.
   */
  readonly leadTime?: { before: string; after: string };
}

/** The change of one pipeline stage of an app. */
export interface StageOutput {
  /** The stage's name. */
  readonly name: string;
  /** Whether it is new, gone, or changed. */
  readonly status: 'added' | 'removed' | 'changed';
  /** Whether the stage is production (all its clusters carry a production tier, or it is named so in the config). */
  readonly production: boolean;
  /** The number of waves before and after. */
  readonly waveCount: { before: number; after: number };
  /** The waves that were added, removed, renamed or whose clusters changed. */
  readonly waves: WaveOutput[];
}

/** The change of one wave of a stage. */
export interface WaveOutput {
  /** The wave's name. */
  readonly name: string;
  /** Whether it is new, gone, or changed. */
  readonly status: 'added' | 'removed' | 'changed';
  /** The wave's name before, when the wave at its position was renamed. */
  readonly previousName?: string;
  /** The clusters that joined the wave. */
  readonly clustersAdded: string[];
  /** The clusters that left the wave. */
  readonly clustersRemoved: string[];
}

/** The change of the fleet. */
export interface FleetOutput {
  /** The clusters whose Secret is new. */
  readonly clustersAdded: string[];
  /** The clusters whose Secret is gone. */
  readonly clustersRemoved: string[];
  /** The clusters whose Secret changed. */
  readonly clustersChanged: string[];
  /** The fleet's objects added, changed and removed. */
  readonly objects: ObjectsOutput;
}

/** A change standard and what broke it. */
export interface RuleOutput {
  /** The rule's id, e.g. `max-production-wave-growth`. */
  readonly id: string;
  /** What the rule asks for. */
  readonly description: string;
  /** Whether the change keeps the rule (no violations). */
  readonly passed: boolean;
  /** Where the change breaks the rule, and how to keep it. */
  readonly violations: RuleViolationOutput[];
}

/** One place a change breaks a change standard. */
export interface RuleViolationOutput {
  /** The app (or `fleet`). */
  readonly app: string;
  /** What breaks the rule. */
  readonly message: string;
  /** How to satisfy it. */
  readonly fix: string;
}

/** A deploy freeze active when `plan` ran. */
export interface FreezeOutput {
  /** The app whose AppProject holds the window. */
  readonly app: string;
  /** The app's stages whose Applications the window applies to. */
  readonly stages: string[];
  /** The window as a reader sees it (schedule, duration, time zone). */
  readonly window: string;
  /** When the active occurrence began (ISO time). */
  readonly start: string;
  /** When it ends (ISO time). */
  readonly end: string;
  /** Whether a person may still sync during the window. */
  readonly manualSync: boolean;
  /** The app's recorded freeze override (reason, by, until), if any. */
  readonly override?: string;
}

function objectsOutput(o: ObjectChanges, base: ManifestObject[], head: ManifestObject[]): ObjectsOutput {
  const find = (set: ManifestObject[], key: string) => set.find((x) => x.key === key)?.obj;
  return {
    added: o.added,
    changed: o.changed.map((key) => ({ key, fields: fieldChanges(find(base, key), find(head, key)) })),
    removed: o.removed,
  };
}

/** The change as the versioned JSON document of `plan --json`. */
export function planOutput(change: PlanChange, baseLabel: string, rules: ChangeRule[], violations: ChangeViolation[],
  risks: RiskFlag[], freezes: ActiveFreeze[], note?: string): PlanOutput {
  const fleet = change.fleet;
  return {
    schemaVersion: OUTPUT_SCHEMA_VERSION,
    command: 'plan',
    base: baseLabel,
    ...(note ? { note } : {}),
    changed: change.apps.length > 0 || fleet !== undefined,
    apps: change.apps.map((app) => ({
      name: app.app,
      status: app.status,
      clustersAdded: app.clustersAdded,
      clustersRemoved: app.clustersRemoved,
      stages: app.stages.map((s) => ({
        name: s.stage,
        status: s.status,
        production: s.production,
        waveCount: s.waveCount,
        waves: s.waves.map((w) => ({
          name: w.wave,
          status: w.status,
          ...(w.before && w.after && w.before.name !== w.after.name ? { previousName: w.before.name } : {}),
          clustersAdded: w.clustersAdded,
          clustersRemoved: w.clustersRemoved,
        })),
      })),
      objects: objectsOutput(app.objects, change.base.ofGroup(app.app), change.head.ofGroup(app.app)),
      productionObjects: app.productionObjects.added.length + app.productionObjects.changed.length + app.productionObjects.removed.length,
      ...(app.leadTime ? { leadTime: app.leadTime } : {}),
    })),
    unaffected: change.unaffected,
    fleet: fleet ? {
      clustersAdded: fleet.clustersAdded,
      clustersRemoved: fleet.clustersRemoved,
      clustersChanged: fleet.clustersChanged,
      objects: objectsOutput(fleet.objects, change.base.ofGroup('fleet'), change.head.ofGroup('fleet')),
    } : null,
    clustersTouched: touchedClusters(change),
    rules: rules.map((r) => {
      const own = violations.filter((v) => v.ruleId === r.id);
      const list = own.map(({ app, message, fix }) => ({ app, message, fix }));
      return { id: r.id, description: r.description, passed: own.length === 0, violations: list };
    }),
    risks,
    freezes: freezes.map((f) => ({
      app: f.app,
      stages: f.stages,
      window: describeWindow(f.window),
      start: f.active.start.toISOString(),
      end: f.active.end.toISOString(),
      manualSync: f.window.manualSync === true,
      ...(f.override ? { override: f.override } : {}),
    })),
  };
}

/**
 * A `validate` finding: the test kit's `ManifestIssue` (where in which object, what is wrong)
 * with its severity. An error breaks the live system, a warning depends on what is not in the
 * files.
 */
export interface ValidateIssueOutput extends ManifestIssue {
  /** `error` (exit 1) or `warning` (printed, counted, exit 0). */
  readonly severity: 'error' | 'warning';
  /** The model's finding code (`live: <code>`), absent for a schema problem. */
  readonly code?: string;
}

/**
 * What `validate --json` prints: the problems found in a directory of YAML. Its JSON Schema ships
 * as `cdk8s-gitops-platform/cli/validate-output.schema.json`.
 */
export interface ValidateOutput {
  /** `OUTPUT_SCHEMA_VERSION`: changes only when a field is removed or changes meaning. */
  readonly schemaVersion: number;
  /** The command that printed the document. */
  readonly command: 'validate';
  /** The directory validated. */
  readonly directory: string;
  /** Every problem found, errors and warnings. */
  readonly issues: ValidateIssueOutput[];
  /** Objects no schema checks (core Kubernetes kinds, skipped kinds, CRDs without a schema), as `kind` → count. */
  readonly unchecked: Record<string, number>;
  /** How many issues are errors. */
  readonly errors: number;
  /** How many issues are warnings. */
  readonly warnings: number;
}
