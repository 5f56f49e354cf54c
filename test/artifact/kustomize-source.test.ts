import { describe, expect, test } from 'vitest';
import { Artifact, ManifestSource, Versioning } from '../../src';
import { RELEASE_VARIABLES } from '../../src/contracts/cluster-variables';

const source = ManifestSource.kustomize({ repoUrl: 'https://github.com/acme/api.git', basePath: 'deploy/base', overlayPath: 'deploy/stages/{stage}/{cluster}' });
const ctx = (artifacts: Artifact[]) => ({ app: 'api', artifacts, destinationNamespace: 'api', stageNamespaces: true, clusterApiVersions: true });

describe('Kustomize source', () => {
  test('watches the base and the overlays up to their first token', () => {
    expect(source.watchedPaths).toEqual(['deploy/base', 'deploy/stages']);
  });

  test('builds the overlay of each cluster with the release variables only', () => {
    expect(source._type.renderVarNames(ctx([]))).toEqual(RELEASE_VARIABLES);
    expect(source._type.needsKubernetesVersion).toBe(false);
    expect(source._type.renderTaskSteps(ctx([]))).toEqual([{
      uses: 'kustomize-build',
      as: 'render',
      config: { path: './src/deploy/stages/${{ vars.stage }}/${{ vars.cluster }}', outPath: './out/${{ vars.cluster }}/manifests.yaml' },
    }]);
  });

  test('sets the images of the Freight in the base, by tag or by digest', () => {
    const [step] = source._type.updateSteps(ctx([Artifact.image('ghcr.io/acme/api'), Artifact.image('ghcr.io/acme/web', { versioning: Versioning.digest('stable') })]));
    expect(step.uses).toBe('kustomize-set-image');
    expect(step.config.path).toBe('./src/deploy/base');
    expect(step.config.images.map((i: any) => Object.keys(i))).toEqual([['image', 'tag'], ['image', 'digest']]);
    expect(source._type.updateSteps(ctx([Artifact.git('https://github.com/acme/config.git')]))).toEqual([]);
  });

  test('fails if the base uses a token', () => {
    expect(ManifestSource.kustomize({ repoUrl: 'https://github.com/acme/api.git', basePath: 'deploy/{stage}', overlayPath: 'deploy/o' })._problems).toEqual([
      'kustomize basePath must not use tokens, got "deploy/{stage}"; name one path; per-stage differences go in valuesFiles or the overlay',
    ]);
  });
});
