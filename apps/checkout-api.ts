import { Construct } from 'constructs';
import { Platform } from './platform';
import { Accelerator, Artifact, ClusterSelector, ManifestSource, PlatformApp, Versioning } from '../src';

/** The commerce team's checkout API: a CPU service, kept off the GPU clusters. */
export function checkoutApi(scope: Construct, { fleet, pipeline }: Platform): PlatformApp {
  return new PlatformApp(scope, 'checkout-api', {
    owner: { team: 'commerce', contact: 'commerce-oncall@acme.example' },
    fleet,
    pipeline,
    artifacts: [Artifact.image('registry.acme.example/commerce/checkout-api', { versioning: Versioning.semver('>=1.4.0, <2.0.0') })],
    source: ManifestSource.helm({
      repoUrl: 'https://github.com/acme/checkout.git',
      path: 'deploy/chart',
      valuesFiles: ['values/{stage}.yaml'],
    }),
    targets: ClusterSelector.accelerator(Accelerator.NONE),
    releaseRepo: 'https://github.com/acme/releases.git',
  });
}
