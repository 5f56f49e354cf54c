import { describe, expect, test } from 'vitest';
import { HostLanguage } from '../../src/util/host-language';
import { Comparison, Verification, VerificationArg, VerificationKind } from '../../src/verification';
import { CLUSTERS, expectValid, GATEWAY_IMAGE, health, problemsOf, render } from '../support/verification-fixtures';

describe('problems', () => {

  test.each([
    [HostLanguage.TYPESCRIPT, "Verification.http({ name: 'health-2', url: ... })"],
    [HostLanguage.PYTHON, 'Verification.http(name="health-2", url=...)'],
    [HostLanguage.GO, 'Verification_Http(&HttpVerificationOptions{Name: jsii.String("health-2"), Url: ...})'],
  ])('fails if two checks have the same name, in %s', (language, example) => {
    expect(HostLanguage.using(language, () => problemsOf(health(), health()))).toEqual([
      `verification name is given more than once, got "health"; give each check its own name, e.g. ${example}`,
    ]);
  });

  test('fails if a check name or a template name is not a valid name', () => {
    expect(problemsOf(Verification.http({ name: 'Health_Check', url: 'https://x.example.com' }))).toEqual([
      'verification "Health_Check": http check name must consist of lowercase letters, digits and \'-\', and start and end with a letter or digit, got "Health_Check"; use e.g. "health"',
    ]);
    expect(problemsOf(Verification.fromTemplate('Bad Template'))).toEqual([
      'verification "Bad Template": template name must consist of lowercase letters, digits, \'-\' and \'.\', and start and end with a letter or digit, got "Bad Template"',
    ]);
  });

  test('fails if the generated template name is longer than 253 characters', () => {
    const kargoStage = 'w'.repeat(245);
    expect(render([health()], { kargoStage }).problems).toEqual([
      `verification AnalysisTemplate name must be at most 253 characters (it has 258), got "${kargoStage}-verification"; shorten the stage or wave name`,
    ]);
  });

  test('fails if two checks pass the same arg with different values', () => {
    expect(problemsOf(
      Verification.http({ name: 'a', url: 'https://a.{cluster}.example.com/?v={{args.version}}', args: { version: VerificationArg.value('1') } }),
      Verification.fromTemplate('b', { args: { version: VerificationArg.imageTag(GATEWAY_IMAGE) } }),
    )).toEqual([
      'args.version is passed with different values by verification "a" and "b", got value "1" and value "${{ quote(imageFrom(\'ghcr.io/acme/gateway\').Tag) }}"; '
      + 'the Stage passes one value per name to all its checks: rename the arg in one of them',
    ]);
  });

  test('fails if a secret arg and a Kargo arg share a name', () => {
    expect(problemsOf(
      Verification.http({ name: 'a', url: 'https://a.example.com', headers: { Authorization: '{{args.token}}' }, args: { token: VerificationArg.fromSecret('s', 'k') } }),
      Verification.fromTemplate('b', { args: { token: VerificationArg.value('x') } }),
    ).join()).toContain('args.token is passed with different values by verification "a" and "b", got secret s/k and value "x"');
  });

  test('fails if an existing template is given a secret arg', () => {
    expect(problemsOf(Verification.fromTemplate('t', { args: { token: VerificationArg.fromSecret('s', 'k') } }))).toEqual([
      'verification "t": args.token comes from a Secret, which Kargo cannot pass to an existing template, got "s"; '
      + 'declare it in the template itself: args: [{ name: token, valueFrom: { secretKeyRef: { name: s, key: k } } }]',
    ]);
  });

  test('fails if an arg value is invalid', () => {
    const problems = (arg: VerificationArg) => problemsOf(Verification.fromTemplate('t', { args: { a: arg } }));
    expect(problems(VerificationArg.value(''))).toEqual([
      'verification "t": args.a: arg value must not be empty, got ""; Kargo drops empty args and the AnalysisRun then fails',
    ]);
    expect(problems(VerificationArg.value('https://{cluster}.example.com'))).toEqual([
      'verification "t": args.a: arg value uses {cluster}, got "https://{cluster}.example.com"; args are shared by every cluster of a wave, put {cluster} in the check\'s url, query or command instead',
    ]);
    expect(problems(VerificationArg.value('${{ ctx.stage }}'))).toEqual([
      'verification "t": args.a: arg value must be plain text, got "${{ ctx.stage }}"; use VerificationArg.expression() for a Kargo expression',
    ]);
    expect(problems(VerificationArg.expression('outputs.build.tag'))).toEqual([
      'verification "t": args.a: arg expression uses outputs, got "outputs.build.tag"; promotion step outputs are not available to verification, only ctx.project, ctx.stage, vars and Freight functions',
    ]);
    expect(problems(VerificationArg.expression('ctx.targetFreight.name'))).toEqual([
      'verification "t": args.a: arg expression uses ctx.targetFreight, got "ctx.targetFreight.name"; verification only knows ctx.project and ctx.stage',
    ]);
    expect(problems(VerificationArg.expression('${{ ctx.stage }}'))).toEqual([
      'verification "t": args.a: arg expression must be bare expr-lang without ${{ }}, got "${{ ctx.stage }}"; the delimiters are added for you',
    ]);
    expect(problems(VerificationArg.imageTag('ghcr.io/acme/gateway:1.0'))).toEqual([
      'verification "t": args.a: image reference must not have a tag, got "ghcr.io/acme/gateway:1.0"; name the repository only; the versioning rule picks the tag',
    ]);
    expect(problems(VerificationArg.commit('git@github.com:acme/gateway.git'))).toEqual([
      'verification "t": args.a: commit arg git url must use https (SSH URLs are deprecated in Kargo and removed in v1.13), got "git@github.com:acme/gateway.git"; use the https:// clone URL',
    ]);
    expect(problems(VerificationArg.fromSecret('Bad_Secret', 'a/b'))).toEqual([
      'verification "t": args.a: secret name must consist of lowercase letters, digits, \'-\' and \'.\', and start and end with a letter or digit, got "Bad_Secret"; name a Secret in the Kargo project namespace',
      'verification "t": args.a: secret key must consist of letters, digits, \'-\', \'_\' or \'.\', got "a/b"',
      'verification "t": args.a comes from a Secret, which Kargo cannot pass to an existing template, got "Bad_Secret"; '
      + 'declare it in the template itself: args: [{ name: a, valueFrom: { secretKeyRef: { name: Bad_Secret, key: a/b } } }]',
    ]);
  });

  test('fails if metric names collide across the checks of a Stage', () => {
    const rendered = render([
      Verification.http({ name: 'api', url: 'https://x.{cluster}.example.com' }),
      Verification.http({ name: 'api-gcp', url: 'https://y.{cluster}.example.com' }),
    ], { clusters: [{ ...CLUSTERS[0], name: 'gcp-1' }, { ...CLUSTERS[1], name: '1' }] });
    expect(rendered.problems).toEqual([
      'verification "api-gcp" metric name is also a metric of "api", got "api-gcp-1"; Kargo merges all templates of a Stage into one AnalysisRun, where metric names must be unique: rename one check',
    ]);
  });

  test('fails if a per-cluster check is rendered for a Stage without clusters', () => {
    expect(render([health()], { clusters: [] }).problems).toEqual([
      'verification "health" uses per-cluster placeholders but Stage "prod-canary" has no clusters, got []; place clusters on the stage or drop the per-cluster placeholders',
    ]);
  });

  test('fails if an existing template has the name of a generated one', () => {
    expect(render([health(), Verification.fromTemplate('prod-canary-verification')]).problems).toEqual([
      'verification template has the name of the template generated for Stage "prod-canary", got "prod-canary-verification"; rename the existing template',
    ]);
  });
});

