import { Construct } from 'constructs';
import { perClusterChartId } from '../contracts/release-names';
import { ArgoCdTopologyKind } from '../fleet/argocd-topology';
import { applicationsByCluster, ReleasePlan } from '../plan/release-plan';
import { prop } from '../util/code-hint';
import { describe, ProblemList, show } from '../util/errors';
import { claimName, OUTPUT_CHART } from '../util/name-registry';

/**
 * Claims the names other apps must not use (Kargo Projects are cluster-wide, Argo CD objects share
 * a namespace, charts share the output directory) and adds every clash to `problems`, the list of
 * the app's release phase (`buildAppRelease`), so they come in its one error. The names come from
 * the finished plan: without one (the app could not be placed; the reasons are in `problems`)
 * only the app's name is claimed. Claims stay made when the phase fails: synth fails with it.
 * @internal
 */
export function claimAppNames(scope: Construct, subject: string, appName: string, plan: ReleasePlan | undefined, problems: ProblemList): void {
  const owner = `${subject} (construct ${scope.node.path})`;
  const sameApp = claimName(scope, 'app', appName, owner);
  if (sameApp) {
    // every other name of the app clashes with that app's too: one problem says it all
    problems.add(describe(prop('appName'), appName, `is already used by ${sameApp}`, 'give every app a unique name'));
    return;
  }
  if (plan === undefined) return;
  const claims: Array<[string, string, string]> = [];
  // the stages in the app's namespace share one ApplicationSet
  const applicationSets = new Set(plan.stages.flatMap(s => s.waves.flatMap(w => (w.applicationSet ? [w.applicationSet] : []))));
  for (const set of applicationSets) claims.push(['argocd ApplicationSet', set, owner]);
  const byCluster = applicationsByCluster(plan.stages);
  for (const c of plan.clusters) {
    for (const { application } of byCluster.get(c) ?? []) claims.push(['argocd Application', application, owner]);
  }
  // one chart per cluster with its own Argo CD, whichever stages deploy to it
  const perCluster = plan.stages.flatMap(s => s.waves).filter(x => x.argoCd === ArgoCdTopologyKind.PER_CLUSTER).flatMap(w => w.clusters);
  for (const c of [...new Set(perCluster)]) claims.push([OUTPUT_CHART, perClusterChartId(plan.app, c), `${subject} for its cluster ${show(c)}`]);
  for (const [kind, name, claimant] of claims) {
    const holder = claimName(scope, kind, name, claimant);
    if (holder) problems.add(describe(`${kind} name`, name, `is already used by ${holder}`, 'give the apps distinct names'));
  }
}
