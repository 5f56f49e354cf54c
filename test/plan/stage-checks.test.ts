import { describe, expect, test } from 'vitest';
import { Approval, ClusterSelector, PlatformApp, PromotionPipeline, Tier, Verification, VerificationArg } from '../../src';
import { HostLanguage } from '../../src/util/host-language';
import { define } from '../support/define-app';
import { appProps, find, ofKind, world } from '../support/fixtures';

describe('verification', () => {
  const http = Verification.http({
    name: 'version',
    url: 'https://api.{cluster}.example.com/version',
    jsonPath: '{$.version}',
    successCondition: 'result == \'{{args.version}}\'',
    args: { version: VerificationArg.imageTag('ghcr.io/acme/api') },
  });

  test('each Kargo Stage references one AnalysisTemplate holding its checks, one metric per cluster of the wave, and its soak', () => {
    const { objects } = define(() => ({ verification: [http] }));
    const canary = find(objects, 'Stage', 'prod-canary');
    // the canary wave also waits the broad wave's soak
    expect(canary.spec.verification.analysisTemplates).toEqual([{ name: 'prod-canary-verification', kind: 'AnalysisTemplate' }]);
    expect(canary.spec.verification.args).toEqual([{ name: 'version', value: '${{ quote(imageFrom(\'ghcr.io/acme/api\').Tag) }}' }]);
    const template = find(objects, 'AnalysisTemplate', 'prod-canary-verification');
    expect(template.metadata.annotations['gitops-platform.io/checks']).toBe('version,soak');
    expect(template.metadata.namespace).toBe('api');
    // each web metric is followed by its JSON guard, which makes the same request
    const requested = (m: any) => m.provider.web?.url ?? m.provider.job.spec.template.spec.containers[0].env[0].value;
    expect(template.spec.metrics.filter((m: any) => m.name !== 'soak').map((m: any) => [m.name, requested(m)])).toEqual([
      ['version-aws-prod-cpu-1', 'https://api.aws-prod-cpu-1.example.com/version'],
      ['version-aws-prod-051bfd2-answers-json', 'https://api.aws-prod-cpu-1.example.com/version'],
      ['version-gcp-prod-h100-1', 'https://api.gcp-prod-h100-1.example.com/version'],
      ['version-gcp-prod-6d51d5e-answers-json', 'https://api.gcp-prod-h100-1.example.com/version'],
    ]);
    expect(template.spec.args).toEqual([{ name: 'version' }]);
    expect(template.spec.metrics.at(-1)).toMatchObject({ name: 'soak', initialDelay: expect.any(String) });
    // one per Stage, the soaks of staging and prod-canary inside theirs
    expect(ofKind(objects, 'AnalysisTemplate').map((t: any) => [t.metadata.name, t.metadata.annotations['gitops-platform.io/checks']]).sort()).toEqual([
      ['dev-verification', 'version'], ['prod-broad-verification', 'version'], ['prod-canary-verification', 'version,soak'], ['staging-verification', 'version,soak'],
    ]);
  });

  test('pipeline checks, app checks and stage-specific checks are combined per stage', () => {
    const { objects } = define(w => ({
      pipeline: new PromotionPipeline(w.app, 'checked', {
        stages: [
          { name: 'dev', clusters: ClusterSelector.tier(Tier.DEV), approval: Approval.automatic() },
          { name: 'prod', clusters: ClusterSelector.tier(Tier.PROD), verification: [Verification.fromTemplate('platform-smoke', { clusterScoped: true })] },
        ],
      }),
      verification: [http],
      stageVerification: { prod: [Verification.job({ name: 'e2e', image: 'ghcr.io/acme/e2e:1.0.0', containerArgs: ['--target', '{cluster}'] })] },
    }));
    expect(find(objects, 'Stage', 'dev').spec.verification.analysisTemplates.map((t: any) => t.name)).toEqual(['dev-verification']);
    expect(find(objects, 'Stage', 'prod').spec.verification.analysisTemplates).toEqual([
      { name: 'platform-smoke', kind: 'ClusterAnalysisTemplate' },
      { name: 'prod-verification', kind: 'AnalysisTemplate' },
    ]);
    const prod = find(objects, 'AnalysisTemplate', 'prod-verification');
    expect(prod.metadata.annotations['gitops-platform.io/checks']).toBe('version,e2e');
    expect(prod.spec.metrics.find((m: any) => m.name.startsWith('e2e-')).provider.job.spec.template.spec.containers[0].args).toEqual(['--target', 'aws-prod-cpu-1']);
  });

  test('fails if a check references an undeclared argument', () => {
    const w = world();
    expect(() => new PlatformApp(w.app, 'api', appProps(w, {
      verification: [Verification.http({ name: 'v', url: 'https://x.example.com/{{args.release}}' })],
    }))).toThrow(/verification: verification "v": .*args\.release/);
  });

  test('fails if stageVerification names a stage the pipeline does not have', () => {
    const w = world();
    expect(() => new PlatformApp(w.app, 'api', appProps(w, { stageVerification: { production: [http] } })))
      .toThrow(/stageVerification key names no stage of pipeline 'standard', got "production"; use one of "dev", "staging", "prod"/);
    expect(() => new PlatformApp(world().app, 'api', appProps(world(), { stageVerification: { prdo: [http] } })))
      .toThrow(/stageVerification key names no stage of pipeline 'standard', got "prdo"; did you mean "prod"\?/);
  });

  test('fails if the pipeline and the app declare checks with the same name', () => {
    const w = world();
    const pipeline = new PromotionPipeline(w.app, 'p', { stages: [{ name: 'prod', clusters: ClusterSelector.tier(Tier.PROD), verification: [http] }] });
    expect(() => new PlatformApp(w.app, 'api', appProps(w, { pipeline, verification: [http] })))
      .toThrow(/stage "prod" check names must be unique \(the pipeline's and the app's checks share them\), got \["version"\]; give each check a unique name/);
  });

  test.each([
    [HostLanguage.TYPESCRIPT, 'stageVerification key'],
    [HostLanguage.PYTHON, 'stage_verification key'],
    [HostLanguage.JAVA, 'stageVerification key'],
    [HostLanguage.GO, 'StageVerification key'],
    [HostLanguage.DOTNET, 'StageVerification key'],
  ])('fails if stageVerification names a stage the pipeline does not have, naming the field in %s', (language, name) => {
    const w = world();
    expect(() => HostLanguage.using(language, () => new PlatformApp(w.app, 'api', appProps(w, { stageVerification: { production: [http] } }))))
      .toThrow(`${name} names no stage of pipeline 'standard', got "production"; use one of "dev", "staging", "prod"`);
  });
});
