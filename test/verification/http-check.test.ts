import { Duration } from 'cdk8s';
import { describe, expect, test } from 'vitest';
import { Verification, VerificationArg, VerificationKind, HttpMethod } from '../../src/verification';
import { jobNameStem } from '../../src/verification/job-names';
import { CLUSTERS, expectValid, GATEWAY_IMAGE, health, problemsOf, render } from '../support/verification-fixtures';

describe('Verification.http', () => {
  test('renders the check into the Stage\'s one template, one metric per cluster, placeholders filled', () => {
    const rendered = render([health()]);
    expectValid(rendered);
    expect(rendered.templates.map(t => t.name)).toEqual(['prod-canary-verification']);
    const metrics = rendered.templates[0].spec.metrics;
    expect(metrics.map((m: any) => m.name)).toEqual(['health-gcp-usc1-h100-prod-01', 'health-azr-eus-mi300x-prod-01']);
    expect(metrics.map((m: any) => m.provider.web.url)).toEqual([
      'https://gateway.gcp-usc1-h100-prod-01.example.com/healthz',
      'https://gateway.azr-eus-mi300x-prod-01.example.com/healthz',
    ]);
  });

  test('fails if the successCondition does not compile as Argo Rollouts compiles it, whatever JSON the answer holds', () => {
    const check = (successCondition: string) => Verification.http({ name: 'h', url: 'https://h.example.com', jsonPath: '{$.status}', successCondition })._problems;
    expect(check("result == 'UP'")).toEqual([]);
    expect(check("result.status in ['UP', 'OK'] && !isNil(result.version)")).toEqual([]);
    expect(check("result = 'UP'")).toEqual([expect.stringMatching(/^http successCondition does not compile as Argo Rollouts v1.9.1 compiles it \(expr v1.15.5, result being the JSON value\): unexpected token Operator\("="\)/)]);
    expect(check("reslt == 'UP'")).toEqual([expect.stringMatching(/unknown name reslt/)]);
  });

  test('fails if the jsonPath is one the JSONPath parser of Argo Rollouts refuses', () => {
    const check = (jsonPath: string) => Verification.http({ name: 'h', url: 'https://h.example.com', jsonPath, successCondition: "result == 'UP'" })._problems;
    expect(check("{$.checks[?(@.name=='db')].status}")).toEqual([]);
    expect(check('{$.checks[0}')).toEqual([expect.stringMatching(/^http jsonPath is refused by the JSONPath parser Argo Rollouts v1.9.1 uses \(client-go util\/jsonpath: .+\), got "\{\$.checks\[0\}"/)]);
  });

  test('snapshot', () => {
    const rendered = render([Verification.http({
      name: 'version',
      url: 'https://gateway.{region}.{provider}.example.com/version?cluster={cluster}&tier={tier}&gpu={accelerator}&stage={stage}',
      headers: { 'Authorization': 'Bearer {{args.token}}', 'X-Kargo-Stage': '{{args.stage}}' },
      jsonPath: '{$.version}',
      successCondition: 'result == "{{args.version}}"',
      args: { version: VerificationArg.imageTag(GATEWAY_IMAGE), token: VerificationArg.fromSecret('gateway-probe', 'token') },
    })]);
    expectValid(rendered);
    expect(rendered).toMatchSnapshot();
  });

  test('defaults: GET every minute, 5 measurements, 1 failure tolerated, every 2xx answer passes', () => {
    const [metric] = render([health()]).templates[0].spec.metrics;
    expect(metric).toEqual({
      name: 'health-gcp-usc1-h100-prod-01',
      interval: '1m',
      count: 5,
      failureLimit: 1,
      consecutiveErrorLimit: 1,
      successCondition: 'true',
      provider: { web: { method: 'GET', url: 'https://gateway.gcp-usc1-h100-prod-01.example.com/healthz', jsonPath: '{$}' } },
    });
    expect(health().kind).toBe(VerificationKind.HTTP);
    expect(Verification.http({ url: 'https://x.{cluster}.example.com' }).name).toBe('http');
  });

  test('options: method, body, jsonPath, condition, timing, timeout, insecure, dry run', () => {
    const rendered = render([Verification.http({
      name: 'echo',
      url: 'https://echo.{cluster}.example.com/',
      method: HttpMethod.POST,
      body: '{"cluster": "{cluster}"}',
      headers: { 'Content-Type': 'application/json' },
      jsonPath: '{$.ok}',
      successCondition: 'result == true',
      interval: Duration.seconds(90),
      initialDelay: Duration.minutes(2),
      count: 3,
      failureLimit: 0,
      timeout: Duration.seconds(5),
      insecure: true,
      dryRun: true,
    })]);
    expectValid(rendered);
    const spec = rendered.templates[0].spec;
    expect(spec.metrics[0]).toEqual({
      name: 'echo-gcp-usc1-h100-prod-01',
      initialDelay: '2m',
      interval: '1m30s',
      count: 3,
      failureLimit: 0,
      consecutiveErrorLimit: 0,
      successCondition: 'result == true',
      provider: {
        web: {
          method: 'POST',
          url: 'https://echo.gcp-usc1-h100-prod-01.example.com/',
          headers: [{ key: 'Content-Type', value: 'application/json' }],
          body: '{"cluster": "gcp-usc1-h100-prod-01"}',
          jsonPath: '{$.ok}',
          timeoutSeconds: 5,
          insecure: true,
        },
      },
    });
    // The JSON guard is dry-run with its web metric; it carries the timeout, the body and insecure.
    // anchored: Argo Rollouts matches each rule as an unanchored regular expression (GetDryRunMetrics)
    expect(spec.dryRun).toEqual([
      { metricName: '^echo-gcp-usc1-h100-prod-01$' }, { metricName: '^echo-gcp-usc1-h1-ca6eb5e-answers-json$' },
      { metricName: '^echo-azr-eus-mi300x-prod-01$' }, { metricName: '^echo-azr-eus-mi3-89d44a5-answers-json$' },
    ]);
    const guard = spec.metrics[1];
    expect([guard.initialDelay, guard.interval, guard.count, guard.failureLimit, guard.consecutiveErrorLimit]).toEqual(['2m', '1m30s', 3, 0, 0]);
    expect(guard.provider.job.spec.activeDeadlineSeconds).toBe(125);
    expect(guard.provider.job.spec.template.spec.containers[0].env).toEqual([
      { name: 'CHECK_URL', value: 'https://echo.gcp-usc1-h100-prod-01.example.com/' },
      { name: 'CHECK_METHOD', value: 'POST' },
      { name: 'CHECK_HEADER_0_NAME', value: 'Content-Type' },
      { name: 'CHECK_HEADER_0_VALUE', value: 'application/json' },
      { name: 'CHECK_BODY', value: '{"cluster": "gcp-usc1-h100-prod-01"}' },
      { name: 'CHECK_TIMEOUT_SECONDS', value: '5' },
      { name: 'NODE_TLS_REJECT_UNAUTHORIZED', value: '0' },
    ]);
  });

  test('a condition gets a JSON guard next to the web metric; no condition, \'true\' or requireJson: false gets none', () => {
    const names = (options: Partial<Parameters<typeof Verification.http>[0]>) =>
      render([Verification.http({ name: 'v', url: 'https://v.example.com/version', ...options })]).templates[0].spec.metrics.map((m: any) => m.name);
    expect(names({ jsonPath: '{$.v}', successCondition: "result == '1'" })).toEqual(['v', 'v-answers-json']);
    expect(names({})).toEqual(['v']);
    expect(names({ successCondition: ' true ' })).toEqual(['v']);
    expect(names({ jsonPath: '{$.v}', successCondition: "result == '1'", requireJson: false })).toEqual(['v']);
    expect(names({ requireJson: true })).toEqual(['v', 'v-answers-json']);
  });

  test('{namespace} is the app\'s namespace in the stage, for stages that share clusters', () => {
    const rendered = render([Verification.http({ name: 'ready', url: 'https://{cluster}.example.com/{namespace}/ready', args: { ns: VerificationArg.value('{namespace}') } })],
      { namespace: 'gateway-uat' });
    expect(rendered.templates[0].spec.metrics.map((m: any) => m.provider.web.url)).toEqual(CLUSTERS.map(c => `https://${c.name}.example.com/gateway-uat/ready`));
  });

  test('the JSON guard runs node:22-alpine unless jsonGuardImage names a mirror', () => {
    const image = (options: Partial<Parameters<typeof Verification.http>[0]>) =>
      render([Verification.http({ name: 'v', url: 'https://v.example.com/version', successCondition: 'result.ok', ...options })])
        .templates[0].spec.metrics[1].provider.job.spec.template.spec.containers[0].image;
    expect(image({})).toBe('docker.io/library/node:22-alpine');
    expect(image({ jsonGuardImage: 'registry.acme.internal/library/node:22-alpine' })).toBe('registry.acme.internal/library/node:22-alpine');
    expect(Verification.http({ name: 'v', url: 'https://v.example.com/', jsonGuardImage: 'node 22' })._problems).toEqual([
      'http jsonGuardImage is given but the check has no JSON guard, got "node 22"; remove it, or set a successCondition',
    ]);
    expect(Verification.http({ name: 'v', url: 'https://v.example.com/', successCondition: 'result.ok', jsonGuardImage: 'node 22' })._problems).toEqual([
      'http jsonGuardImage must be an image reference without spaces, got "node 22"; use e.g. "registry.acme.internal/library/node:22-alpine"',
    ]);
  });

  test('the JSON guard script has no {{ }} for Argo Rollouts to substitute, and no secret reaches the Job', () => {
    const rendered = render([Verification.http({
      name: 'v',
      url: 'https://v.{cluster}.example.com/',
      method: HttpMethod.POST,
      body: 'user=probe&password={{args.password}}&stage={{args.stage}}',
      headers: { 'X-Api-Key': '{{args.key}}' },
      successCondition: 'result.ok',
      args: { password: VerificationArg.fromSecret('probe', 'password'), key: VerificationArg.fromSecret('probe', 'api-key') },
    })]);
    expectValid(rendered);
    const guard = rendered.templates[0].spec.metrics[1];
    const container = guard.provider.job.spec.template.spec.containers[0];
    expect(container.command[3]).not.toMatch(/\{\{|\}\}|\$\{/);
    expect(JSON.stringify(guard)).not.toMatch(/args\.(password|key)/);
    expect(container.env.filter((e: any) => /BODY|HEADER/.test(e.name))).toEqual([
      { name: 'CHECK_HEADER_0_NAME', value: 'X-Api-Key' },
      { name: 'CHECK_HEADER_0_VALUE_0', valueFrom: { secretKeyRef: { name: 'probe', key: 'api-key' } } },
      { name: 'CHECK_BODY_0', value: 'user=probe&password=' },
      { name: 'CHECK_BODY_1', valueFrom: { secretKeyRef: { name: 'probe', key: 'password' } } },
      { name: 'CHECK_BODY_2', value: '&stage={{args.stage}}' },
    ]);
  });

  test('a guard\'s Job names stay valid and its own although Argo Rollouts cuts job metric names to 24 characters', () => {
    const clusters = ['aws-usw2-cpu-prod-01', 'aws-usw2-cpu-prod-02', 'aws-usw2-cpu-prod-03'].map(name => ({ ...CLUSTERS[0], name }));
    const guardNames = (check: string) => render([Verification.http({ name: check, url: 'https://{cluster}.example.com/v', successCondition: 'result.ok' })], { clusters })
      .templates[0].spec.metrics.filter((m: any) => m.provider.job).map((m: any) => m.name);
    expect(guardNames('version')).toEqual([
      'version-aws-usw2-f389b64-answers-json', 'version-aws-usw2-6f553c6-answers-json', 'version-aws-usw2-65d5d18-answers-json',
    ]);
    for (const check of ['v', 'vers', 'version', 'version-of-the-api', 'a-b-c-d-e-f-g-h-i-j']) {
      const names = guardNames(check);
      for (const n of [1, 10, 100]) {
        const stems = names.map((name: string) => jobNameStem(name, n));
        expect(new Set(stems).size).toBe(names.length);
        for (const stem of stems) expect(`uid.${stem}.${n}`).toMatch(/^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/);
      }
    }
    expect(render([Verification.http({ name: 'v', url: 'https://example.com/v', successCondition: 'result.ok' })]).templates[0].spec.metrics[1].name).toBe('v-answers-json');
  });

  test('a check without per-cluster placeholders is measured once per Stage', () => {
    const rendered = render([Verification.http({ name: 'status', url: 'https://status.example.com/{stage}/api' })]);
    expectValid(rendered);
    expect(rendered.templates[0].spec.metrics.map((m: any) => [m.name, m.provider.web.url])).toEqual([
      ['status', 'https://status.example.com/prod/api'],
    ]);
  });

  test('count 1 omits the interval', () => {
    const [metric] = render([Verification.http({ url: 'https://x.{cluster}.example.com', count: 1, failureLimit: 0 })]).templates[0].spec.metrics;
    expect(metric.interval).toBeUndefined();
    expect(metric.count).toBe(1);
  });
});

describe('Verification.http: problems', () => {
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
});
