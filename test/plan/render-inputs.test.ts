import { describe, expect, test } from 'vitest';
import { ManifestSource, PlatformApp, Tier } from '../../src';
import { define } from '../support/define-app';
import { appProps, find, SMALL_FLEET, world } from '../support/fixtures';

describe('checkRenderInputs', () => {
  test('a Helm app needs the Kubernetes version of every cluster it renders for; a Kustomize app does not', () => {
    const versionless = SMALL_FLEET.map(c => (c.tier === Tier.PROD ? { ...c, kubernetesVersion: undefined } : c));
    const w = world(versionless);
    expect(() => new PlatformApp(w.app, 'api', appProps(w))).toThrow(
      'PlatformApp \'api\': kubernetesVersion must be set on every cluster of its placement: helm-template needs it to render the chart as helm install '
      + 'would for them (.Capabilities.KubeVersion and the chart\'s kubeVersion constraint would see Helm\'s built-in default), '
      + 'got none on cluster(s) "aws-prod-cpu-1", "aws-prod-cpu-2", "gcp-prod-h100-1", "gcp-prod-h100-2"; '
      + 'set kubernetesVersion on these clusters (Terraform output: kubernetes_version), or narrow the app\'s targets');
    const k = world(versionless);
    expect(() => new PlatformApp(k.app, 'api', appProps(k, {
      source: ManifestSource.kustomize({ repoUrl: 'https://github.com/acme/api.git', basePath: 'base', overlayPath: 'overlays/{stage}' }),
    }))).not.toThrow();
    // the render task passes the cluster's version straight through
    const { objects } = define();
    expect(find(objects, 'PromotionTask', 'render-cluster').spec.steps.find((s: any) => s.uses === 'helm-template').config.kubeVersion).toBe('${{ quote(vars.kubeVersion) }}');
  });
});
