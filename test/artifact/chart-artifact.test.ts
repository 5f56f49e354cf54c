import { describe, expect, test } from 'vitest';
import { Artifact, ManifestSource } from '../../src';
import { ReachContext } from '../../src/artifact/artifact-type';
import { ProblemList } from '../../src/util/errors';
import { HostLanguage } from '../../src/util/host-language';

function reach(source: ManifestSource): ReachContext {
  return { ...source._type.reach, own: undefined, dependencies: new Map(), checkouts: [] };
}

const helm = ManifestSource.helm({ repoUrl: 'https://github.com/acme/api.git', path: 'chart' });
const kustomize = ManifestSource.kustomize({ repoUrl: 'https://github.com/acme/api.git', basePath: 'deploy/base', overlayPath: 'deploy/{stage}' });

describe('chart artifact', () => {
  test('an OCI chart is one subscription per URL, a classic repository one per chart name', () => {
    expect(Artifact.helmChart('oci://ghcr.io/acme/charts/base/')._type.subscriptionIdentity).toBe('chart:oci://ghcr.io/acme/charts/base');
    expect(Artifact.helmChart('https://charts.bitnami.com/bitnami', { name: 'redis' })._type.subscriptionIdentity)
      .not.toBe(Artifact.helmChart('https://charts.bitnami.com/bitnami', { name: 'postgresql' })._type.subscriptionIdentity);
  });

  test('updates the Chart.yaml dependency named after the chart, whose OCI repository omits the chart', () => {
    expect(Artifact.helmChart('oci://ghcr.io/acme/charts/base')._type.helmUpdateChart!()).toMatchObject({ repository: 'oci://ghcr.io/acme/charts', name: 'base' });
    expect(Artifact.helmChart('https://charts.bitnami.com/bitnami', { name: 'redis', dependencyName: 'cache' })._type.helmUpdateChart!())
      .toMatchObject({ repository: 'https://charts.bitnami.com/bitnami', name: 'cache' });
  });

  test('reaches a Helm render', () => {
    const problems = new ProblemList('test');
    Artifact.helmChart('oci://ghcr.io/acme/charts/base')._type.checkReach(problems, 0, reach(helm));
    expect(problems.size).toBe(0);
  });

  test('fails if the source is rendered by kustomize, which never reads a chart version', () => {
    const problems = new ProblemList('test');
    Artifact.helmChart('oci://ghcr.io/acme/charts/base')._type.checkReach(problems, 1, reach(kustomize));
    expect(() => problems.throwIfAny()).toThrow('test: artifacts[1] (helm chart oci://ghcr.io/acme/charts/base) is never read: a chart version reaches a release '
      + 'only as a dependency of a Helm source (helm-update-chart), and this source is rendered by kustomize, got "kustomize"; drop the chart artifact, '
      + 'or render a Helm umbrella chart with ManifestSource.helm()');
  });

  test('fails if two charts update one dependency', () => {
    const problems = new ProblemList('test');
    const ctx = reach(helm);
    Artifact.helmChart('https://charts.bitnami.com/bitnami', { name: 'redis', dependencyName: 'cache' })._type.checkReach(problems, 0, ctx);
    Artifact.helmChart('https://charts.bitnami.com/bitnami', { name: 'valkey', dependencyName: 'cache' })._type.checkReach(problems, 1, ctx);
    expect(() => problems.throwIfAny()).toThrow(/artifacts\[1\] \(helm chart https:\/\/charts.bitnami.com\/bitnami valkey\) dependencyName names the same Chart.yaml dependency as artifacts\[0\]/);
  });

  test.each([
    [HostLanguage.TYPESCRIPT, "helm chart name is required for https:// repositories such as \"https://charts.example.com\", got nothing; pass { name: '<chart>' }"],
    [HostLanguage.PYTHON, 'helm chart name is required for https:// repositories such as "https://charts.example.com", got nothing; pass HelmChartArtifactOptions(name="<chart>")'],
    [HostLanguage.JAVA, 'helm chart name is required for https:// repositories such as "https://charts.example.com", got nothing; '
      + 'pass HelmChartArtifactOptions.builder().name("<chart>").build()'],
    [HostLanguage.GO, 'helm chart Name is required for https:// repositories such as "https://charts.example.com", got nothing; '
      + 'pass &HelmChartArtifactOptions{Name: jsii.String("<chart>")}'],
    [HostLanguage.DOTNET, 'helm chart Name is required for https:// repositories such as "https://charts.example.com", got nothing; pass new HelmChartArtifactOptions { Name = "<chart>" }'],
  ])('fails if a classic chart repository names no chart, in %s', (language, expected) => {
    expect(HostLanguage.using(language, () => Artifact.helmChart('https://charts.example.com')._problems)).toEqual([expected]);
  });
});
