import { Testing } from 'cdk8s';
import { describe, expect, test } from 'vitest';
import { Artifact, ManifestSource, PlatformApp, PlatformAppProps } from '../../src';
import { appError } from '../support/app-error';
import { appProps, world } from '../support/fixtures';

describe('http:// repositories are refused unless explicitly allowed', () => {
  test.each<[string, Partial<PlatformAppProps>, Partial<PlatformAppProps>, string]>([
    ['source',
      { source: ManifestSource.helm({ repoUrl: 'http://git.internal/acme/api.git', path: 'chart' }) },
      { source: ManifestSource.helm({ repoUrl: 'http://git.internal/acme/api.git', path: 'chart', allowInsecureHttp: true }) }, 'allowInsecureHttp'],
    ['releaseRepo',
      { releaseRepo: 'http://git.internal/acme/releases.git' },
      { releaseRepo: 'http://git.internal/acme/releases.git', releaseRepoAllowInsecureHttp: true }, 'releaseRepoAllowInsecureHttp'],
    ['a git artifact',
      { artifacts: [Artifact.image('ghcr.io/acme/api'), Artifact.git('http://git.internal/acme/config.git')] },
      { artifacts: [Artifact.image('ghcr.io/acme/api'), Artifact.git('http://git.internal/acme/config.git', { allowInsecureHttp: true, checkoutPath: 'chart/config' })] }, 'allowInsecureHttp'],
    ['a chart artifact',
      { artifacts: [Artifact.image('ghcr.io/acme/api'), Artifact.helmChart('http://charts.internal', { name: 'redis' })] },
      { artifacts: [Artifact.image('ghcr.io/acme/api'), Artifact.helmChart('http://charts.internal', { name: 'redis', allowInsecureHttp: true })] }, 'allowInsecureHttp'],
  ])('%s: the hint names the option that accepts it where it is given', (_, refused, allowed, option) => {
    expect(appError(refused)).toMatch(new RegExp(`must use https: http:// sends .* in clear text \\(set ${option}: true to accept it`));
    const w = world();
    expect(() => Testing.synth(new PlatformApp(w.app, 'api', appProps(w, allowed)))).not.toThrow();
  });
});
