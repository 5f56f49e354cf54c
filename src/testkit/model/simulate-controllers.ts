import * as fs from 'fs';
import * as YAML from 'yaml';
import { checkApplicationNames, modelApplications } from './argocd-applications';
import { checkClusterConnections, ClusterConnectionOptions } from './argocd-cluster-connection';
import { checkProjectPermissions } from './argocd-project-check';
import { ControllerFinding, setSource, uniqueFindings } from './controller-finding';
import { checkPromotions, PromotionModelOptions } from './kargo-promotion-model';
import { ReleaseTimelineOptions, simulateRelease } from './kargo-release-timeline';
import { checkStepConfigs } from './kargo-step-checks';
import { checkVerifications } from './kargo-verification';
import { checkPodSecurity } from './pod-security';
import { checkMetricOutcomes } from './rollouts-metric-outcomes';
import { checkWebMetrics } from './rollouts-web-metric';
import { listYamlFiles } from '../yaml-files';

/**
 * A model of the live controllers, run on synthesized objects without a cluster: what Argo CD
 * v3.5.1, Kargo v1.11.2 and Argo Rollouts v1.9.1 would do with them. Each modelled behaviour
 * follows an upstream file (paths inside the upstream repositories at those tags):
 *
 * | behaviour | module | upstream |
 * | --- | --- | --- |
 * | AppProject permission check of every sync task, the auto-created Namespace included | `argocd-project-check.ts` | argo-cd `gitops-engine/pkg/sync/sync_context.go` (`autoCreateNamespace`, `permissionValidator`), `controller/sync.go`, `pkg/apis/application/v1alpha1/app_project_types.go` (`IsGroupKindNamePermitted`, `isDestinationMatched`, `IsSourcePermitted`), `types.go` (`isNamedResourceInList`) |
 * | ApplicationSet expansion (clusters, list generators), generated Application names unique per namespace | `argocd-applications.ts` | argo-cd `applicationset/generators/cluster.go`, `list.go`, `applicationset/controllers/applicationset_controller.go` |
 * | ApplicationSet ownership across a fleet change (two syntheses, `simulateFleetChange`, not run here): refused Applications, blocked reconciles, the policy | `applicationset-ownership.ts` | argo-cd `applicationset/controllers/applicationset_controller.go` (`Reconcile`, `createOrUpdateInCluster`, `createInCluster`, `deleteInCluster`), `applicationset/utils/policy.go` (`DefaultPolicy`) |
 * | cluster connection: CA of managed control planes, EKS token name | `argocd-cluster-connection.ts` | argo-cd `docs/operator-manual/declarative-setup.md` (Clusters) |
 * | task inflation, vars | `promotion-runner.ts` | kargo `pkg/api/promotion.go` (`InflateSteps`, `promotionTaskVarsToStepVars`) |
 * | step order, `if`, Skipped without output, failures skip later steps | `promotion-runner.ts` | kargo `pkg/promotion/local_orchestrator.go`, `pkg/promotion/evaluator.go` |
 * | expressions: `?.`, `??`, nil member access, `status()`, `quote()` | `expr.ts`, `template.ts` | expr-lang `parser/operator/operator.go`, `vm/runtime/runtime.go`; kargo `pkg/expressions/json_templates.go`, `pkg/expressions/function/functions.go` |
 * | Freight functions | `freight.ts` | kargo `pkg/expressions/function/functions.go` |
 * | git-clone `create`, git-commit no-op, git-push generated branch, git-open-pr missing target / Skipped, git-wait-for-pr merge commit | `kargo-steps.ts` | kargo `pkg/promotion/runner/builtin/git_cloner.go`, `git_commiter.go`, `git_pusher.go`, `git_pr_opener.go`, `git_pr_waiter.go` |
 * | render inputs: what helm-template / kustomize-build read (path, values files, checkouts nested in the chart directory); every subscribed artifact must change the render | `kargo-steps.ts`, `kargo-promotion-model.ts` | helm `pkg/chart/loader/directory.go` (`LoadDir`); kargo `helm_template_runner.go`, `kustomize_builder.go` |
 * | helm-update-chart dependency matching (name and repository) | `kargo-steps.ts` | kargo `pkg/helm/dependency_manager.go` (`processDependencyUpdates`), docs `helm-update-chart.md` |
 * | argocd-update selection, authorization, source matching | `kargo-steps.ts` | kargo `pkg/promotion/runner/builtin/argocd_updater.go` |
 * | helm-template capabilities and ignoreMissingValueFiles, argocd-update timeout | `kargo-step-checks.ts` | kargo `helm_template_runner.go` (`newInstallAction`, `composeValues`), `argocd_updater.go` (`DefaultTimeout`) |
 * | verification start: templates flattened, arguments evaluated to strings, declared and resolved | `kargo-verification.ts` | kargo `pkg/controller/stages/regular_stages.go` (`startVerification`), `pkg/rollouts/analysis_run_builder.go` (`buildArgs`), `pkg/rollouts/analysis_template.go` (`flattenTemplates`, `mergeArgs`) |
 * | job metric Job names cut to 63 characters: invalid or shared | `rollouts-job-names.ts` | argo-rollouts `metricproviders/job/job.go` (`newJobName`) |
 * | Prometheus conditions on an answer without series or a NaN sample: Error, and outcomes other than the annotated ones | `rollouts-metric-outcomes.ts` | argo-rollouts `metricproviders/prometheus/prometheus.go` (`processResponse`), `utils/evaluate/evaluate.go` (`EvaluateResult`, `EvalCondition`); antonmedv/expr v1.15.5 `compiler/compiler.go` |
 * | Pod Security `restricted` admission of every pod template (job metrics, workloads) | `pod-security.ts` | k8s.io/pod-security-admission v0.34.9 `policy/check_*.go` (`privileged`, `hostNamespaces`, `hostPorts`, `restrictedVolumes`, `allowPrivilegeEscalation`, `runAsNonRoot`, `runAsUser`, `seccompProfile_restricted`, `capabilities_restricted`) |
 * | web metric on a non-JSON body, unless a job metric guards it | `rollouts-web-metric.ts` | argo-rollouts `metricproviders/webmetric/webmetric.go` (`parseResponse`), `metricproviders/job/job.go` (`Resume`) |
 * | Freight a Stage may take over time: the list (approved, verified in All/OneOf upstreams, then the soak filter over EVERY Stage the Freight soaked in) and the per-upstream check Promotions must pass | `kargo-freight-availability.ts` | kargo `pkg/api/warehouse.go` (`ListFreightFromWarehouse`), `pkg/api/stage.go` (`ListFreightAvailableToStage`), `api/v1alpha1/stage_types.go` (`IsFreightAvailable`), `api/v1alpha1/freight_types.go` (`GetLongestSoak`, `HasSoakedIn`), `pkg/webhook/kubernetes/promotion/webhook.go` (`ValidateCreate`) |
 * | which Stages auto-promote; verification length (initialDelay, count × interval, dry-run metrics awaited); none without `spec.verification` | `kargo-stage-specs.ts` | kargo `pkg/api/auto_promotion.go` (`IsAutoPromotionEnabled`), `regular_stages.go` (`verifyStageFreight`); argo-rollouts `analysis/analysis.go` (`runMeasurements`, `assessRunStatus`), `pkg/apis/rollouts/v1alpha1/analysis_types.go` (`EffectiveCount`) |
 * | one release over time: regular Stages reconciled on upstream verification, promotion/verification end and every 5 minutes, auto-promoting the newest listed Freight; a person promoting a manual Stage once it is listed; control-flow Stages reconciled on events only, no timer; never / late / soak not waited | `kargo-release-timeline.ts` | kargo `pkg/controller/stages/regular_stages.go` (`Reconcile` RequeueAfter, `autoPromoteFreight`, `syncFreight`), `event_handlers.go` (`downstreamStageEnqueuer`, `stageEnqueuerForApprovedFreight`, `warehouseStageEnqueuer`), `control_flow_stages.go` (`SetupWithManager` predicates, `reconcile`, `markFreightVerifiedForStage`) |
 */
