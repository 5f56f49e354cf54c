import { Size, Testing } from 'cdk8s';
import { describe, expect, test } from 'vitest';
import { appProps, errorOf, world } from './fixtures';
import {
  Accelerator, Approval, Artifact, CloudProvider, ClusterSelector, ManifestSource, PlatformApp, PlatformAppProps, PromotionPipeline,
  Requirement, StandardsRules, Tier, Verification, Versioning, Waves,
} from '../src';
import { redactSecrets } from '../src/util/redact';

function appError(overrides: Partial<PlatformAppProps>): string {
  const w = world();
  return errorOf(() => new PlatformApp(w.app, 'api', appProps(w, overrides)));
}

const PAT = 'ghp_abcdefghijklmnopqrstuvwxyz0123456789';
const SECRET_URLS: Array<[string, string, string]> = [
  ['user:password', 'https://alice:s3cret@github.com/acme/x.git', 's3cret'],
  ['a ?token= query', 'https://github.com/acme/x.git?token=s3cret', 's3cret'],
  ['a ?private_token= query', 'https://gitlab.example.com/acme/x.git?private_token=glpat-abcdefghijklmnopqrst', 'glpat-abcdefghijklmnopqrst'],
  ['a GitHub PAT as the user', `https://${PAT}@github.com/acme/x.git`, PAT],
  ['a GitHub PAT with x-access-token', `https://x-access-token:${PAT}@github.com/acme/x.git`, PAT],
];

describe('no error message echoes a credential it refuses', () => {
  describe.each(SECRET_URLS)('%s', (_, url, secret) => {
    test.each<[string, (u: string) => Partial<PlatformAppProps>]>([
      ['source', u => ({ source: ManifestSource.helm({ repoUrl: u, path: 'chart' }) })],
      ['releaseRepo', u => ({ releaseRepo: u })],
      ['a git artifact', u => ({ artifacts: [Artifact.image('ghcr.io/acme/api'), Artifact.git(u)] })],
      ['a chart artifact', u => ({ artifacts: [Artifact.image('ghcr.io/acme/api'), Artifact.helmChart(u, { name: 'x' })] })],
    ])('given as %s', (_field, props) => {
      const message = appError(props(url));
      expect(message).toMatch(/must not carry credentials/);
      expect(message).toContain('***');
      expect(message).not.toContain(secret);
    });
  });

  test('the redaction covers userinfo, credential query parameters and known token shapes, and nothing else', () => {
    expect(redactSecrets('got "https://alice:s3cret@github.com/acme/x.git"')).toBe('got "https://***@github.com/acme/x.git"');
    expect(redactSecrets('https://h/x?ref=main&access_token=abc&sig=zzz')).toBe('https://h/x?ref=main&access_token=***&sig=***');
    expect(redactSecrets(`token ${PAT} and github_pat_11ABCDEFG0123456789_abcdefghijklmnop`)).toBe('token *** and ***');
    expect(redactSecrets('key AKIAIOSFODNN7EXAMPLE')).toBe('key ***');
    const harmless = 'image ghcr.io/acme/api@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef; https://github.com/acme/x.git?ref=main';
    expect(redactSecrets(harmless)).toBe(harmless);
  });
});

