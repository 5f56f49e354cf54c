import { Duration } from 'cdk8s';
import { Construct } from 'constructs';
import { Platform } from './platform';
import {
  Accelerator, ArgoCdCredentials, Artifact, ClusterSelector, ManifestSource, PlatformApp, PlatformAppProps, RepositoryCredentials, Verification,
  VerificationArg, Versioning,
} from '../src';

/**
 * The commerce team's checkout API: a CPU service on the regulated pipeline (production by pull
 * request), Kustomize overlays, date-stamped image tags from a private registry, verified by a
 * smoke-test Job.
 */
export function checkoutApi(scope: Construct, { fleet, regulated }: Platform, overrides: Partial<PlatformAppProps> = {}): PlatformApp {
  const image = 'registry.acme.example/commerce/checkout-api';
  return new PlatformApp(scope, 'checkout-api', {
    owner: { team: 'commerce', contact: 'commerce-oncall@acme.example', groups: ['commerce-leads'] },
    fleet,
    pipeline: regulated,
    artifacts: [Artifact.image(image, {
      // tags look like 20261130-1a2b3c4: the lexically greatest is the newest build
      versioning: Versioning.lexical(),
      allowTags: ['^\\d{8}-[0-9a-f]{7}$'],
      credentials: RepositoryCredentials.managedSecret({ source: 'vault:kv/kargo/registry-acme' }),
    })],
    source: ManifestSource.kustomize({
      repoUrl: 'https://github.com/acme/checkout.git',
      basePath: 'deploy/base',
      overlayPath: 'deploy/stages/{stage}',
      credentials: RepositoryCredentials.managedSecret({ source: 'vault:kv/kargo/github-read' }),
    }),
    targets: ClusterSelector.accelerator(Accelerator.NONE),
    verification: [
      Verification.job({
        name: 'smoke',
        image: 'registry.acme.example/commerce/checkout-smoke:1.4.2',
        command: ['/smoke'],
        containerArgs: ['--base-url', 'https://checkout.{cluster}.commerce.acme.internal', '--expect-version', '{{args.version}}'],
        activeDeadline: Duration.minutes(5),
        args: { version: VerificationArg.imageTag(image) },
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
