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

/** `plan --json`: see `src/cli/plan-output.schema.json`. */
export interface PlanOutput {
  readonly schemaVersion: number;
  readonly command: 'plan';
  readonly base: string;
  /** Why the base is empty (no commit, no cdk8s.yaml): everything is added. */
  readonly note?: string;
  /** Whether any app or the fleet changed. */
  readonly changed: boolean;
  readonly apps: AppOutput[];
  readonly unaffected: string[];
  readonly fleet: FleetOutput | null;
  readonly clustersTouched: string[];
  readonly rules: RuleOutput[];
  readonly risks: RiskFlag[];
  readonly freezes: FreezeOutput[];
}

interface ObjectsOutput {
  readonly added: string[];
  readonly changed: Array<{ key: string; fields: FieldChange[] }>;
  readonly removed: string[];
}

interface AppOutput {
  readonly name: string;
  readonly status: 'added' | 'removed' | 'changed';
  readonly clustersAdded: string[];
  readonly clustersRemoved: string[];
  readonly stages: StageOutput[];
  readonly objects: ObjectsOutput;
  readonly productionObjects: number;
  /** The lead time before and after, present only when the change alters it. */
  readonly leadTime?: { before: string; after: string };
}

interface StageOutput {
  readonly name: string;
  readonly status: string;
  readonly production: boolean;
  readonly waveCount: { before: number; after: number };
  readonly waves: Array<{ name: string; status: string; previousName?: string; clustersAdded: string[]; clustersRemoved: string[] }>;
}

interface FleetOutput {
  readonly clustersAdded: string[];
  readonly clustersRemoved: string[];
  readonly clustersChanged: string[];
  readonly objects: ObjectsOutput;
}

interface RuleOutput {
  readonly id: string;
  readonly description: string;
  readonly passed: boolean;
  readonly violations: Array<{ app: string; message: string; fix: string }>;
}

interface FreezeOutput {
  readonly app: string;
  readonly stages: string[];
  readonly window: string;
  readonly start: string;
  readonly end: string;
  readonly manualSync: boolean;
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

/** A `validate` finding: an error breaks the live system, a warning depends on what is not in the files. */
export interface ValidateIssueOutput extends ManifestIssue {
  readonly severity: 'error' | 'warning';
  /** The model's finding code (`live: <code>`), absent for a schema problem. */
  readonly code?: string;
}

/** `validate --json`: see `src/cli/validate-output.schema.json`. */
export interface ValidateOutput {
  readonly schemaVersion: number;
  readonly command: 'validate';
  readonly directory: string;
  readonly issues: ValidateIssueOutput[];
  /** Objects no schema checks (core Kubernetes kinds, skipped kinds, CRDs without a schema), as `kind` → count. */
  readonly unchecked: Record<string, number>;
  readonly errors: number;
  readonly warnings: number;
}
