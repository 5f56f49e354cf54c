import { Duration } from 'cdk8s';
import { describe, expect, test } from 'vitest';
import { ArgoCdTopology, ClusterSelector, DeployFreeze, FreezeSchedule, PlatformApp, Verification } from '../../src';
import { buildAppRelease } from '../../src/plan/build-release';
import { HostLanguage } from '../../src/util/host-language';
import { appProps, SMALL_FLEET, world } from '../support/fixtures';

/** The message a PlatformApp fails with, or undefined when it does not fail. */
function failure(define: () => unknown): string | undefined {
  try {
    define();
    return undefined;
  } catch (e) {
    return (e as Error).message;
  }
}

describe('buildAppRelease', () => {
  test('fails with every problem of the props, the plan and the freezes in one error', () => {
    const w = world();
    const message = failure(() => new PlatformApp(w.app, 'api', appProps(w, {
      // a stageVerification key naming no stage (props)
      stageVerification: { production: [Verification.http({ name: 'smoke', url: 'https://api.{cluster}.example.com/healthz' })] },
      // targets that miss every stage (plan)
      targets: ClusterSelector.matchLabels({ team: 'nobody' }),
      // a freeze naming an unknown stage (freezes)
      freezes: [new DeployFreeze({ reason: 'year-end', schedule: FreezeSchedule.cron('0 0 20 12 *', Duration.days(14)), stages: ['prd'] })],
    })));
    expect(message).toMatch(/^PlatformApp 'api': 5 problems\n/);
    expect(message).toContain('stageVerification key names no stage of pipeline \'standard\', got "production"; use one of "dev", "staging", "prod"');
    for (const stage of ['dev', 'staging', 'prod']) {
      expect(message).toContain(`targets team=nobody leave stage "${stage}" without clusters`);
    }
    expect(message).toContain('freezes[0].stages is not a stage of pipeline \'standard\' (dev, staging, prod), got "prd"');
  });

  test('fails if a check is wrong, with the plan\'s problems, and reports the check once instead of again for every Kargo Stage', () => {
    const w = world(undefined, { waveBudget: { maxClusters: 1 } });
    const message = failure(() => new PlatformApp(w.app, 'api', appProps(w, {
      verification: [Verification.http({ name: 'Smoke!', url: 'https://api.{cluster}.example.com/healthz' })],
    })));
    const problems = (message ?? '').split('\n').slice(1);
    expect(problems.filter(p => p.includes('"Smoke!"'))).toEqual([
      '  - verification: verification "Smoke!": http check name must consist of lowercase letters, digits and \'-\', '
      + 'and start and end with a letter or digit, got "Smoke!"; use e.g. "health"',
    ]);
    expect(message).toContain('stage "dev" wave "dev" has more clusters than the wave budget allows (1), got 2 clusters');
  });

  test('fails if the owner is missing, without reporting gated stages as having no promoters', () => {
    const w = world();
    const message = failure(() => new PlatformApp(w.app, 'api', appProps(w, { owner: undefined as any })));
    expect(message).toBe('PlatformApp \'api\': owner is required, got nothing; set { team, contact }');
  });

  test.each([
    [HostLanguage.TYPESCRIPT, "freezeOverride must be a FreezeOverride, got {\"by\":\"alice\"}; use FreezeOverride.of({ by: 'alice@acme.example', reason: 'CVE-2026-1234' })"],
    [HostLanguage.PYTHON, 'freeze_override must be a FreezeOverride, got {"by":"alice"}; use FreezeOverride.of(by="alice@acme.example", reason="CVE-2026-1234")'],
    [HostLanguage.JAVA, 'freezeOverride must be a FreezeOverride, got {"by":"alice"}; use FreezeOverride.of(FreezeOverrideProps.builder().by("alice@acme.example").reason("CVE-2026-1234").build())'],
    [HostLanguage.GO, 'FreezeOverride must be a FreezeOverride, got {"by":"alice"}; use FreezeOverride_Of(&FreezeOverrideProps{By: jsii.String("alice@acme.example"), Reason: jsii.String("CVE-2026-1234")})'],
    [HostLanguage.DOTNET, 'FreezeOverride must be a FreezeOverride, got {"by":"alice"}; use FreezeOverride.Of(new FreezeOverrideProps { By = "alice@acme.example", Reason = "CVE-2026-1234" })'],
  ])('fails if freezeOverride is not a FreezeOverride, in %s', (language, expected) => {
    const w = world();
    const message = HostLanguage.using(language, () => failure(() => new PlatformApp(w.app, 'api', appProps(w, { freezeOverride: { by: 'alice' } as never }))));
    expect(message).toBe(`PlatformApp 'api': ${expected}`);
  });

  test('fails with a name clash among the props problems, in the one error of the phase', () => {
    const w = world();
    new PlatformApp(w.app, 'api', appProps(w));
    const message = failure(() => new PlatformApp(w.app, 'api-again', appProps(w, {
      appName: 'api',
      stageVerification: { production: [Verification.http({ name: 'smoke', url: 'https://api.{cluster}.example.com/healthz' })] },
    })));
    expect(message).toMatch(/^PlatformApp 'api': 2 problems\n/);
    expect(message).toContain('stageVerification key names no stage of pipeline \'standard\', got "production"');
    expect(message).toContain('appName is already used by PlatformApp \'api\' (construct api), got "api"; give every app a unique name');
  });

  test('places each cluster with its own Argo CD once, with its chart and the Applications of every stage deploying to it', () => {
    const own = ['aws-stg-cpu', 'gcp-prod-h100-2'];
    const w = world(SMALL_FLEET.map(c => own.includes(c.name) ? { ...c, argoCd: ArgoCdTopology.perCluster() } : c));
    const release = buildAppRelease("PlatformApp 'api'", 'api', appProps(w));
    expect(release.perClusterArgoCd.map(p => ({ cluster: p.cluster, chartId: p.chartId, parts: p.parts.map(x => `${x.stage.name} ${x.wave.kargoStage} ${x.cluster.name}`) })))
      .toEqual([
        { cluster: 'aws-stg-cpu', chartId: 'api--aws-stg-cpu', parts: ['staging staging-aws-stg-cpu aws-stg-cpu'] },
        { cluster: 'gcp-prod-h100-2', chartId: 'api--gcp-prod-h100-2', parts: ['prod prod-broad-gcp-prod-h100-2 gcp-prod-h100-2'] },
      ]);
  });
});
