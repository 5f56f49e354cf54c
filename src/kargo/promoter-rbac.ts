import * as kplus from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { PlatformLabels } from '../contracts/labels';
import { ReleasePlan } from '../plan/release-plan';

const KARGO_GROUP = 'kargo.akuity.io';

/**
 * Kargo RBAC for the gated stages of an app: per gated pipeline stage, a ServiceAccount that
 * Kargo maps the promoters' OIDC groups to (`rbac.kargo.akuity.io/claims`), and a Role that
 * grants the `promote` verb on exactly that stage's Kargo Stages.
 *
 * @see https://docs.kargo.io/operator-guide/security/access-controls
 * @internal
 */
export function definePromoterRbac(scope: Construct, plan: ReleasePlan): void {
  for (const stage of plan.stages.filter(s => s.gated)) {
    const name = `promoter-${stage.name}`;
    const metadata = {
      name,
      namespace: plan.project,
      labels: { [PlatformLabels.APP]: plan.app, [PlatformLabels.PIPELINE_STAGE]: stage.name },
    };
    const account = new kplus.ServiceAccount(scope, `PromoterAccount-${stage.name}`, {
      metadata: {
        ...metadata,
        annotations: { 'rbac.kargo.akuity.io/claims': JSON.stringify({ groups: [...stage.promoters].sort() }) },
      },
      automountToken: false,
    });
    const role = new kplus.Role(scope, `PromoterRole-${stage.name}`, { metadata });
    for (const wave of stage.waves) {
      role.allow(['promote'], { apiGroup: KARGO_GROUP, resourceType: 'stages', resourceName: wave.kargoStage });
    }
    // starting a promotion creates a Promotion object; Kargo v1.11.2 checks `promote` on its Stage
    // (pkg/webhook/kubernetes/promotion/webhook.go `authorize`: a SubjectAccessReview of the
    // creator for that Stage; pkg/server/promote_to_stage_v1alpha1.go for the API and UI)
    role.allow(['create', 'patch', 'update'], { apiGroup: KARGO_GROUP, resourceType: 'promotions' });
    role.allow(['get', 'list', 'watch'],
      { apiGroup: KARGO_GROUP, resourceType: 'stages' },
      { apiGroup: KARGO_GROUP, resourceType: 'freights' },
      { apiGroup: KARGO_GROUP, resourceType: 'promotions' },
      { apiGroup: KARGO_GROUP, resourceType: 'warehouses' });
    // the verification a promoter waits on: Kargo runs it as an Argo Rollouts AnalysisRun in the
    // project namespace (pkg/rollouts/analysis_run_builder.go), which the UI and kubectl show only
    // to whom may read it
    role.allow(['get', 'list', 'watch'], { apiGroup: 'argoproj.io', resourceType: 'analysisruns' });
    const binding = new kplus.RoleBinding(scope, `PromoterBinding-${stage.name}`, { metadata, role });
    binding.addSubjects(account);
  }
}
