import { Construct } from 'constructs';
import { Platform } from './platform';
import {
  Accelerator, ArgoCdCredentials, Artifact, ClusterSelector, ManifestSource, PlatformApp, PlatformAppProps, RepositoryCredentials, Versioning,
} from '../src';

/**
 * The developer-portal team's documentation preview: follows the mutable `latest` tag by
 * digest on the preview pipeline, which never reaches a gated stage.
 */
export function docsPreview(scope: Construct, { fleet, preview }: Platform, overrides: Partial<PlatformAppProps> = {}): PlatformApp {
  return new PlatformApp(scope, 'docs-preview', {
    owner: { team: 'devportal', contact: '#devportal' },
    fleet,
    pipeline: preview,
    artifacts: [Artifact.image('ghcr.io/acme/docs-site', { versioning: Versioning.digest('latest'), helmValuesKey: 'site.image' })],
    source: ManifestSource.helm({ repoUrl: 'https://github.com/acme/docs-site.git', path: 'deploy/chart', apiVersions: ['monitoring.coreos.com/v1'] }),
    targets: ClusterSelector.accelerator(Accelerator.NONE),
    releaseRepo: 'https://github.com/acme/releases.git',
    releaseRepoCredentials: RepositoryCredentials.managedSecret({ source: 'ExternalSecret kargo-github-app (creationPolicy: Merge)' }),
    // Argo CD reads the private release repository as a GitHub App; the private key is merged in
    releaseRepoArgoCdCredentials: ArgoCdCredentials.githubApp({
      appId: 123456, installationId: 7890123, source: 'ExternalSecret argocd-github-app (creationPolicy: Merge)',
    }),
    ...overrides,
  });
}
