import { Duration } from 'cdk8s';
import { Construct } from 'constructs';
import { Platform } from './platform';
import {
  Accelerator, ArgoCdCredentials, Artifact, ClusterSelector, Comparison, DeployFreeze, FreezeSchedule,
  GitCommitSelection, ManifestSource, PlatformApp, PlatformAppProps, RepositoryCredentials, Requirement,
  Verification, Versioning,
} from '../src';

/**
 * The ML platform team's model server: on TPU and Trainium clusters only, an umbrella Helm chart
 * that depends on the upstream chart from an OCI registry, model configuration from its own Git
 * repository, and the newest image build from ECR (read with Kargo's workload identity).
 */
export function modelServer(scope: Construct, { fleet, standard }: Platform, overrides: Partial<PlatformAppProps> = {}): PlatformApp {
  return new PlatformApp(scope, 'model-server', {
    owner: { team: 'ml-platform', contact: 'https://oncall.acme.example/ml-platform', groups: ['ml-platform'] },
    fleet,
    pipeline: standard,
    artifacts: [
      Artifact.image('123456789012.dkr.ecr.us-east-1.amazonaws.com/ml/model-server', {
        versioning: Versioning.newestBuild(),
        allowTags: ['^v\\d+\\.\\d+\\.\\d+-accel$'],
        ignoreTags: ['-rc\\d+'],
        platform: 'linux/amd64',
        helmValuesKey: 'server.image',
        credentials: RepositoryCredentials.workloadIdentity(),
      }),
      Artifact.helmChart('oci://ghcr.io/acme/charts/model-server', { semver: '^4.2.0', dependencyName: 'model-server' }),
      Artifact.git('https://github.com/acme/model-config.git', {
        selection: GitCommitSelection.NEWEST_FROM_BRANCH,
        branch: 'main',
        includePaths: ['models/', 'glob:serving/*.yaml'],
        excludePaths: ['models/experimental/'],
        // inside the chart: its templates read models/ with .Files, and serving/ holds values
        checkoutPath: 'umbrella/model-config',
      }),
    ],
    source: ManifestSource.helm({
      repoUrl: 'https://github.com/acme/model-server-deploy.git',
      path: 'umbrella',
      valuesFiles: ['values-{stage}.yaml', 'accelerators/{accelerator}.yaml', 'model-config/serving/{stage}.yaml'],
      apiVersions: ['monitoring.coreos.com/v1'],
    }),
    targets: ClusterSelector.accelerator(Accelerator.GOOGLE_TPU, Accelerator.AWS_TRAINIUM),
    requires: [Requirement.minAccelerators(8)],
    verification: [
      Verification.prometheus({
        name: 'p99-latency',
        address: 'http://prometheus.monitoring.svc:9090',
        query: 'histogram_quantile(0.99, sum by (le) (rate(model_server_latency_seconds_bucket{cluster="{cluster}"}[5m])))',
        // an upper bound: an idle cluster (no series, or NaN) passes, see MetricOutcome
        threshold: 0.5,
        comparison: Comparison.LESS_THAN,
      }),
    ],
    // the weekly training run needs every accelerator: production model servers stay put meanwhile
    freezes: [new DeployFreeze({
      reason: 'weekly training window',
      schedule: FreezeSchedule.cron('0 22 * * 5', Duration.hours(56)),
      timeZone: 'America/Los_Angeles',
      allowManualSync: true,
      stages: ['prod'],
    })],
    releaseRepo: 'https://github.com/acme/releases.git',
    releaseRepoCredentials: RepositoryCredentials.managedSecret({ source: 'ExternalSecret kargo-github-app (creationPolicy: Merge)' }),
    // Argo CD reads the release repository as a GitHub App too; the private key is merged in
    releaseRepoArgoCdCredentials: ArgoCdCredentials.githubApp({
      appId: 123456, installationId: 7890123, source: 'ExternalSecret argocd-github-app (creationPolicy: Merge)',
    }),
    ...overrides,
  });
}