describe('http:// repositories are refused unless explicitly allowed', () => {
  test.each<[string, Partial<PlatformAppProps>, Partial<PlatformAppProps>]>([
    ['source',
      { source: ManifestSource.helm({ repoUrl: 'http://git.internal/acme/api.git', path: 'chart' }) },
      { source: ManifestSource.helm({ repoUrl: 'http://git.internal/acme/api.git', path: 'chart', allowInsecureHttp: true }) }],
    ['releaseRepo',
      { releaseRepo: 'http://git.internal/acme/releases.git' },
      { releaseRepo: 'http://git.internal/acme/releases.git', releaseRepoAllowInsecureHttp: true }],
    ['a git artifact',
      { artifacts: [Artifact.image('ghcr.io/acme/api'), Artifact.git('http://git.internal/acme/config.git')] },
      { artifacts: [Artifact.image('ghcr.io/acme/api'), Artifact.git('http://git.internal/acme/config.git', { allowInsecureHttp: true, checkoutPath: 'chart/config' })] }],
    ['a chart artifact',
      { artifacts: [Artifact.image('ghcr.io/acme/api'), Artifact.helmChart('http://charts.internal', { name: 'redis' })] },
      { artifacts: [Artifact.image('ghcr.io/acme/api'), Artifact.helmChart('http://charts.internal', { name: 'redis', allowInsecureHttp: true })] }],
  ])('%s', (_, refused, allowed) => {
    expect(appError(refused)).toMatch(/must use https: http:\/\/ sends .* in clear text \(set allowInsecureHttp: true to accept it/);
    const w = world();
    expect(() => Testing.synth(new PlatformApp(w.app, 'api', appProps(w, allowed)))).not.toThrow();
  });
});

describe('an accelerator or provider that is not known and not declared custom fails with the closest known value', () => {
  test('in a cluster, a selector and a requirement', () => {
    const typo = Accelerator.of('nvidia-h10O');
    const expected = 'name is not a known accelerator family, got "nvidia-h10O"; did you mean "nvidia-h100"? '
      + '(to add a family, declare it with Accelerator.custom("nvidia-h10O"))';
    expect(errorOf(() => world([{ name: 'c1', server: 'https://10.0.0.1', provider: CloudProvider.GCP, region: 'r', tier: Tier.DEV, accelerator: typo, acceleratorCount: 8 }])))
      .toContain(expected);
    expect(ClusterSelector.accelerator(typo)._problems).toEqual([`accelerator ${expected}`]);
    expect(errorOf(() => { const w = world(); new PlatformApp(w.app, 'api', appProps(w, { requires: [Requirement.accelerator(typo)] })); })).toContain(expected);
    expect(ClusterSelector.provider('amazon' as CloudProvider)._problems).toEqual(['provider is not a known provider, got "amazon"; use one of "aws", "gcp", "azure", "oci", "on-prem"']);
    expect(ClusterSelector.provider('gpc' as CloudProvider)._problems).toEqual(['provider is not a known provider, got "gpc"; did you mean "gcp"?']);
  });

  test('a declared custom family is accepted', () => {
    expect(Accelerator.custom('nvidia-b200')._problems).toEqual([]);
    expect(Accelerator.custom('nvidia-h100')).toBe(Accelerator.NVIDIA_H100);
    expect(Accelerator.of('nvidia-h100')).toBe(Accelerator.NVIDIA_H100);
  });
});

describe('errors raised by cdk8s itself name the construct, the field and the fix', () => {
  test('a job check whose memory cdk8s-plus cannot render', () => {
    const check = Verification.job({ name: 'smoke', image: 'ghcr.io/acme/smoke:1.0.0', resources: { memory: { request: Size.kibibytes(1) } } });
    const message = appError({ verification: [check] });
    expect(message).toMatch(/^PlatformApp 'api'/);
    expect(message).toContain("job resources or activeDeadline was refused by cdk8s ('1 kibibytes' cannot be converted into a whole number of mebibytes); "
      + 'give memory and storage in whole mebibytes');
    expect(message).not.toContain('Failed serializing construct');
  });
});

describe('every message that names a rule also says how to satisfy it', () => {
  test('each built-in standards rule, on an app that breaks it', () => {
    const w = world();
    const pipeline = new PromotionPipeline(w.app, 'auto', {
      stages: [{ name: 'prod', clusters: ClusterSelector.tier(Tier.PROD), approval: Approval.automatic(), waves: Waves.byLabel('ring', ['canary', 'broad']) }],
    });
    const app = new PlatformApp(w.app, 'a-rather-long-application-name-breaking-budgets', appProps(w, {
      owner: { team: 'payments', contact: 'somebody' },
      artifacts: [Artifact.image('docker.io/library/nginx', { versioning: Versioning.digest('latest') })],
      clusterResources: [{ group: 'apiextensions.k8s.io', kind: 'CustomResourceDefinition' }],
    }));
    const gated = new PlatformApp(w.app, 'gated', appProps(w, {
      artifacts: [Artifact.image('docker.io/library/nginx', { versioning: Versioning.digest('latest') })],
    }));
    const rules = [
      StandardsRules.ownerContact(), StandardsRules.prodVerification(), StandardsRules.prodGate(),
      StandardsRules.allowedRegistries({ registries: ['ghcr.io'] }), StandardsRules.noMutableTags(),
      StandardsRules.maxWavePercent({ percent: 10 }), StandardsRules.clusterScopedResources(), StandardsRules.nameLengths({ maxAppName: 10 }),
    ];
    const autoApp = new PlatformApp(w.app, 'auto-app', appProps(w, { pipeline }));
    for (const rule of rules) {
      const messages = [app, gated, autoApp].flatMap(a => rule.check(a));
      expect(messages.length, rule.id).toBeGreaterThan(0);
      for (const m of messages) expect(m, `${rule.id}: ${m}`).toMatch(/; (use|set|add|mirror|split|move|shorten|give|declare|remove) /);
    }
  });
});
