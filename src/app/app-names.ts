import { Construct, IConstruct } from 'constructs';
import { ArgoCdTopologyKind } from '../fleet/argocd-topology';
import { ReleasePlan } from '../plan/release-plan';
import { ProblemList } from '../util/errors';
import { claimName } from '../util/name-registry';

/** Marks the chart of a cluster with its own Argo CD; its value names the app and the cluster. */
const PER_CLUSTER_CHART = Symbol.for('cdk8s-gitops-platform.PerClusterChart');

/**
 * The id, hence the file name, of the chart a cluster with its own Argo CD applies for an app.
 * @internal
 */
export function perClusterChartId(app: string, cluster: string): string {
  return `${app}--${cluster}`;
}

/**
 * Marks a chart as the per-cluster chart of an app, so clashes can name its owner.
 * @internal
 */
export function markPerClusterChart(chart: IConstruct, owner: string): void {
  Object.defineProperty(chart, PER_CLUSTER_CHART, { value: owner });
}

/** Who holds a sibling chart id, for messages. */
function chartOwner(c: IConstruct, describeApp: (c: IConstruct) => string | undefined): string {
  return describeApp(c) ?? (c as any)[PER_CLUSTER_CHART] ?? `construct ${c.node.path}`;
}

/**
 * The id of an app's chart, unless it is the id of another app's per-cluster chart
 * (`<app>--<cluster>`), which would otherwise fail as a duplicate construct without saying why.
 * @internal
 */
export function chartIdFree(scope: Construct, id: string, appName: string): string {
  const existing = scope.node.tryFindChild(id);
  if (existing && (existing as any)[PER_CLUSTER_CHART]) {
    throw new Error(`PlatformApp '${appName}': construct id is already the output chart of ${(existing as any)[PER_CLUSTER_CHART]}, got "${id}"; `
      + 'give the app an id that is not <app>--<cluster> of another app');
  }
  return id;
}

/**
 * Claims the names other apps must not use (Kargo Projects are cluster-wide, Argo CD objects share
 * a namespace, charts share the output directory); throws one error listing every clash.
 * @internal
 */
export function claimAppNames(scope: Construct, subject: string, plan: ReleasePlan, describeApp: (c: IConstruct) => string | undefined): void {
  const owner = `${subject} (construct ${scope.node.path})`;
  const sameApp = claimName(scope, 'app', plan.app, owner);
  if (sameApp) {
    throw new Error(`${subject}: appName "${plan.app}" is already used by ${sameApp}; give every app a unique name`);
  }
  const problems = new ProblemList(subject);
  const claims: Array<[string, string]> = [];
  for (const s of plan.stages) for (const w of s.waves) if (w.applicationSet) claims.push(['argocd ApplicationSet', w.applicationSet]);
  for (const c of plan.clusters) claims.push(['argocd Application', `${plan.app}-${c}`]);
  for (const [kind, name] of claims) {
    const holder = claimName(scope, kind, name, owner);
    if (holder) problems.add(`${kind} name "${name}" is already used by ${holder}; give the apps distinct names`);
  }
  // the chart of a cluster with its own Argo CD is a sibling of the app's chart, named <app>--<cluster>
  const parent = scope.node.scope ?? scope;
  for (const w of plan.stages.flatMap(s => s.waves).filter(x => x.argoCd === ArgoCdTopologyKind.PER_CLUSTER)) {
    for (const c of w.clusters) {
      const existing = parent.node.tryFindChild(perClusterChartId(plan.app, c));
      if (existing) {
        problems.add(`output chart for cluster "${c}" is already used by ${chartOwner(existing, describeApp)}, got "${perClusterChartId(plan.app, c)}"; `
          + 'give the apps names that do not clash as <app>--<cluster>');
      }
    }
  }
  problems.throwIfAny();
}
