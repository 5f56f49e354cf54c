import { describe, expect, test } from 'vitest';
import { Artifact, ManifestSource, PlatformAppProps } from '../../src';
import { define } from '../support/define-app';

describe('artifacts and versioning rules', () => {
  test.each<[string, Partial<PlatformAppProps>, RegExp]>([
    ['a git artifact is never read', { artifacts: [Artifact.image('ghcr.io/acme/api'), Artifact.git('https://github.com/acme/config.git')] },
      /artifacts\[1\] \(git https:\/\/github.com\/acme\/config.git\) checkoutPath is required: no render reads this repository.*got nothing; set checkoutPath to the directory of the source repository the render reads it from \(e.g. "chart\/config"\), or drop the artifact/],
    ['a checkout lies outside the chart', { artifacts: [Artifact.image('ghcr.io/acme/api'), Artifact.git('https://github.com/acme/config.git', { checkoutPath: 'config' })] },
      /checkoutPath lies outside the chart directory "chart", the only directory helm-template reads, got "config"; use a directory inside it, e.g. "chart\/config"/],
    ['a checkout replaces the chart', { artifacts: [Artifact.image('ghcr.io/acme/api'), Artifact.git('https://github.com/acme/config.git', { checkoutPath: './chart/' })] },
      /checkoutPath would replace the source's own directory "chart", got "chart"/],
    ['two checkouts overlap', {
      artifacts: [Artifact.image('ghcr.io/acme/api'), Artifact.git('https://github.com/acme/a.git', { checkoutPath: 'chart/cfg' }),
        Artifact.git('https://github.com/acme/b.git', { checkoutPath: 'chart/cfg/b' })],
    },
    /artifacts\[2\] \(git https:\/\/github.com\/acme\/b.git\) checkoutPath overlaps artifacts\[1\] .* "chart\/cfg", got "chart\/cfg\/b"; give each git artifact its own directory/],
    ['the source repository gets a checkout path', { artifacts: [Artifact.image('ghcr.io/acme/api'), Artifact.git('https://github.com/acme/api.git', { checkoutPath: 'chart/x' })] },
      /checkoutPath is set on the source repository, which every render checks out whole, got "chart\/x"; remove checkoutPath/],
    ['a checkout path climbs out', { artifacts: [Artifact.image('ghcr.io/acme/api'), Artifact.git('https://github.com/acme/config.git', { checkoutPath: '../x' })] },
      /git checkoutPath must be a relative path inside the repository without "\.\.", got "\.\.\/x"/],
    ['a chart is given to a kustomize source', {
      artifacts: [Artifact.image('ghcr.io/acme/api'), Artifact.helmChart('oci://ghcr.io/acme/charts/base')],
      source: ManifestSource.kustomize({ repoUrl: 'https://github.com/acme/api.git', basePath: 'base', overlayPath: 'overlays/{stage}' }),
    }, /artifacts\[1\] \(helm chart oci:\/\/ghcr.io\/acme\/charts\/base\) is never read: a chart version reaches a release only as a dependency of a Helm source \(helm-update-chart\), and this source is rendered by kustomize, got "kustomize"; drop the chart artifact/],
    ['two charts update one Chart.yaml dependency', {
      artifacts: [Artifact.image('ghcr.io/acme/api'), Artifact.helmChart('https://charts.bitnami.com/bitnami', { name: 'redis', dependencyName: 'cache' }),
        Artifact.helmChart('https://charts.bitnami.com/bitnami', { name: 'postgresql', dependencyName: 'cache' })],
    }, /artifacts\[2\] \(helm chart https:\/\/charts.bitnami.com\/bitnami postgresql\) dependencyName names the same Chart.yaml dependency as artifacts\[1\] \(helm chart https:\/\/charts.bitnami.com\/bitnami redis\) \(one name and repository take one version\), got "cache"; give each chart artifact the dependencyName of its own dependency in Chart.yaml/],
    ['a checkout path uses a token', { artifacts: [Artifact.image('ghcr.io/acme/api'), Artifact.git('https://github.com/acme/config.git', { checkoutPath: 'chart/{stage}' })] },
      /git checkoutPath must not use tokens \(one checkout serves every cluster\), got "chart\/\{stage\}"/],
  ])('a git artifact must reach the render: %s', (_, props, message) => {
    expect(() => define(() => props)).toThrow(message);
  });
});
