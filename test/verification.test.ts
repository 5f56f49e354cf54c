import { Duration } from 'cdk8s';
import { describe, expect, test } from 'vitest';
import { formatIssues, ManifestValidator } from '../src/testkit';
import { evaluateResult } from '../src/testkit/model/rollouts-metric-outcomes';
import {
  Comparison, HttpMethod, MetricOutcome, Verification, VerificationArg, VerificationKind,
} from '../src/verification';
import { jobNameProblems, jobNameStem } from '../src/verification/job-names';
import { METRIC_OUTCOMES_ANNOTATION } from '../src/verification/metric-outcome';
import { renderVerification, VerificationContext, VerificationTarget, verificationProblems } from '../src/verification/render';

const CLUSTERS: VerificationTarget[] = [
  { name: 'gcp-usc1-h100-prod-01', region: 'us-central1', provider: 'gcp', accelerator: 'nvidia-h100', tier: 'prod' },
  { name: 'azr-eus-mi300x-prod-01', region: 'eastus', provider: 'azure', accelerator: 'amd-mi300x', tier: 'prod' },
];

const CTX: VerificationContext = { app: 'gateway', project: 'gateway', kargoStage: 'prod-canary', pipelineStage: 'prod', namespace: 'gateway', clusters: CLUSTERS };

const GATEWAY_IMAGE = 'ghcr.io/acme/gateway';

function render(checks: Verification[], ctx: Partial<VerificationContext> = {}) {
  return renderVerification(checks, { ...CTX, ...ctx });
}

/** Every generated template, and a Stage carrying the verification, checked by the test kit. */
function expectValid(rendered: ReturnType<typeof render>) {
  const templates = rendered.templates.map(t => ({
    apiVersion: 'argoproj.io/v1alpha1',
    kind: 'AnalysisTemplate',
    metadata: { name: t.name, namespace: CTX.project, labels: t.labels },
    spec: t.spec,
  }));
  const stage = {
    apiVersion: 'kargo.akuity.io/v1alpha1',
    kind: 'Stage',
    metadata: { name: CTX.kargoStage, namespace: CTX.project },
    spec: {
      requestedFreight: [{ origin: { kind: 'Warehouse', name: CTX.app }, sources: { stages: ['staging'] } }],
      verification: rendered.stageVerification,
    },
  };
  const issues = ManifestValidator.load().validateObjects([...templates, stage]);
  expect(formatIssues(issues)).toBe('');
  expect(rendered.problems).toEqual([]);
}

function problemsOf(...checks: Verification[]): string[] {
  return verificationProblems(checks);
}

const health = () => Verification.http({ name: 'health', url: 'https://gateway.{cluster}.example.com/healthz' });

