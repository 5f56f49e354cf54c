import { IConstruct } from 'constructs';
import { LeadTime } from './lead-time';
import { AppOwner } from './owner';
import { ReleasePlan } from './release-plan';
import { Artifact } from '../artifact/artifact';

/**
 * A kind of cluster-scoped Kubernetes resource.
 */
export interface ClusterResource {
  /** The API group (empty for the core group). */
  readonly group: string;
  /** The kind, e.g. `CustomResourceDefinition`. */
  readonly kind: string;
}

/**
 * A rule an app is exempt from, with the reason (written into the app's output).
 */
export interface StandardsExemption {
  /** The id of the rule. */
  readonly ruleId: string;
  /** Why the app may break the rule, and who agreed to it. */
  readonly justification: string;
}

/**
 * An application that has been planned: what standards rules and reports read. `PlatformApp`
 * implements it; implement it to review apps defined some other way.
 *
 * @example
 * class OwnNamespace implements IStandardsRule {
 *   public readonly id: string;
 *   public readonly description: string;
 *   public readonly severity: RuleSeverity;
 *   constructor() {
 *     this.id = 'own-namespace';
 *     this.description = 'every app deploys to a namespace named after it';
 *     this.severity = RuleSeverity.WARNING;
 *   }
 *   public check(app: IPlatformApp): string[] {
 *     if (app.plan.destinationNamespace === app.appName) return [];
 *     return [`set namespace to ${app.appName} (got ${app.plan.destinationNamespace})`];
 *   }
 * }
 */
export interface IPlatformApp extends IConstruct {
  /** The application's name. */
  readonly appName: string;
  /** Where and how the application is released. */
  readonly plan: ReleasePlan;
  /** The team that owns the application. */
  readonly owner: AppOwner;
  /** What a release is made of. */
  readonly artifacts: Artifact[];
  /** Cluster-scoped resources the application manages. */
  readonly clusterResources: ClusterResource[];
  /** Platform standards rules the app is exempt from. */
  readonly exemptions: StandardsExemption[];
  /**
   * The least time from a new artifact to a verified release on every cluster.
   * @default - not known: reports and the `max-lead-time` rule skip the app
   */
  readonly leadTime?: LeadTime;
}

const PLANNED_APP = Symbol.for('cdk8s-gitops-platform.PlatformApp');

/** Marks a construct as a planned app, so reviews can find it in the construct tree. @internal */
export function markPlannedApp(app: IPlatformApp): void {
  Object.defineProperty(app, PLANNED_APP, { value: true });
}

/** Whether `x` was marked as a planned app. @internal */
export function isPlannedApp(x: any): x is IPlatformApp {
  return x !== null && typeof x === 'object' && PLANNED_APP in x;
}
