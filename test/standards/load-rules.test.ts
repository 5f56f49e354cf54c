import { describe, expect, test } from 'vitest';
import { PlatformApp, PlatformStandards, RuleSeverity } from '../../src';
import { HostLanguage } from '../../src/util/host-language';
import { appProps, errorOf, world } from '../support/fixtures';

// the small fleet: 8 central clusters on one shard; the app deploys to each once, and its one
// Warehouse polls ghcr.io (SemVer: a listing and up to 20 manifests) and github.com every 5 minutes
describe('PlatformStandards loadLimits', () => {
  test('limits the platform stays within pass', () => {
    const w = world();
    const standards = new PlatformStandards(w.app, 'standards', {
      disabledRules: ['prod-verification'],
      loadLimits: {
        maxApplicationsPerShard: 8,
        maxApplicationSetsPerArgoCd: 1,
        maxStagesPerKargoShard: 10,
        maxRegistryRequestsPerHour: 252,
        maxGitRequestsPerHour: 12,
      },
    });
    new PlatformApp(w.app, 'api', appProps(w));
    expect(standards.review()).toEqual([]);
  });

  test('fails if the platform exceeds a load limit, naming the figure, where it is, the limit and the fix', () => {
    const w = world();
    new PlatformStandards(w.app, 'standards', {
      disabledRules: ['prod-verification'],
      loadLimits: { maxApplicationsPerShard: 7, maxRegistryRequestsPerHour: 251, maxGitRequestsPerHour: 11 },
    });
    new PlatformApp(w.app, 'api', appProps(w));
    const message = errorOf(() => w.app.synth());
    expect(message).toContain('standards: the platform breaks max-applications-per-shard: Applications on application-controller shard "-" '
      + 'of Argo CD hub (argocd) must be at most 7, got 8; raise applicationControllerShards on the ClusterFleet (and the controller\'s replicas)');
    expect(message).toContain('standards: the platform breaks max-registry-requests-per-hour: requests per hour to registry "ghcr.io" must be at most 251, got 252; '
      + 'lengthen the Warehouses\' interval, or refresh them with webhook receivers and poll less');
    expect(message).toContain('standards: the platform breaks max-git-requests-per-hour: ls-remotes per hour to Git host "github.com" must be at most 11, got 12;');
  });

  test('a load rule reported as a warning does not fail synth', () => {
    const w = world();
    const standards = new PlatformStandards(w.app, 'standards', {
      disabledRules: ['prod-verification'], loadLimits: { maxStagesPerKargoShard: 1 }, severities: { 'max-stages-per-kargo-shard': RuleSeverity.WARNING },
    });
    new PlatformApp(w.app, 'api', appProps(w));
    expect(standards.review().map(v => [v.app, v.ruleId, v.severity])).toEqual([['', 'max-stages-per-kargo-shard', RuleSeverity.WARNING]]);
  });

  test('fails if a limit is not a positive whole number', () => {
    expect(errorOf(() => new PlatformStandards(world().app, 'standards', { loadLimits: { maxApplicationsPerShard: 0.5, maxGitRequestsPerHour: 0 } })))
      .toBe('PlatformStandards \'standards\': 2 problems\n'
        + '  - loadLimits.maxApplicationsPerShard must be a whole number >= 1, got 0.5; use a positive whole number, or leave the limit out\n'
        + '  - loadLimits.maxGitRequestsPerHour must be a whole number >= 1, got 0; use a positive whole number, or leave the limit out');
  });

  test.each([
    [HostLanguage.TYPESCRIPT, 'loadLimits.maxGitRequestsPerHour'],
    [HostLanguage.PYTHON, 'load_limits.max_git_requests_per_hour'],
    [HostLanguage.JAVA, 'loadLimits.maxGitRequestsPerHour'],
    [HostLanguage.GO, 'LoadLimits.MaxGitRequestsPerHour'],
    [HostLanguage.DOTNET, 'LoadLimits.MaxGitRequestsPerHour'],
  ])('fails if a limit is not a positive whole number, naming it in %s', (language, name) => {
    expect(HostLanguage.using(language, () => errorOf(() => new PlatformStandards(world().app, 'standards', { loadLimits: { maxGitRequestsPerHour: 0 } }))))
      .toBe(`PlatformStandards 'standards': ${name} must be a whole number >= 1, got 0; use a positive whole number, or leave the limit out`);
  });
});
