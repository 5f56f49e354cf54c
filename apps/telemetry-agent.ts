import { Construct } from 'constructs';
import { Platform } from './platform';
import {
  ArgoCdCredentials, Artifact, ManifestSource, PlatformApp, PlatformAppProps, RepositoryCredentials, Verification, Versioning, WebhookReceiver,
} from '../src';

/**
 * The observability team's node agent: on every cluster, from an upstream chart in an HTTPS chart
 * repository. It needs a ClusterRole to read node metrics, which the standards only allow with a
 * recorded exemption.
 */
export function telemetryAgent(scope: Construct, { fleet, standard }: Platform, overrides: Partial<PlatformAppProps> = {}): PlatformApp {
  return new PlatformApp(scope, 'telemetry-agent', {
    owner: { team: 'observability', contact: '#observability' },
    fleet,
    pipeline: standard,
    artifacts: [
      Artifact.image('ghcr.io/acme/telemetry-agent', { versioning: Versioning.semver('~1.8.0') }),
      Artifact.helmChart('https://charts.acme.example/stable', { name: 'telemetry-agent', semver: '>=3.1.0, <4.0.0' }),
    ],
    // the team's own chart repository (Artifactory) announces new charts to a receiver of the
    // team's Kargo Project; its Secret lives in the telemetry-agent namespace
    webhookReceivers: [
      WebhookReceiver.artifactory({
        name: 'charts-acme',
        secretName: 'kargo-webhook-artifactory',
        repoUrls: ['https://charts.acme.example/'],
        secretSource: 'ExternalSecret kargo-webhook-artifactory (merge)',
        ready: true,
      }),
    ],
    source: ManifestSource.helm({
      repoUrl: 'https://github.com/acme/telemetry-deploy.git',
      path: 'agent',
      valuesFiles: ['values-{stage}.yaml', 'providers/{provider}.yaml'],
      apiVersions: ['monitoring.coreos.com/v1'],
    }),
    clusterResources: [
      { group: 'rbac.authorization.k8s.io', kind: 'ClusterRole' },
      { group: 'rbac.authorization.k8s.io', kind: 'ClusterRoleBinding' },
    ],
    exemptions: [{
      ruleId: 'cluster-scoped-resources',
      justification: 'the agent reads node and kubelet metrics cluster-wide; approved by platform security (SEC-4211)',
    }],
    verification: [Verification.http({ name: 'ready', url: 'https://telemetry.{cluster}.acme.internal/ready' })],
    releaseRepo: 'https://github.com/acme/releases.git',
    releaseRepoCredentials: RepositoryCredentials.managedSecret({ source: 'ExternalSecret kargo-github-app (creationPolicy: Merge)' }),
    // Argo CD reads the private release repository as a GitHub App; the private key is merged in
    releaseRepoArgoCdCredentials: ArgoCdCredentials.githubApp({
      appId: 123456, installationId: 7890123, source: 'ExternalSecret argocd-github-app (creationPolicy: Merge)',
    }),
    ...overrides,
  });
}
