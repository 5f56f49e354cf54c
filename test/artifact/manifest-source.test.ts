import { describe, expect, test } from 'vitest';
import { Artifact, ManifestSource, Versioning } from '../../src';
import { define, steps } from '../support/define-app';
import { find } from '../support/fixtures';

describe('manifest sources', () => {
  test('kustomize: images are set in the base from Freight (tag or digest), each cluster\'s overlay is built into its directory', () => {
    const { objects } = define(() => ({
      artifacts: [Artifact.image('ghcr.io/acme/api'), Artifact.image('ghcr.io/acme/sidecar', { versioning: Versioning.digest('edge') })],
      source: ManifestSource.kustomize({ repoUrl: 'https://github.com/acme/api.git', basePath: 'deploy/base', overlayPath: 'deploy/{stage}/{region}' }),
    }));
    const setImage = steps(objects, 'dev').find((s: any) => s.uses === 'kustomize-set-image');
    expect(setImage.config).toEqual({
      path: './src/deploy/base',
      images: [
        { image: 'ghcr.io/acme/api', tag: '${{ quote(imageFrom(\'ghcr.io/acme/api\').Tag) }}' },
        { image: 'ghcr.io/acme/sidecar', digest: '${{ imageFrom(\'ghcr.io/acme/sidecar\').Digest }}' },
      ],
    });
    expect(find(objects, 'PromotionTask', 'render-cluster').spec.steps).toEqual([{
      uses: 'kustomize-build',
      as: 'render',
      config: { path: './src/deploy/${{ vars.stage }}/${{ vars.region }}', outPath: './out/${{ vars.cluster }}/manifests.yaml' },
    }]);
    expect(find(objects, 'Warehouse', 'api').spec.subscriptions[2].git.includePaths).toEqual(['deploy/base', 'deploy']);
  });

  test('helm: per-stage values files are required, per-cluster ones optional', () => {
    const { objects } = define(() => ({
      source: ManifestSource.helm({ repoUrl: 'https://github.com/acme/api.git', path: 'chart', valuesFiles: ['stages/{stage}.yaml'], optionalValuesFiles: ['clusters/{cluster}.yaml'] }),
    }));
    const [merge, render] = find(objects, 'PromotionTask', 'render-cluster').spec.steps;
    // only the optional files may be missing: merged first, a required one still fails the render
    expect(merge).toEqual({
      uses: 'yaml-merge',
      as: 'optional-values',
      config: { inFiles: ['./src/chart/clusters/${{ vars.cluster }}.yaml'], outFile: './work/${{ vars.cluster }}/optional-values.yaml', ignoreMissingFiles: true },
    });
    expect(render.config.valuesFiles).toEqual(['./src/chart/stages/${{ vars.stage }}.yaml', './work/${{ vars.cluster }}/optional-values.yaml']);
    expect(render.config.ignoreMissingValueFiles).toBeUndefined();
    expect(render.config).toMatchObject({ kubeVersion: '${{ quote(vars.kubeVersion) }}', includeCRDs: true });
  });
});
