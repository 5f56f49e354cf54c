import { Construct } from 'constructs';
import { Platform } from './platform';
import {
  Accelerator, ArgoCdCredentials, ArgoCdTopologyKind, Artifact, ClusterSelector,
  ManifestSource, PlatformApp, PlatformAppProps, PlatformLabels, RepositoryCredentials, Versioning,
} from '../src';

/**
 * The web team's storefront on the advanced pipeline: A/B tested in staging, then promoted region
 * by region. CPU clusters on the central Argo CD only.
 */
export function storefront(scope: Construct, { fleet, advanced }: Platform, overrides: Partial<PlatformAppProps> = {}): PlatformApp {
  return new PlatformApp(scope, 'storefront', {
    owner: { team: 'web', contact: '#web-oncall', groups: ['web-leads'] },
    fleet,
    pipeline: advanced,
    artifacts: [Artifact.image('ghcr.io/acme/storefront', { versioning: Versioning.semver('^2.0.0'), helmValuesKey: 'image' })],
    source: ManifestSource.helm({ repoUrl: 'https://github.com/acme/storefront.git', path: 'deploy/chart', apiVersions: ['monitoring.coreos.com/v1'] }),
    targets: ClusterSelector.accelerator(Accelerator.NONE)
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
