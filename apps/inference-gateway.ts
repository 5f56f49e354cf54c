import { Construct } from 'constructs';
import { Platform } from './platform';
import {
  Accelerator, ArgoCdCredentials, Artifact, ClusterSelector, Comparison, ManifestSource, PlatformApp, PlatformAppProps, RepositoryCredentials,
  Requirement, Verification, VerificationArg, Versioning,
} from '../src';

/**
 * The inference team's gateway: only on NVIDIA clusters (H100, H200, GB200) with Kubernetes 1.30
 * or newer, a Helm chart with per-stage and per-cluster values, checked over HTTP on every
 * cluster and by its error rate in Prometheus.
 */
export function inferenceGateway(scope: Construct, { fleet, standard }: Platform, overrides: Partial<PlatformAppProps> = {}): PlatformApp {
  const image = 'ghcr.io/acme/inference-gateway';
  return new PlatformApp(scope, 'inference-gateway', {
    owner: { team: 'inference', contact: '#inference-oncall', groups: ['inference-admins'] },
    fleet,
    pipeline: standard,
    artifacts: [Artifact.image(image, { versioning: Versioning.semver('^2.0.0') })],
    source: ManifestSource.helm({
      repoUrl: 'https://github.com/acme/inference-gateway-deploy.git',
      path: 'charts/gateway',
      valuesFiles: ['values-{stage}.yaml'],
      optionalValuesFiles: ['clusters/{cluster}.yaml'],
      // the chart adds a ServiceMonitor when the Prometheus Operator API is there
      apiVersions: ['monitoring.coreos.com/v1'],
    }),
    targets: ClusterSelector.accelerator(Accelerator.NVIDIA_H100, Accelerator.NVIDIA_H200, Accelerator.NVIDIA_GB200),
    requires: [Requirement.minKubernetesVersion('1.30')],
    verification: [
      Verification.http({
        name: 'version',
        url: 'https://gateway.{cluster}.inference.acme.internal/version',
        jsonPath: '{$.version}',
        successCondition: 'result == \'{{args.version}}\'',
        args: { version: VerificationArg.imageTag(image) },
      }),
      Verification.prometheus({
        name: 'error-rate',
        address: 'http://prometheus.monitoring.svc:9090',
        query: 'sum(rate(gateway_requests_total{cluster="{cluster}",code=~"5.."}[5m])) / sum(rate(gateway_requests_total{cluster="{cluster}"}[5m]))',
        threshold: 0.01,
        comparison: Comparison.LESS_THAN,
      }),
    ],
    releaseRepo: 'https://github.com/acme/releases.git',
    releaseRepoCredentials: RepositoryCredentials.managedSecret({ source: 'ExternalSecret kargo-github-app (creationPolicy: Merge)' }),
    // Argo CD reads the release repository as a GitHub App too; the private key is merged in
    releaseRepoArgoCdCredentials: ArgoCdCredentials.githubApp({
      appId: 123456, installationId: 7890123, source: 'ExternalSecret argocd-github-app (creationPolicy: Merge)',
    }),
    ...overrides,
  });
}
