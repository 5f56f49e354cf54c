import { describe, expect, test } from 'vitest';
import { Artifact, ManifestSource } from '../../src';
import { RELEASE_VARIABLES } from '../../src/contracts/cluster-variables';
import { ProblemList } from '../../src/util/errors';

const source = ManifestSource.helm({ repoUrl: 'https://github.com/acme/api.git/', path: 'chart', apiVersions: ['monitoring.coreos.com/v1'] });
const ctx = (artifacts: Artifact[], options: { stageNamespaces?: boolean; clusterApiVersions?: boolean } = {}) =>
  ({ app: 'api', artifacts, destinationNamespace: 'api', stageNamespaces: false, clusterApiVersions: false, ...options });

describe('Helm source', () => {
  test('the render task also takes what helm-template assumes of a cluster', () => {
    expect(source._type.renderVarNames(ctx([]))).toEqual([...RELEASE_VARIABLES, 'kubeVersion']);
    expect(source._type.renderVarNames(ctx([], { stageNamespaces: true, clusterApiVersions: true }))).toEqual([...RELEASE_VARIABLES, 'kubeVersion', 'namespace', 'apiVersions']);
    expect(source._type.needsKubernetesVersion).toBe(true);
  });

  test('renders with the images of the Freight and builds dependencies only when a chart artifact updates one', () => {
    const [withImage] = source._type.renderTaskSteps(ctx([Artifact.image('ghcr.io/acme/api')]));
    expect(withImage.config.setValues.slice(0, 2).map((v: any) => v.key)).toEqual(['image.repository', 'image.tag']);
    expect(withImage.config.buildDependencies).toBeUndefined();
    expect(withImage.config.apiVersions).toEqual(['monitoring.coreos.com/v1']);
    const [withChart] = source._type.renderTaskSteps(ctx([Artifact.helmChart('oci://ghcr.io/acme/charts/base')]));
    expect(withChart.config.buildDependencies).toBe(true);
  });

  test('updates the chart dependencies before rendering, and nothing without chart artifacts', () => {
    expect(source._type.updateSteps(ctx([Artifact.image('ghcr.io/acme/api')]))).toEqual([]);
    const [step] = source._type.updateSteps(ctx([Artifact.helmChart('oci://ghcr.io/acme/charts/base')]));
    expect(step).toMatchObject({ uses: 'helm-update-chart', as: 'update-charts', config: { path: './src/chart', charts: [{ name: 'base' }] } });
  });

  test('fails if the app name, its default release name, is longer than Helm accepts', () => {
    const problems = new ProblemList('test');
    source._type.checkAppName(problems, 'a'.repeat(54));
    expect(() => problems.throwIfAny()).toThrow(/appName is the Helm release name, which must be at most 53 characters \(it has 54\)/);
    const named = new ProblemList('test');
    ManifestSource.helm({ repoUrl: 'https://github.com/acme/api.git', path: 'chart', releaseName: 'api' })._type.checkAppName(named, 'a'.repeat(54));
    expect(named.size).toBe(0);
  });

  test('spells the repository without a trailing slash and watches the chart\'s path', () => {
    expect(source.repoUrl).toBe('https://github.com/acme/api.git');
    expect(source.watchedPaths).toEqual(['chart']);
  });
});
