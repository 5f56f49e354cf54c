import { Construct } from 'constructs';
import { Platform } from './platform';
import {
  Accelerator, ArgoCdCredentials, ArgoCdTopologyKind, Artifact, CloudProvider, ClusterSelector,
  ManifestSource, PlatformApp, PlatformAppProps, PlatformLabels, RepositoryCredentials, Versioning,
} from '../src';

/**
 * Kargo's quickstart guestbook on the quickstart pipeline: test and uat are the namespaces
 * `guestbook-test` and `guestbook-uat` of the same AWS dev cluster, prod runs in `guestbook` on
 * the AWS CPU production clusters of the central Argo CD.
 */
export function guestbook(scope: Construct, { fleet, quickstart }: Platform, overrides: Partial<PlatformAppProps> = {}): PlatformApp {
  return new PlatformApp(scope, 'guestbook', {
    owner: { team: 'demo', contact: '#kargo-demo' },
    fleet,
    pipeline: quickstart,
    artifacts: [Artifact.image('ghcr.io/acme/guestbook', { versioning: Versioning.semver('^0.1.0') })],
    // the quickstart's layout: one overlay per stage over a shared base
    source: ManifestSource.kustomize({ repoUrl: 'https://github.com/acme/kargo-demo.git', basePath: 'base', overlayPath: 'stages/{stage}' }),
    targets: ClusterSelector.accelerator(Accelerator.NONE)
      .and(ClusterSelector.provider(CloudProvider.AWS))
      .and(ClusterSelector.matchLabels({ [PlatformLabels.TOPOLOGY]: ArgoCdTopologyKind.CENTRAL })),
    releaseRepo: 'https://github.com/acme/releases.git',
    releaseRepoCredentials: RepositoryCredentials.managedSecret({ source: 'ExternalSecret kargo-github-app (creationPolicy: Merge)' }),
    // Argo CD reads the private release repository as a GitHub App; the private key is merged in
    releaseRepoArgoCdCredentials: ArgoCdCredentials.githubApp({
      appId: 123456, installationId: 7890123, source: 'ExternalSecret argocd-github-app (creationPolicy: Merge)',
    }),
    ...overrides,
  });
}