describe('one AnalysisTemplate per Stage', () => {
  const version = { version: VerificationArg.value('1') };
  const checks = () => [
    health(),
    Verification.fromTemplate('platform-smoke', { clusterScoped: true }),
    Verification.prometheus({
      name: 'errors',
      address: 'http://p:9090',
      query: 'sum(rate(e{cluster="{cluster}",v="{{args.version}}"}[5m]))',
      threshold: 1,
      comparison: Comparison.LESS_THAN,
      args: version,
    }),
    Verification.job({ name: 'smoke', image: 'i:1', env: { V: '{{args.version}}' }, args: version, dryRun: true }),
  ];

  test('holds what a template per check would give Kargo\'s flattenTemplates: the same metrics, args and dry-run entries, in order, the soak last', () => {
    const rendered = render(checks(), { soak: '2h' });
    const alone = checks().filter(c => c.kind !== VerificationKind.TEMPLATE).map(c => render([c]).templates[0]);
    const soak = render([], { soak: '2h' }).templates[0];
    expect(rendered.templates.map(t => t.name)).toEqual(['prod-canary-verification']);
    const [template] = rendered.templates;
    const parts = [...alone, soak].map(t => t.spec);
    expect(template.spec.metrics).toEqual(parts.flatMap(s => s.metrics));
    expect(template.spec.dryRun).toEqual(parts.flatMap(s => s.dryRun ?? []));
    expect(template.spec.args).toEqual([{ name: 'version' }]);
    expect(parts.flatMap(s => s.args ?? [])).toEqual([{ name: 'version' }, { name: 'version' }]);
    expect(template.annotations).toEqual({
      'gitops-platform.io/checks': 'health,errors,smoke,soak',
      'gitops-platform.io/metric-outcomes': alone[1].annotations!['gitops-platform.io/metric-outcomes'],
    });
    expect(rendered.stageVerification.analysisTemplates).toEqual([
      { name: 'prod-canary-verification', kind: 'AnalysisTemplate' },
      { name: 'platform-smoke', kind: 'ClusterAnalysisTemplate' },
    ]);
    expectValid(rendered);
  });

  test('a Stage with only existing templates gets none generated, and may reference one named like the generated one', () => {
    const rendered = render([Verification.fromTemplate('prod-canary-verification')]);
    expect(rendered.templates).toEqual([]);
    expect(rendered.stageVerification.analysisTemplates).toEqual([{ name: 'prod-canary-verification', kind: 'AnalysisTemplate' }]);
    expect(rendered.problems).toEqual([]);
  });
});
