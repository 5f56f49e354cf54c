import { Duration } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { SOAK_CHECK_NAME } from './check-rules';
import { DEFAULT_JOB_RESOURCES, DEFAULT_JOB_USER, renderJobSpec } from './job-spec';
import { jsonGuardImage } from './json-guard';

export { SOAK_CHECK_NAME };
import { VerificationJobOptions } from '../fleet/verification-jobs';

// Why a soak is a metric of the upstream Stage's verification and never Kargo's
// `requiredSoakTime` (Kargo v1.11.2):
// - pkg/api/warehouse.go, ListFreightFromWarehouse, which lists the Freight a Stage may take (for
//   auto-promotion, the UI's list and control-flow Stages: pkg/api/stage.go,
//   ListFreightAvailableToStage), collects every Stage the Freight has soaked in, not only the
//   requested ones. With `availabilityStrategy: All` it requires that set to EQUAL the upstream
//   Stages, which never holds once the Freight has soaked in an earlier stage (akuity/kargo#4586);
//   with OneOf any soaked Stage counts, so dev's soak satisfies a soak asked of a later wave.
// - pkg/controller/stages/control_flow_stages.go reconciles a control-flow Stage only on spec
//   changes, refreshes and Freight newly verified or newly current upstream, never on a timer:
//   a soak not yet over when the upstream verification arrives is only noticed with the next one.
// - api/v1alpha1/freight_types.go, GetLongestSoak: soak time is time the Freight is current in a
//   Stage, and it is never current in a control-flow Stage (akuity/kargo#6360).
// A metric that starts `soak` after the AnalysisRun (argo-rollouts analysis/analysis.go,
// runMeasurements skips a metric until StartedAt + initialDelay; calculateNextReconcileTime
// requeues the run for that moment; assessRunStatus keeps the run Running until every metric,
// dry-run ones included, has completed) makes Kargo mark the Freight verified only after the
// soak, and Kargo's own downstream triggers (Freight newly verified) then fire at the right time.


/** How long the soak metric's Job may take: scheduling, pulling the image, one `node -e ''`. */
const SOAK_JOB_DEADLINE = Duration.minutes(5);

/**
 * The metric that holds a Stage's verification open until `soak` (a Kargo duration) after it
 * started. Dry run: the soak delays verification but cannot fail it (a Job that cannot pull its
 * image must not block a release). The Job is the JSON guard's image (through the fleet's
 * registry, like the guard) running nothing: the job provider is the one Argo Rollouts provider
 * that needs no endpoint.
 * @internal
 */
export function soakMetric(soak: string, labels: Record<string, string>, jobs: VerificationJobOptions | undefined): any {
  return {
    name: SOAK_CHECK_NAME,
    initialDelay: soak,
    count: 1,
    provider: {
      job: {
        metadata: { labels: { ...labels } },
        spec: renderJobSpec({
          image: jsonGuardImage(jobs),
          imagePullPolicy: kplus.ImagePullPolicy.IF_NOT_PRESENT,
          command: ['node', '-e', ''],
          env: [],
          backoffLimit: 0,
          activeDeadline: SOAK_JOB_DEADLINE,
          user: DEFAULT_JOB_USER,
          resources: DEFAULT_JOB_RESOURCES,
          labels: { ...labels },
        }),
      },
    },
  };
}
