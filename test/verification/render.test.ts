import { Duration } from 'cdk8s';
import { describe, expect, test } from 'vitest';
import { HostLanguage } from '../../src/util/host-language';
import { Comparison, Verification, VerificationArg, VerificationKind } from '../../src/verification';
import { CLUSTERS, expectValid, GATEWAY_IMAGE, health, problemsOf, render } from '../support/verification-fixtures';

describe('problems', () => {
  test('fails if a check references an undeclared argument', () => {
    expect(problemsOf(Verification.http({ name: 'health', url: 'https://x.{cluster}.example.com/?v={{args.version}}' }))).toEqual([
      'verification "health": http url references an undeclared argument {{args.version}}, got "https://x.{cluster}.example.com/?v={{args.version}}"; '
      + 'declare it in args (e.g. args: { \'version\': VerificationArg.value(\'...\') }); declared: project, stage',
    ]);
  });

  test('fails if a job env references an undeclared argument', () => {
    expect(problemsOf(Verification.job({ image: 'i:1', env: { TARGET: '{{args.target}}' } })).join('\n'))
      .toContain('job env TARGET references an undeclared argument {{args.target}}');
  });

  test.each([
    [HostLanguage.TYPESCRIPT, "Verification.http({ name: 'health-2', url: ... })"],
    [HostLanguage.PYTHON, 'Verification.http(name="health-2", url=...)'],
    [HostLanguage.GO, 'Verification_Http(&HttpVerificationOptions{Name: jsii.String("health-2"), Url: ...})'],
  ])('fails if two checks have the same name, in %s', (language, example) => {
    expect(HostLanguage.using(language, () => problemsOf(health(), health()))).toEqual([
      `verification name is given more than once, got "health"; give each check its own name, e.g. ${example}`,
    ]);
  });

  test('fails if a check uses an unknown placeholder', () => {
    expect(problemsOf(Verification.prometheus({ name: 'p', address: 'http://p:9090', query: 'up{cluster="{clustr}"}', threshold: 1, comparison: Comparison.EQUAL }))).toEqual([
      'verification "p": prometheus query uses unknown placeholder {clustr}, got "up{cluster=\\"{clustr}\\"}"; '
      + 'use one of {cluster}, {region}, {provider}, {accelerator}, {tier}, {stage}, {namespace}, or {{args.clustr}} for an argument',
    ]);
  });

  test('fails if a check holds a Rollouts tag that is not an arg, or a Kargo expression', () => {
    const problems = problemsOf(Verification.http({ name: 'h', url: 'https://x.{cluster}.example.com/{{stage}}/${{ ctx.stage }}' }));
    expect(problems).toEqual([
      'verification "h": http url holds a Kargo expression, got "https://x.{cluster}.example.com/{{stage}}/${{ ctx.stage }}"; '
      + 'Kargo does not evaluate checks: declare an arg with VerificationArg.expression() and reference it as {{args.<name>}}',
      'verification "h": http url uses {{stage}}, which Argo Rollouts cannot resolve, got "https://x.{cluster}.example.com/{{stage}}/${{ ctx.stage }}"; '
      + 'only {{args.<name>}} references are allowed, did you mean {stage} (filled at synth)?',
    ]);
  });

  test('fails if a credential header is a literal, without showing it', () => {
    const problems = problemsOf(Verification.http({ name: 'h', url: 'https://x.{cluster}.example.com', headers: { Authorization: 'Bearer s3cr3t-t0ken' } }));
    expect(problems).toEqual([
      'verification "h": http header "Authorization" looks like a credential, got a literal value; put it in a Kubernetes Secret in the project namespace: '
      + 'headers: { \'Authorization\': \'Bearer {{args.token}}\' } with args: { token: VerificationArg.fromSecret(\'<secret>\', \'<key>\') }',
    ]);
    expect(problems.join()).not.toContain('s3cr3t');
  });

  test('fails if a credential header references an arg that is not a Secret', () => {
    expect(problemsOf(Verification.http({
      url: 'https://x.{cluster}.example.com', headers: { 'X-Api-Key': '{{args.key}}' }, args: { key: VerificationArg.value('abc') },
    })).join('\n')).toContain('http header "X-Api-Key" looks like a credential but {{args.key}} does not come from a Secret; declare it with VerificationArg.fromSecret');
    expect(problemsOf(Verification.job({ name: 'j', image: 'i:1', env: { DB_PASSWORD: '{{args.stage}}' } }))).toEqual([
      'verification "j": job env DB_PASSWORD looks like a credential but {{args.stage}} does not come from a Secret; declare it with VerificationArg.fromSecret(\'<secret>\', \'<key>\')',
    ]);
  });

  test('a credential reference to a misspelt arg reports the undeclared arg only', () => {
    expect(problemsOf(Verification.http({
      name: 'h', url: 'https://x.example.com', headers: { Authorization: 'Bearer {{args.tokn}}' }, args: { token: VerificationArg.fromSecret('s', 'k') },
    }))).toEqual([
      'verification "h": http header "Authorization" references an undeclared argument {{args.tokn}}, got "Bearer {{args.tokn}}"; '
      + 'declare it in args (e.g. args: { \'tokn\': VerificationArg.value(\'...\') }); declared: project, stage, token',
    ]);
  });

  test('fails if a header value looks like a bearer token under any name', () => {
    expect(problemsOf(Verification.prometheus({
      address: 'http://p:9090', query: 'up', threshold: 1, comparison: Comparison.EQUAL, headers: { 'X-Forward': 'Bearer abcdefghijkl' },
    })).join('\n')).toContain('prometheus header "X-Forward" looks like a credential');
  });

  test('fails if a credential env is a literal, without showing it', () => {
    const problems = problemsOf(Verification.job({ name: 'smoke', image: 'i:1', env: { API_TOKEN: 'hunter2' } }));
    expect(problems).toEqual([
      'verification "smoke": job env API_TOKEN looks like a credential, got a literal value; put it in a Kubernetes Secret in the project namespace: '
      + 'env: { API_TOKEN: \'{{args.api-token}}\' } with args: { \'api-token\': VerificationArg.fromSecret(\'<secret>\', \'<key>\') }',
    ]);
    expect(problems.join()).not.toContain('hunter2');
  });

  test('fails if a secret arg is used where it would leak (url, query, job args, part of an env value)', () => {
    const token = { token: VerificationArg.fromSecret('s', 'k') };
    expect(problemsOf(Verification.http({ name: 'h', url: 'https://x.{cluster}.example.com/?t={{args.token}}', args: token }))).toEqual([
      'verification "h": http url references a secret argument, got "{{args.token}}"; secrets may only be used in headers (or a whole job env value): error messages and logs show the url',
    ]);
    expect(problemsOf(Verification.prometheus({ address: 'http://p', query: 'x{t="{{args.token}}"}', threshold: 1, comparison: Comparison.EQUAL, args: token })).join())
      .toContain('prometheus query references a secret argument, got "{{args.token}}"');
    expect(problemsOf(Verification.job({ image: 'i:1', containerArgs: ['--token={{args.token}}'], args: token })).join())
      .toContain('job containerArgs[0] references a secret argument, got "{{args.token}}"');
    expect(problemsOf(Verification.job({ image: 'i:1', env: { AUTH_HEADER: 'Bearer {{args.token}}' }, args: token })).join())
      .toContain('job env AUTH_HEADER references a secret argument, got "{{args.token}}"');
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

  test('fails if durations are not positive whole seconds', () => {
    expect(problemsOf(Verification.http({
      name: 'h', url: 'https://x.example.com', interval: Duration.millis(1500), initialDelay: Duration.seconds(0), timeout: Duration.millis(500),
    }))).toEqual([
      'verification "h": http interval must be a positive whole number of seconds, got "1.5s"; use e.g. Duration.seconds(30)',
      'verification "h": http initialDelay must be a positive whole number of seconds, got "0s"; use e.g. Duration.seconds(30)',
      'verification "h": http timeout must be a positive whole number of seconds, got "0.5s"; use e.g. Duration.seconds(30)',
    ]);
    expect(problemsOf(Verification.job({ name: 'j', image: 'i:1', activeDeadline: Duration.millis(10) }))).toEqual([
      'verification "j": job activeDeadline must be a positive whole number of seconds, got "0.01s"; use e.g. Duration.seconds(30)',
    ]);
  });

  test('fails if counts and limits are invalid', () => {
    expect(problemsOf(Verification.http({ name: 'h', url: 'https://x.example.com', count: 0 }))).toEqual([
      'verification "h": http count must be a whole number of at least 1, got 0',
    ]);
    expect(problemsOf(Verification.http({ name: 'h', url: 'https://x.example.com', count: 2.5 }))).toEqual([
      'verification "h": http count must be a whole number of at least 1, got 2.5',
    ]);
    expect(problemsOf(Verification.http({ name: 'h', url: 'https://x.example.com', failureLimit: -1 }))).toEqual([
      'verification "h": http failureLimit must be a whole number of at least 0, got -1',
    ]);
    expect(problemsOf(Verification.job({ name: 'j', image: 'i:1', failureLimit: 1 }))).toEqual([
      'verification "j": job failureLimit must be less than count (1), got 1; otherwise the check can never fail',
    ]);
    expect(problemsOf(Verification.job({ name: 'j', image: 'i:1', backoffLimit: -1, user: 0 }))).toEqual([
      'verification "j": job backoffLimit must be a whole number of at least 0, got -1',
      'verification "j": job user must be a whole number above 0 (not root), got 0; use e.g. 65532',
    ]);
  });

  test('fails if a Prometheus check has neither a threshold nor a condition', () => {
    expect(problemsOf(Verification.prometheus({ name: 'p', address: 'http://p:9090', query: 'up' }))).toEqual([
      'verification "p": prometheus check needs a threshold with a comparison or a successCondition, got nothing; '
      + 'e.g. threshold: 0.01, comparison: Comparison.LESS_THAN (passes when result[0] < 0.01)',
    ]);
  });

  test('fails if a Prometheus threshold has no comparison, or is combined with a condition', () => {
    expect(problemsOf(Verification.prometheus({ name: 'p', address: 'http://p:9090', query: 'up', threshold: 1 }))).toEqual([
      'verification "p": prometheus threshold 1 needs a comparison, got nothing; e.g. comparison: Comparison.LESS_THAN',
    ]);
    expect(problemsOf(Verification.prometheus({ name: 'p', address: 'http://p:9090', query: 'up', threshold: 1, comparison: Comparison.EQUAL, successCondition: 'result[0] == 1' }))).toEqual([
      'verification "p": prometheus check takes either a successCondition or a threshold with a comparison, not both, got {"successCondition":"result[0] == 1","threshold":1}; keep one',
    ]);
    expect(problemsOf(Verification.prometheus({ name: 'p', address: 'http://p:9090', query: 'up', threshold: NaN, comparison: Comparison.EQUAL }))).toEqual([
      'verification "p": prometheus threshold must be a finite number, got NaN; give it with the comparison',
    ]);
  });

  test('fails if a Prometheus query is empty or the address is not a URL', () => {
    expect(problemsOf(Verification.prometheus({ name: 'p', address: 'prometheus:9090', query: ' ', successCondition: 'true' }))).toEqual([
      'verification "p": prometheus address must be an http:// or https:// URL, got "prometheus:9090"',
      'verification "p": prometheus query must not be empty, got " "; give a PromQL query, e.g. sum(rate(http_requests_total{cluster="{cluster}",code=~"5.."}[5m]))',
    ]);
  });

  test('fails if an HTTP check has a bad url, a body with GET, or a jsonPath without condition', () => {
    expect(problemsOf(Verification.http({ name: 'h', url: 'ftp://x.example.com' }))).toEqual([
      'verification "h": http url must be an http:// or https:// URL, got "ftp://x.example.com"',
    ]);
    expect(problemsOf(Verification.http({ name: 'h', url: 'https://user:pw@x.example.com' })).join()).toContain('must not carry credentials');
    expect(problemsOf(Verification.http({ name: 'h', url: 'https://x.example.com', body: '{}' }))).toEqual([
      'verification "h": http method must be POST or PUT to send a body, got "GET"; set method: HttpMethod.POST or drop the body',
    ]);
    expect(problemsOf(Verification.http({ name: 'h', url: 'https://x.example.com', jsonPath: '{$.status}' }))).toEqual([
      'verification "h": http jsonPath is given without a successCondition, so it checks nothing, got "{$.status}"; add e.g. successCondition: "result == \'UP\'"',
    ]);
    expect(problemsOf(Verification.http({ name: 'h', url: 'https://x.example.com', jsonPath: '$.status', successCondition: 'result' }))).toEqual([
      'verification "h": http jsonPath must be a Kubernetes JSONPath in braces, got "$.status"; use e.g. "{$.status}"',
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

  test('fails if a generated check declares a built-in arg, or an arg with a bad name', () => {
    expect(problemsOf(Verification.http({ name: 'h', url: 'https://x.example.com', args: { 'stage': VerificationArg.value('x'), '1st': VerificationArg.value('y') } }))).toEqual([
      'verification "h": arg name is built in ({{args.stage}} is always the Kargo stage), got "stage"; remove it from args, or pick another name',
      'verification "h": arg name must start with a letter and consist of letters, digits, \'_\' and \'-\', got "1st"',
    ]);
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