describe('Verification.http', () => {
  test('renders one template per check with one metric per cluster, placeholders filled', () => {
    const rendered = render([health()]);
    expectValid(rendered);
    expect(rendered.templates.map(t => t.name)).toEqual(['prod-canary-health']);
    const metrics = rendered.templates[0].spec.metrics;
    expect(metrics.map((m: any) => m.name)).toEqual(['health-gcp-usc1-h100-prod-01', 'health-azr-eus-mi300x-prod-01']);
    expect(metrics.map((m: any) => m.provider.web.url)).toEqual([
      'https://gateway.gcp-usc1-h100-prod-01.example.com/healthz',
      'https://gateway.azr-eus-mi300x-prod-01.example.com/healthz',
    ]);
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
    expect(spec.dryRun).toEqual([
      { metricName: 'echo-gcp-usc1-h100-prod-01' }, { metricName: 'echo-gcp-usc1-h1-ca6eb5e-answers-json' },
      { metricName: 'echo-azr-eus-mi300x-prod-01' }, { metricName: 'echo-azr-eus-mi3-89d44a5-answers-json' },
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

  test('job metric names that Argo Rollouts would cut into a refused or shared Job name are reported', () => {
    const guard = (name: string) => ({ name, count: 5, owner: 'v', fix: 'shorten the check name' });
    const metrics = [{ name: 'smoke-aws-usw2-cpu-prod-01', count: 1 }, { name: 'version-aws-usw2-cpu-prod-01-x', count: 5 }, { name: 'version-aws-usw2-cpu-prod-02-x', count: 5 }];
    expect(jobNameProblems([guard('version-aws-usw2-cpu-prod-01-x'), guard('smoke-aws-usw2-cpu-prod-01'), guard('ok-answers-json')], metrics)).toEqual([
      'verification "v" metric "version-aws-usw2-cpu-prod-01-x" Job name is also the Job of metric "version-aws-usw2-cpu-prod-02-x", whose result it would report, '
        + 'got "<run uid>.version-aws-usw2-cpu-pro.1"; Argo Rollouts keeps only the first 24 characters of a job metric\'s name in its Job name (metricproviders/job/job.go); shorten the check name',
      'verification "v" metric "smoke-aws-usw2-cpu-prod-01" Job name is refused by Kubernetes (a name part ends in "-"), got "<run uid>.smoke-aws-usw2-cpu-prod-.1"; '
        + 'Argo Rollouts keeps only the first 24 characters of a job metric\'s name in its Job name (metricproviders/job/job.go); shorten the check name',
    ]);
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

describe('Verification.prometheus', () => {
  const errors = () => Verification.prometheus({
    name: 'errors',
    address: 'http://prometheus.{region}.example.com:9090',
    query: 'sum(rate(http_requests_total{cluster="{cluster}",code=~"5.."}[5m])) / sum(rate(http_requests_total{cluster="{cluster}"}[5m]))',
    threshold: 0.01,
    comparison: Comparison.LESS_THAN,
  });

  test('threshold and comparison become the success condition; placeholders in address and query', () => {
    const rendered = render([errors()]);
    expectValid(rendered);
    const metrics = rendered.templates[0].spec.metrics;
    expect(metrics[1]).toEqual({
      name: 'errors-azr-eus-mi300x-prod-01',
      interval: '1m',
      count: 5,
      failureLimit: 1,
      consecutiveErrorLimit: 1,
      successCondition: 'len(result) == 0 || isNaN(result[0]) || result[0] < 0.01',
      provider: {
        prometheus: {
          address: 'http://prometheus.eastus.example.com:9090',
          query: 'sum(rate(http_requests_total{cluster="azr-eus-mi300x-prod-01",code=~"5.."}[5m])) / sum(rate(http_requests_total{cluster="azr-eus-mi300x-prod-01"}[5m]))',
        },
      },
    });
  });

  test('snapshot', () => {
    const rendered = render([errors(), Verification.prometheus({
      name: 'gpu-util',
      address: 'https://thanos.example.com',
      query: 'avg(DCGM_FI_DEV_GPU_UTIL{cluster="{cluster}",accelerator="{accelerator}"})',
      successCondition: 'len(result) > 0 && result[0] >= 10',
      headers: { 'X-Scope-OrgID': 'gpu-{tier}' },
      timeout: Duration.seconds(30),
      count: 10,
      failureLimit: 2,
    })]);
    expectValid(rendered);
    expect(rendered).toMatchSnapshot();
  });

  test.each([
    [Comparison.LESS_THAN_OR_EQUAL, { successCondition: 'len(result) == 0 || isNaN(result[0]) || result[0] <= 2' }, 'Successful', 'Successful'],
    [Comparison.GREATER_THAN, {
      successCondition: 'len(result) > 0 && !isNaN(result[0]) && result[0] > 2',
      failureCondition: 'len(result) == 0 || (!isNaN(result[0]) && !(result[0] > 2))',
    }, 'Failed', 'Inconclusive'],
    [Comparison.GREATER_THAN_OR_EQUAL, {
      successCondition: 'len(result) > 0 && !isNaN(result[0]) && result[0] >= 2',
      failureCondition: 'len(result) == 0 || (!isNaN(result[0]) && !(result[0] >= 2))',
    }, 'Failed', 'Inconclusive'],
    [Comparison.EQUAL, { successCondition: 'len(result) > 0 && !isNaN(result[0]) && result[0] == 2' }, 'Failed', 'Failed'],
    [Comparison.NOT_EQUAL, { successCondition: 'len(result) > 0 && !isNaN(result[0]) && result[0] != 2' }, 'Failed', 'Failed'],
  ])('comparison %s: guarded conditions, default outcomes annotated and what Rollouts decides', (comparison, conditions, noData, nan) => {
    const check = Verification.prometheus({ address: 'http://p:9090', query: 'up', threshold: 2, comparison });
    expect(check._problems).toEqual([]);
    const [template] = render([check]).templates;
    const { successCondition, failureCondition } = template.spec.metrics[0];
    expect({ successCondition, failureCondition }).toEqual({ failureCondition: undefined, ...conditions });
    expect(JSON.parse(template.annotations![METRIC_OUTCOMES_ANNOTATION])).toEqual({ prometheus: { noData, nan } });
    expect(evaluateResult(template.spec.metrics[0], []).phase).toBe(noData);
    expect(evaluateResult(template.spec.metrics[0], [NaN]).phase).toBe(nan);
    expect(evaluateResult(template.spec.metrics[0], [comparison === Comparison.NOT_EQUAL ? 3 : 2]).phase)
      .toBe(comparison === Comparison.GREATER_THAN ? 'Failed' : 'Successful');
  });

  test.each(Object.values(MetricOutcome).flatMap(noData => Object.values(MetricOutcome).map(nan => [noData, nan])))(
    'noData %s, nan %s: the conditions give exactly those outcomes, and the threshold decides the rest', (noData, nan) => {
      const check = Verification.prometheus({ address: 'http://p:9090', query: 'up', threshold: 0.05, comparison: Comparison.LESS_THAN, noData, nan });
      const metric = render([check]).templates[0].spec.metrics[0];
      expect(evaluateResult(metric, []).phase).toBe(noData);
      expect(evaluateResult(metric, [NaN]).phase).toBe(nan);
      expect(evaluateResult(metric, [0.01, 0.9]).phase).toBe('Successful');
      expect(evaluateResult(metric, [0.05]).phase).toBe('Failed');
      expect(metric.failureCondition !== undefined).toBe(noData === MetricOutcome.INCONCLUSIVE || nan === MetricOutcome.INCONCLUSIVE);
    });

  test('a successCondition is evaluated only on a number, Inconclusive otherwise by default; every metric of the template is annotated', () => {
    const check = Verification.prometheus({ name: 'gpu', address: 'http://p:9090', query: 'avg(util{cluster="{cluster}"})', successCondition: 'result[0] >= 10 || result[0] == 0' });
    const [template] = render([check]).templates;
    const metric = template.spec.metrics[0];
    expect(metric.successCondition).toBe('len(result) > 0 && !isNaN(result[0]) && (result[0] >= 10 || result[0] == 0)');
    expect(metric.failureCondition).toBe('len(result) > 0 && !isNaN(result[0]) && !((result[0] >= 10 || result[0] == 0))');
    expect([[], [NaN], [0], [5]].map(r => evaluateResult(metric, r).phase)).toEqual(['Inconclusive', 'Inconclusive', 'Successful', 'Failed']);
    const annotated = JSON.parse(template.annotations![METRIC_OUTCOMES_ANNOTATION]);
    expect(Object.keys(annotated)).toEqual(template.spec.metrics.map((m: any) => m.name).sort());
    expect(Object.values(annotated).every(o => JSON.stringify(o) === '{"noData":"Inconclusive","nan":"Inconclusive"}')).toBe(true);
  });

  test('templates of other kinds carry no outcomes annotation', () => {
    expect(render([Verification.http({ url: 'https://x.{cluster}.example.com' })]).templates[0].annotations).toBeUndefined();
  });

  test('fails if noData or nan is not a MetricOutcome', () => {
    expect(problemsOf(Verification.prometheus({ name: 'p', address: 'http://p:9090', query: 'up', threshold: 1, comparison: Comparison.EQUAL, noData: 'pass' as any }))).toEqual([
      'verification "p": prometheus noData must be a MetricOutcome, got "pass"; use MetricOutcome.SUCCESSFUL, FAILED or INCONCLUSIVE',
    ]);
  });
});

describe('Verification.job', () => {
  const smoke = () => Verification.job({
    name: 'smoke',
    image: 'ghcr.io/acme/gateway-smoke:{{args.version}}',
    command: ['/smoke'],
    containerArgs: ['--target', 'https://gateway.{cluster}.example.com', '--region={region}'],
    env: { API_TOKEN: '{{args.token}}', TIER: '{tier}', STAGE: '{{args.stage}}' },
    args: { version: VerificationArg.imageTag(GATEWAY_IMAGE), token: VerificationArg.fromSecret('gateway-probe', 'token') },
  });

  test('the JobSpec validates against the pinned CRD and the cluster placeholders are filled', () => {
    const rendered = render([smoke()]);
    expectValid(rendered);
    const [first, second] = rendered.templates[0].spec.metrics;
    const container = (m: any) => m.provider.job.spec.template.spec.containers[0];
    expect(container(first).args).toEqual(['--target', 'https://gateway.gcp-usc1-h100-prod-01.example.com', '--region=us-central1']);
    expect(container(second).args).toEqual(['--target', 'https://gateway.azr-eus-mi300x-prod-01.example.com', '--region=eastus']);
    expect(container(first).image).toBe('ghcr.io/acme/gateway-smoke:{{args.version}}');
    expect(first.provider.job.metadata.labels['gitops-platform.io/cluster']).toBe('gcp-usc1-h100-prod-01');
  });

  test('a secret env is read from the Secret by the kubelet, never substituted into the Job', () => {
    const rendered = render([smoke()]);
    const env = rendered.templates[0].spec.metrics[0].provider.job.spec.template.spec.containers[0].env;
    expect(env).toEqual([
      { name: 'API_TOKEN', valueFrom: { secretKeyRef: { name: 'gateway-probe', key: 'token' } } },
      { name: 'TIER', value: 'prod' },
      { name: 'STAGE', value: '{{args.stage}}' },
    ]);
    expect(rendered.templates[0].spec.args).toEqual([{ name: 'stage' }, { name: 'version' }]);
  });

  test('defaults: one run, no failure tolerated, no retry, a 10 minute deadline, non-root with a writable /tmp', () => {
    const [metric] = render([Verification.job({ image: 'ghcr.io/acme/smoke:1.0.0', containerArgs: ['{cluster}'] })]).templates[0].spec.metrics;
    // Argo Rollouts keeps 24 characters of a job metric's name in its Job's name, where
    // "job-gcp-usc1-h100-prod-0" would share a Job with prod-02's: a longer name is shortened
    // with a hash of the whole, and the Job says which cluster it measures
    expect(metric.name).toBe('job-gcp-usc1-h10-ac1bbea');
    expect(metric.provider.job.metadata.labels['gitops-platform.io/cluster']).toBe('gcp-usc1-h100-prod-01');
    expect(metric.count).toBe(1);
    expect(metric.failureLimit).toBe(0);
    expect(metric.interval).toBeUndefined();
    expect(metric.consecutiveErrorLimit).toBeUndefined();
    const spec = metric.provider.job.spec;
    expect(spec.backoffLimit).toBe(0);
    expect(spec.activeDeadlineSeconds).toBe(600);
    const pod = spec.template.spec;
    expect(pod.restartPolicy).toBe('Never');
    expect(pod.automountServiceAccountToken).toBe(false);
    expect(pod.containers[0].securityContext).toMatchObject({ runAsNonRoot: true, runAsUser: 65532, readOnlyRootFilesystem: true });
    expect(pod.containers[0].volumeMounts).toEqual([{ mountPath: '/tmp', name: 'tmp' }]);
    expect(pod.containers[0].resources).toEqual({ limits: { cpu: '1', memory: '512Mi' }, requests: { cpu: '100m', memory: '128Mi' } });
    expect(spec.template.metadata.labels['cdk8s.io/metadata.addr']).toBeUndefined();
  });

  test('options: backoffLimit, activeDeadline, user, count with interval', () => {
    const rendered = render([Verification.job({
      image: 'ghcr.io/acme/smoke:1.0.0', backoffLimit: 2, activeDeadline: Duration.minutes(3), user: 1000, count: 3, failureLimit: 1,
    })]);
    expectValid(rendered);
    const [metric] = rendered.templates[0].spec.metrics;
    expect(metric).toMatchObject({ name: 'job', interval: '1m', count: 3, failureLimit: 1 });
    expect(metric.provider.job.spec).toMatchObject({ backoffLimit: 2, activeDeadlineSeconds: 180 });
    expect(metric.provider.job.spec.template.spec.securityContext.runAsUser).toBe(1000);
  });

  test('snapshot', () => {
    const rendered = render([smoke()]);
    expectValid(rendered);
    expect(rendered).toMatchSnapshot();
  });
});

describe('Verification.fromTemplate', () => {
  test('references an AnalysisTemplate or a ClusterAnalysisTemplate; nothing is generated', () => {
    const rendered = render([
      Verification.fromTemplate('integration-tests', { args: { commit: VerificationArg.commit('https://github.com/acme/gateway.git') } }),
      Verification.fromTemplate('load-test', { clusterScoped: true, args: { target: VerificationArg.value('https://gateway.{stage}.example.com') } }),
    ]);
    expectValid(rendered);
    expect(rendered.templates).toEqual([]);
    expect(rendered.stageVerification).toMatchSnapshot();
    expect(rendered.stageVerification.analysisTemplates).toEqual([
      { name: 'integration-tests', kind: 'AnalysisTemplate' },
      { name: 'load-test', kind: 'ClusterAnalysisTemplate' },
    ]);
    expect(rendered.stageVerification.args).toEqual([
      { name: 'commit', value: '${{ quote(commitFrom(\'https://github.com/acme/gateway.git\').ID) }}' },
      { name: 'target', value: 'https://gateway.prod.example.com' },
    ]);
  });
});

describe('args wiring', () => {
  test('template args are declared without value (Kargo passes them) or read from a Secret; Kargo passes the rest', () => {
    const rendered = render([Verification.http({
      name: 'version',
      url: 'https://gateway.{cluster}.example.com/version?expect={{args.version}}&commit={{ args.commit }}&p={{args.project}}&s={{args.stage}}&r={{args.run}}',
      headers: { Authorization: 'Bearer {{args.token}}' },
      args: {
        version: VerificationArg.imageTag(GATEWAY_IMAGE),
        commit: VerificationArg.commit('https://github.com/acme/gateway.git/'),
        run: VerificationArg.expression('vars.runId'),
        token: VerificationArg.fromSecret('gateway-probe', 'token'),
        unused: VerificationArg.value('x'),
      },
    })]);
    expectValid(rendered);
    expect(rendered.templates[0].spec.args).toEqual([
      { name: 'commit' },
      { name: 'project' },
      { name: 'run' },
      { name: 'stage' },
      { name: 'token', valueFrom: { secretKeyRef: { name: 'gateway-probe', key: 'token' } } },
      { name: 'version' },
    ]);
    expect(rendered.stageVerification.args).toEqual([
      { name: 'commit', value: '${{ quote(commitFrom(\'https://github.com/acme/gateway.git\').ID) }}' },
      { name: 'project', value: '${{ quote(ctx.project) }}' },
      { name: 'run', value: '${{ quote(vars.runId) }}' },
      { name: 'stage', value: '${{ quote(ctx.stage) }}' },
      { name: 'version', value: '${{ quote(imageFrom(\'ghcr.io/acme/gateway\').Tag) }}' },
    ]);
  });

  test('analysisRunMetadata labels the AnalysisRun with the app and the Stage', () => {
    expect(render([health()]).stageVerification.analysisRunMetadata).toEqual({
      labels: { 'gitops-platform.io/app': 'gateway', 'gitops-platform.io/stage': 'prod-canary', 'gitops-platform.io/pipeline-stage': 'prod' },
    });
  });

  test('checks sharing an arg with the same value pass it once', () => {
    const version = () => ({ version: VerificationArg.imageTag(GATEWAY_IMAGE) });
    const checks = [
      Verification.http({ name: 'a', url: 'https://a.{cluster}.example.com/?v={{args.version}}', args: version() }),
      Verification.http({ name: 'b', url: 'https://b.{cluster}.example.com/?v={{args.version}}', args: version() }),
    ];
    expect(problemsOf(...checks)).toEqual([]);
    const rendered = render(checks);
    expectValid(rendered);
    expect(rendered.stageVerification.args).toEqual([{ name: 'version', value: '${{ quote(imageFrom(\'ghcr.io/acme/gateway\').Tag) }}' }]);
  });

  test('plain arg values may use {stage}', () => {
    const rendered = render([Verification.http({ url: 'https://x.{cluster}.example.com/?env={{args.env}}', args: { env: VerificationArg.value('{stage}-eu') } })]);
    expect(rendered.stageVerification.args).toEqual([{ name: 'env', value: 'prod-eu' }]);
  });

  test('no checks: no templates and no verification', () => {
    expect(render([])).toEqual({ templates: [], stageVerification: undefined, problems: [] });
  });

  test('a valid list of checks has no problems', () => {
    expect(problemsOf(health(), Verification.fromTemplate('load-test'))).toEqual([]);
  });
});

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

  test('fails if two checks have the same name', () => {
    expect(problemsOf(health(), health())).toEqual([
      'verification name is given more than once, got "health"; give each check its own name, e.g. Verification.http({ name: \'health-2\', ... })',
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
    const kargoStage = 'w'.repeat(250);
    expect(render([health()], { kargoStage }).problems).toEqual([
      `verification "health" AnalysisTemplate name must be at most 253 characters (it has 257), got "${kargoStage}-health"; shorten the check name`,
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
    expect(render([health(), Verification.fromTemplate('prod-canary-health')]).problems).toEqual([
      'verification template has the name of a template generated for Stage "prod-canary", got "prod-canary-health"; rename the existing template or the generated check',
    ]);
  });
});
