import { Construct } from 'constructs';
import { Platform } from './platform';
import { Accelerator, Artifact, ClusterSelector, ManifestSource, PlatformApp, Versioning } from '../src';

/** The inference team's gateway: runs only where there are NVIDIA H100 or AMD MI300X GPUs. */
export function inferenceGateway(scope: Construct, { fleet, pipeline }: Platform): PlatformApp {
  return new PlatformApp(scope, 'inference-gateway', {
    owner: { team: 'inference', contact: '#inference-oncall', groups: ['inference-admins'] },
    fleet,
    pipeline,
    artifacts: [Artifact.image('ghcr.io/acme/inference-gateway', { versioning: Versioning.semver('^2.0.0') })],
    source: ManifestSource.helm({
      repoUrl: 'https://github.com/acme/inference-gateway-deploy.git',
      path: 'charts/gateway',
      valuesFiles: ['values-{stage}.yaml'],
    }),
    targets: ClusterSelector.accelerator(Accelerator.NVIDIA_H100, Accelerator.AMD_MI300X),
    releaseRepo: 'https://github.com/acme/releases.git',
  });
}
