import { Duration, Testing } from 'cdk8s';
import { describe, expect, test } from 'vitest';
import {
  Approval, Artifact, ClusterSelector, IStandardsRule, PlatformApp, PlatformStandards, PromotionPipeline, RuleSeverity, StandardsRules,
  Tier, Verification, Versioning, Waves,
} from '../../src';
import { appProps, errorOf, find, world } from '../support/fixtures';

const check = Verification.http({ name: 'health', url: 'https://api.{cluster}.example.com/healthz' });

/** An app that meets every built-in rule on the standard test pipeline. */
function compliant(w: ReturnType<typeof world>, id = 'api', overrides = {}) {
  return new PlatformApp(w.app, id, appProps(w, { verification: [check], ...overrides }));
}

describe('PlatformStandards', () => {
  test('a compliant app passes every built-in rule', () => {
    const w = world();
    const standards = new PlatformStandards(w.app, 'standards', { allowedRegistries: ['ghcr.io'] });
    compliant(w);
    expect(standards.review()).toEqual([]);
    expect(() => w.app.synth()).not.toThrow();
  });

  test('the built-in rules have stable ids', () => {
    const standards = new PlatformStandards(Testing.app(), 'standards', { allowedRegistries: ['ghcr.io'] });
    expect(standards.rules.map(r => r.id)).toEqual([
      'owner-contact', 'prod-verification', 'prod-gate', 'allowed-registries', 'no-mutable-tags', 'max-wave-percent',
      'cluster-scoped-resources', 'name-length',
    ]);
  });

  test('a deliberately non-compliant app fails synth with every violation listed, sorted', () => {
    const w = world();
    const lax = new PromotionPipeline(w.app, 'lax', {
      stages: [
        { name: 'dev', clusters: ClusterSelector.tier(Tier.DEV), approval: Approval.automatic() },
        { name: 'prod', clusters: ClusterSelector.tier(Tier.PROD), approval: Approval.automatic(), waves: Waves.single() },
      ],
    });
    const gated = new PromotionPipeline(w.app, 'gated', {
      stages: [{ name: 'prod', clusters: ClusterSelector.tier(Tier.PROD), approval: Approval.manual(), verification: [check] }],
    });
    new PlatformStandards(w.app, 'standards', { allowedRegistries: ['ghcr.io'], maxWavePercent: 50 });
    new PlatformApp(w.app, 'a-very-long-application-name-for-tests', appProps(w, {
      owner: { team: 'payments', contact: 'call Bob' },
      pipeline: lax,
      artifacts: [Artifact.image('docker.io/library/nginx', { versioning: Versioning.semver('^1.27.0') })],
      clusterResources: [{ group: 'apiextensions.k8s.io', kind: 'CustomResourceDefinition' }],
    }));
    new PlatformApp(w.app, 'beta', appProps(w, {
      pipeline: gated,
      artifacts: [Artifact.image('ghcr.io/acme/beta', { versioning: Versioning.digest('latest') })],
    }));

    let message = '';
    try {
      w.app.synth();
    } catch (e) {
      message = (e as Error).message;
    }
    const lines = message.split('\n').filter(l => l.includes('standards:')).map(l => l.replace(/^.*standards: /, ''));
    expect(lines).toEqual([
      'PlatformApp \'a-very-long-application-name-for-tests\' breaks allowed-registries: image docker.io/library/nginx comes from registry docker.io, which is not allowed; mirror it to one of ghcr.io',
      'PlatformApp \'a-very-long-application-name-for-tests\' breaks cluster-scoped-resources: the AppProject allows cluster-scoped CustomResourceDefinition.apiextensions.k8s.io; move it to a platform-owned app, or record an exemption with the reason',
      'PlatformApp \'a-very-long-application-name-for-tests\' breaks max-wave-percent: stage "prod" wave "prod" holds more than 50% of the clusters, got 4 of 4 clusters (100%); split the stage into more waves (Waves.byPercentage() or more ring labels)',
      'PlatformApp \'a-very-long-application-name-for-tests\' breaks name-length: app name has 38 characters, more than 32, got "a-very-long-application-name-for-tests"; shorten it',
      'PlatformApp \'a-very-long-application-name-for-tests\' breaks owner-contact: owner contact is not a channel (#name), handle (@name), e-mail address or URL, got "call Bob"; set owner.contact to where on-call can be reached',
      'PlatformApp \'a-very-long-application-name-for-tests\' breaks prod-gate: production stage "prod" promotes automatically; use Approval.manual() or Approval.pullRequest() on the pipeline stage',
      'PlatformApp \'a-very-long-application-name-for-tests\' breaks prod-verification: production stage "prod" has no verification; add a check with verification or stageVerification (e.g. Verification.http())',
      'PlatformApp \'beta\' breaks max-wave-percent: stage "prod" wave "prod" holds more than 50% of the clusters, got 4 of 4 clusters (100%); split the stage into more waves (Waves.byPercentage() or more ring labels)',
      'PlatformApp \'beta\' breaks no-mutable-tags: image ghcr.io/acme/beta follows the mutable tag "latest" into gated stage(s) prod; use Versioning.semver() with immutable version tags',
    ]);
  });

  test('an exemption switches a rule off for one app and is recorded in its output', () => {
    const w = world();
    const standards = new PlatformStandards(w.app, 'standards');
    const app = compliant(w, 'api', {
      clusterResources: [{ group: 'rbac.authorization.k8s.io', kind: 'ClusterRole' }],
      exemptions: [{ ruleId: 'cluster-scoped-resources', justification: 'reads node metrics cluster-wide; approved by security (SEC-1)' }],
    });
    expect(standards.review()).toEqual([]);
    const objects = Testing.synth(app);
    const recorded = '[{"rule":"cluster-scoped-resources","justification":"reads node metrics cluster-wide; approved by security (SEC-1)"}]';
    expect(find(objects, 'Project', 'api').metadata.annotations['gitops-platform.io/standards-exemptions']).toBe(recorded);
    expect(find(objects, 'AppProject', 'api').metadata.annotations['gitops-platform.io/standards-exemptions']).toBe(recorded);
    expect(find(objects, 'AppProject', 'api').spec.clusterResourceWhitelist).toEqual([
      { group: 'rbac.authorization.k8s.io', kind: 'ClusterRole' },
      { group: '', kind: 'Namespace', name: 'api' },
    ]);
  });

  test('custom rules run after the built-in ones; warnings do not fail synth', () => {
    const w = world();
    const teamLabel: IStandardsRule = {
      id: 'team-prefix',
      description: 'app names start with the team name',
      severity: RuleSeverity.WARNING,
      check: app => app.appName.startsWith(app.owner.team) ? [] : [`app name "${app.appName}" does not start with team "${app.owner.team}"; rename it`],
    };
    const standards = new PlatformStandards(w.app, 'standards', { rules: [teamLabel] });
    compliant(w);
    expect(standards.review()).toEqual([{
      app: 'api', ruleId: 'team-prefix', severity: RuleSeverity.WARNING, message: 'app name "api" does not start with team "payments"; rename it',
    }]);
    expect(() => w.app.synth()).not.toThrow();
  });

  test('severities and disabled rules are the platform team\'s choice', () => {
    const w = world();
    const standards = new PlatformStandards(w.app, 'standards', {
      disabledRules: ['prod-verification'],
      severities: { 'max-wave-percent': RuleSeverity.WARNING },
      maxWavePercent: 10,
    });
    new PlatformApp(w.app, 'api', appProps(w));
    expect(standards.review().map(v => `${v.ruleId}:${v.severity}`)).toEqual(['max-wave-percent:warning', 'max-wave-percent:warning']);
  });

  test('a rule can also be used on its own', () => {
    const w = world();
    const app = compliant(w);
    expect(StandardsRules.maxWavePercent({ percent: 40, allStages: true }).check(app)).toEqual([
      'stage "dev" wave "dev" holds more than 40% of the clusters, got 2 of 2 clusters (100%); split the stage into more waves (Waves.byPercentage() or more ring labels)',
      'stage "staging" wave "staging" holds more than 40% of the clusters, got 2 of 2 clusters (100%); split the stage into more waves (Waves.byPercentage() or more ring labels)',
      'stage "prod" wave "canary" holds more than 40% of the clusters, got 2 of 4 clusters (50%); split the stage into more waves (Waves.byPercentage() or more ring labels)',
      'stage "prod" wave "broad" holds more than 40% of the clusters, got 2 of 4 clusters (50%); split the stage into more waves (Waves.byPercentage() or more ring labels)',
    ]);
  });

  test('fails if an exemption names a rule the standards do not have', () => {
    const w = world();
    new PlatformStandards(w.app, 'standards');
    compliant(w, 'api', { exemptions: [{ ruleId: 'no-such-rule', justification: 'because we said so, really' }] });
    expect(() => w.app.synth()).toThrow(/PlatformApp 'api' breaks no-such-rule: exemption names rule "no-such-rule", which these standards do not have; use one of owner-contact/);
  });

  test('fails if an exemption has no justification', () => {
    const w = world();
    expect(() => compliant(w, 'api', { exemptions: [{ ruleId: 'prod-gate', justification: ' ' }] }))
      .toThrow(/exemptions\[0\].justification must explain in a sentence why the app may break the rule, got " "; say why, and who agreed/);
  });

  test('fails if a custom rule id is reused or malformed', () => {
    const rule = (id: string): IStandardsRule => ({ id, description: 'x', severity: RuleSeverity.ERROR, check: () => [] });
    expect(() => new PlatformStandards(Testing.app(), 's', { rules: [rule('prod-gate')] })).toThrow(/rule id is already used, got "prod-gate"/);
    expect(() => new PlatformStandards(Testing.app(), 's', { rules: [rule('Team Label')] })).toThrow(/rule id must be lowercase words joined by dashes, got "Team Label"/);
    expect(() => new PlatformStandards(Testing.app(), 's', { disabledRules: ['prod-gates'] })).toThrow(/disabledRules\[0\] names no built-in rule, got "prod-gates"; did you mean "prod-gate"\?/);
  });

  test('fails if an option keyed by a name names nothing that exists: severities by rule, max-lead-time stages by stage', () => {
    const w = world();
    new PlatformApp(w.app, 'api', appProps(w));
    new PlatformStandards(w.app, 'standards', {
      severities: { 'prod-gates': RuleSeverity.WARNING, 'max-applications-per-shard': RuleSeverity.WARNING },
      rules: [StandardsRules.maxLeadTime({ stages: { prdo: Duration.hours(1), prod: Duration.hours(10) } })],
    });
    const message = errorOf(() => w.app.synth());
    expect(message).toContain('standards: the platform breaks prod-gates: severities names no rule of these standards');
    expect(message).toContain('got "prod-gates"; did you mean "prod-gate"?');
    expect(message).toContain('standards: the platform breaks max-lead-time: max-lead-time stages names no stage of the apps\' pipelines, got "prdo"; did you mean "prod"?');
    expect(message).not.toContain('max-applications-per-shard');
  });
});