export interface SimulateControllersOptions extends ClusterConnectionOptions, PromotionModelOptions, ReleaseTimelineOptions {
  /**
   * Behaviours left out: those the conformance suite decides with the upstream code itself
   * (conformance/controllers: Kargo's promotion engine and steps, Kargo's Freight functions over
   * time, Argo CD's ApplicationSet controller), so that no finding on them is the model's there.
   * `applicationsets` leaves out the generated Applications (only written ones are checked) and
   * their names; `promotions` the promotion runs and the step configurations; `releases` the
   * release timeline.
   * @default - none
   */
  readonly skip?: ReadonlyArray<ModelBehaviour>;
}

/** A group of modelled behaviours (`SimulateControllersOptions.skip`). */
export type ModelBehaviour = 'applicationsets' | 'promotions' | 'releases';

/**
 * Runs the controller model on synthesized objects (e.g. `Testing.synth(chart)` of every chart,
 * fleet included) and returns what would go wrong live, sorted by source, object and path.
 */
export function simulateControllers(objects: any[], options: SimulateControllersOptions = {}): ControllerFinding[] {
  const list = objects.filter((o) => o !== null && typeof o === 'object');
  const skip = new Set(options.skip ?? []);
  const appSets = !skip.has('applicationsets');
  const apps = modelApplications(appSets ? list : list.filter(o => o.kind !== 'ApplicationSet'));
  const findings = [
    ...checkProjectPermissions(list, apps),
    ...(appSets ? checkApplicationNames(modelApplications(list, { keepDuplicates: true })) : []),
    ...checkClusterConnections(list, options),
    ...(skip.has('promotions') ? [] : checkStepConfigs(list)),
    ...checkWebMetrics(list),
    ...checkMetricOutcomes(list),
    ...checkPodSecurity(list),
    ...checkVerifications(list),
    ...(skip.has('promotions') ? [] : checkPromotions(list, apps, options)),
    ...(skip.has('releases') ? [] : simulateRelease(list, options).findings),
  ];
  return uniqueFindings(findings).sort(compareFindings);
}

/**
 * Runs the controller model on every `*.yaml` / `*.yml` file below a directory, together (the
 * files of one synth describe one installation); each finding names its file.
 */
export function simulateManifestDirectory(dir: string, options: SimulateControllersOptions = {}): ControllerFinding[] {
  const objects: any[] = [];
  for (const file of listYamlFiles(dir)) {
    for (const doc of YAML.parseAllDocuments(fs.readFileSync(file, 'utf8'))) {
      const obj = doc.errors.length === 0 ? doc.toJS() : undefined;
      if (obj !== null && typeof obj === 'object') {
        setSource(obj, file);
        objects.push(obj);
      }
    }
  }
  return simulateControllers(objects, options);
}

/** The distinct codes of some findings, sorted: what a test compares against its known list. */
export function findingCodes(findings: ControllerFinding[]): string[] {
  return [...new Set(findings.map((f) => f.code))].sort();
}

function compareFindings(a: ControllerFinding, b: ControllerFinding): number {
  const ka = [a.source, a.kind, a.namespace ?? '', a.name, a.path, a.code, a.message].join('\u0000');
  const kb = [b.source, b.kind, b.namespace ?? '', b.name, b.path, b.code, b.message].join('\u0000');
  return ka < kb ? -1 : ka > kb ? 1 : 0;
}
