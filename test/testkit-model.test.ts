import * as path from 'path';
import { describe, expect, test } from 'vitest';
import { KNOWN_CONTROLLER_PROBLEMS } from './known-controller-problems';
import {
  appProject, CA, clusterSecret, directStage, eksSecret, helmTask, IMAGE, NS, pullRequestStage, SOURCE, syncStep, warehouse, world,
} from './testkit-model-fixtures';
import { CONTROLLER_FINDING_CODES, ControllerFinding, findingCodes, simulateControllers, simulateManifestDirectory } from '../src/testkit';
import { evaluateExpression } from '../src/testkit/model/expr';
import { SimulatedFreight } from '../src/testkit/model/freight';
import { GitWorld, WorkDir } from '../src/testkit/model/git-world';
import { inflateSteps, runPromotion } from '../src/testkit/model/promotion-runner';
import { evaluateTemplate } from '../src/testkit/model/template';

const CLUSTERS = ['east', 'west'];

/** `<code> <kind>/<name> <path>: <message>` lines, the shape assertions read best in. */
function lines(findings: ControllerFinding[]): string[] {
  return findings.map((f) => `${f.code} ${f.kind}/${f.name} ${f.path}: ${f.message}`);
}

function only(findings: ControllerFinding[], code: string): string[] {
  return lines(findings.filter((f) => f.code === code));
}

describe('controller model: a correct app', () => {
  test('direct stage, kustomize: no findings through first, repeated, newer and rollback promotions', () => {
    expect(lines(simulateControllers(world([directStage('dev', CLUSTERS)])))).toEqual([]);
  });

  test('direct stage, helm: no findings', () => {
    expect(lines(simulateControllers(world([directStage('dev', CLUSTERS, [])], { task: helmTask() })))).toEqual([]);
  });

  test('pull-request stage done right: no findings', () => {
    expect(lines(simulateControllers(world([pullRequestStage('prod', CLUSTERS)])))).toEqual([]);
  });

  test('pull-request stage: first promotion and a no-change promotion both succeed, the second opens no PR', () => {
    const objects = world([pullRequestStage('prod', CLUSTERS)]);
    const stage = objects.find((o) => o.kind === 'Stage');
    const tasks = new Map([['PromotionTask/render', objects.find((o) => o.kind === 'PromotionTask')]]);
    const steps = inflateSteps(stage, tasks);
    const gitWorld = new GitWorld();
    const freight = SimulatedFreight.of(objects.find((o) => o.kind === 'Warehouse'), 1);
    const run = (n: number) => runPromotion({
      stage,
      steps,
      freight,
      env: { world: gitWorld, workDir: new WorkDir(), project: NS, stage: 'prod', promotion: `p${n}`, chartDependencies: [], applications: [], reviewer: 'merge', synced: [] },
    });
    // no Application in this run: argocd-update finds none and errors, so stop before it
    const first = run(1);
    const statuses = (r: ReturnType<typeof run>) => Object.fromEntries(r.steps.map((s) => [s.step.alias, s.status]));
    expect(statuses(first)).toMatchObject({ 'clone-release': 'Succeeded', 'open-pr': 'Succeeded', 'wait-for-pr': 'Succeeded' });
    const second = run(2);
    expect(statuses(second)).toMatchObject({ 'commit': 'Skipped', 'open-pr': 'Skipped', 'wait-for-pr': 'Skipped' });
    expect(gitWorld.remote('https://github.com/acme/releases.git').pullRequests).toHaveLength(1);
  });
});

describe('controller model: Argo CD', () => {
  test('fails if CreateNamespace=true and the AppProject does not permit Namespace', () => {
    const findings = simulateControllers(world([directStage('dev', CLUSTERS)], { project: appProject({ clusterResourceWhitelist: undefined }) }));
    expect(only(findings, 'namespace-not-permitted')).toEqual([
      'namespace-not-permitted ApplicationSet/shop-dev /spec/template/spec/syncPolicy/syncOptions: CreateNamespace=true makes Argo CD create Namespace "shop", but AppProject shop has no clusterResourceWhitelist entry matching group "" kind Namespace name "shop": every first sync fails with "resource :Namespace is not permitted in project shop" (Applications shop-east, shop-west)',
    ]);
  });

  test('fails if the whitelist name glob does not match the namespace; passes when it does', () => {
    const miss = simulateControllers(world([directStage('dev', CLUSTERS)], { project: appProject({ clusterResourceWhitelist: [{ group: '', kind: 'Namespace', name: 'team-*' }] }) }));
    expect(findingCodes(miss)).toEqual(['namespace-not-permitted']);
    const hit = simulateControllers(world([directStage('dev', CLUSTERS)], { project: appProject({ clusterResourceWhitelist: [{ group: '', kind: 'Namespace', name: 'sh?p' }] }) }));
    expect(findingCodes(hit)).toEqual([]);
  });

  test('fails if the destination or the source repository is not permitted', () => {
    const findings = simulateControllers(world([directStage('dev', CLUSTERS)], { project: appProject({ destinations: [{ name: 'east', namespace: NS }], sourceRepos: ['https://github.com/other/*'] }) }));
    expect(findingCodes(findings)).toEqual(['destination-not-permitted', 'source-repo-not-permitted']);
    expect(only(findings, 'destination-not-permitted')[0]).toContain('(Application shop-west)');
  });

  test('fails if an EKS, GKE or AKS cluster Secret has no caData', () => {
    const secrets = [
      eksSecret('east', { insecure: false }),
      clusterSecret('west', { execProviderConfig: { command: 'argocd-k8s-auth', args: ['gcp'] }, tlsClientConfig: { insecure: false } }, 'https://34.1.2.3'),
      clusterSecret('aks', { execProviderConfig: { command: 'argocd-k8s-auth', args: ['azure'] }, tlsClientConfig: {} }, 'https://aks-1.hcp.eastus.azmk8s.io'),
      clusterSecret('public', { bearerToken: 'x', tlsClientConfig: { insecure: false } }, 'https://k8s.example.com'),
    ];
    const findings = simulateControllers(world([directStage('dev', CLUSTERS)], { secrets }));
    expect(only(findings, 'cluster-ca-missing').map((l) => l.split(':')[0])).toEqual([
      'cluster-ca-missing Secret/cluster-aks /stringData/config/tlsClientConfig/caData',
      'cluster-ca-missing Secret/cluster-east /stringData/config/tlsClientConfig/caData',
      'cluster-ca-missing Secret/cluster-west /stringData/config/tlsClientConfig/caData',
    ]);
    expect(only(findings, 'cluster-ca-missing')[1]).toContain('fails every request with "x509: certificate signed by unknown authority"');
  });

  test('fails if the EKS clusterName is missing, or differs from the real name when it is known', () => {
    const secrets = [clusterSecret('east', { awsAuthConfig: {}, tlsClientConfig: { caData: CA } }), eksSecret('west')];
    const findings = simulateControllers(world([directStage('dev', CLUSTERS)], { secrets }), { eksClusterNames: { west: 'prod-west-eks' } });
    expect(only(findings, 'eks-cluster-name-missing')).toHaveLength(1);
    expect(only(findings, 'eks-cluster-name-mismatch')).toEqual([
      'eks-cluster-name-mismatch Secret/cluster-west /stringData/config/awsAuthConfig/clusterName: awsAuthConfig.clusterName "west" is not the EKS cluster\'s name "prod-west-eks": the token is minted for another cluster and every request is Unauthorized',
    ]);
  });
});

describe('controller model: Kargo promotions', () => {
  test('fails if git-open-pr targets a branch nothing creates (first promotion)', () => {
    const findings = simulateControllers(world([pullRequestStage('prod', CLUSTERS, { target: 'rendered/never-created' })]));
    expect(only(findings, 'open-pr-target-missing')).toEqual([
      'open-pr-target-missing Stage/prod /spec/promotionTemplate/spec/steps/8: first promotion on an empty release repository: step "open-pr" (git-open-pr) Errored: target branch "rendered/never-created" does not exist; the Promotion ends Errored',
    ]);
  });

  test('fails if git-clone checks out a missing release branch without create: true', () => {
    const stage = directStage('dev', CLUSTERS);
    stage.spec.promotionTemplate.spec.steps[1].config.checkout[0].create = false;
    expect(findingCodes(simulateControllers(world([stage])))).toEqual(['git-branch-missing']);
  });

  test('fails if a no-change promotion reads the output of a Skipped git-open-pr unguarded', () => {
    const findings = simulateControllers(world([pullRequestStage('prod', CLUSTERS, { guard: false, syncRevision: "${{ outputs['wait-for-pr'].commit }}" })]));
    expect(only(findings, 'step-output-missing')).toEqual([
      'step-output-missing Stage/prod /spec/promotionTemplate/spec/steps/9: second promotion of the same Freight (nothing changed): step "wait-for-pr" (git-wait-for-pr) Errored: failed to build step context: cannot fetch pr from <nil>; the Promotion ends Errored',
    ]);
  });

  test('fails if the guarded PR waiter is followed by an unguarded read of its output', () => {
    const findings = simulateControllers(world([pullRequestStage('prod', CLUSTERS, { syncRevision: "${{ outputs['wait-for-pr'].commit }}" })]));
    expect(only(findings, 'step-output-missing')[0]).toContain('step "sync" (argocd-update) Errored: failed to build step context: cannot fetch commit from <nil>');
  });

  test('fails if an evaluated config breaks the step schema: a version that reads as a number', () => {
    const broken = simulateControllers(world([directStage('dev', CLUSTERS, [])], { task: helmTask({ kubeVersion: "${{ '1.31' }}" }) }));
    expect(only(broken, 'step-config-invalid')[0]).toContain(
      'step "render-east::template" (helm-template) Failed: invalid helm-template config: /kubeVersion: 1.31 must be string');
    const quoted = simulateControllers(world([directStage('dev', CLUSTERS, [])], { task: helmTask({ kubeVersion: "${{ quote('1.31') }}" }) }));
    expect(lines(quoted)).toEqual([]);
  });

  test('fails if helm-update-chart names an OCI chart by its full URL; passes with the registry path', () => {
    const chartWarehouse = warehouse([{ chart: { repoURL: 'oci://ghcr.io/acme/charts/shop' } }, { image: { repoURL: IMAGE } }, { git: { repoURL: SOURCE } }]);
    const update = (repository: string) => [{
      uses: 'helm-update-chart',
      as: 'update-chart',
      config: { path: './src/chart', charts: [{ repository, name: 'shop', version: "${{ quote(chartFrom('oci://ghcr.io/acme/charts/shop').Version) }}" }] },
    }];
    const broken = simulateControllers(world([directStage('dev', CLUSTERS, update('oci://ghcr.io/acme/charts/shop'))], { task: helmTask(), warehouse: chartWarehouse }));
    expect(only(broken, 'helm-dependency-not-found')[0]).toContain('step "update-chart" (helm-update-chart) Errored: no dependency in Chart.yaml matches update with repository "oci://ghcr.io/acme/charts/shop" and name "shop"');
    const fixed = simulateControllers(world([directStage('dev', CLUSTERS, update('oci://ghcr.io/acme/charts'))], { task: helmTask(), warehouse: chartWarehouse }));
    expect(lines(fixed)).toEqual([]);
    // Freight whose chart version reads as a number (4.2) breaks an unquoted version
    const unquoted = update('oci://ghcr.io/acme/charts').map(s => ({ ...s, config: { ...s.config, charts: [{ ...s.config.charts[0], version: "${{ chartFrom('oci://ghcr.io/acme/charts/shop').Version }}" }] } }));
    expect(only(simulateControllers(world([directStage('dev', CLUSTERS, unquoted)], { task: helmTask(), warehouse: chartWarehouse })), 'step-config-invalid')[0]).toContain(
      'promotion of newer Freight whose versions read as numbers (tag 1.20, chart 4.2, commits of digits): step "update-chart" (helm-update-chart) Failed: invalid helm-update-chart config: /charts/0/version: 4.2 must be string');
  });

  test('fails if a commit id is not quoted: the rare commit of digits reads as a number', () => {
    const pushed = directStage('dev', CLUSTERS);
    pushed.spec.promotionTemplate.spec.steps[8] = syncStep('dev', "${{ outputs['push'].commit }}");
    expect(only(simulateControllers(world([pushed])), 'step-config-invalid')[0]).toMatch(
      /commits of digits\): step "sync" \(argocd-update\) Failed: invalid argocd-update config: \/apps\/0\/sources\/0\/desiredRevision: [0-9.e+]+ must be string/);
    const stage = directStage('dev', CLUSTERS);
    const steps = stage.spec.promotionTemplate.spec.steps.map((s: any) => s.as !== 'clone-source' ? s
      : { ...s, config: { ...s.config, checkout: [{ ...s.config.checkout[0], commit: `\${{ commitFrom('${SOURCE}').ID }}` }] } });
    const unquoted = { ...stage, spec: { ...stage.spec, promotionTemplate: { spec: { ...stage.spec.promotionTemplate.spec, steps } } } };
    expect(only(simulateControllers(world([unquoted])), 'step-config-invalid')[0]).toMatch(
      /promotion of newer Freight whose versions read as numbers .*: step "clone-source" \(git-clone\) Failed: invalid git-clone config: \/checkout\/0\/commit: [0-9.e+]+ must be string/);
  });

  test('fails if a subscribed git repository is never checked out', () => {
    const extra = warehouse([{ image: { repoURL: IMAGE } }, { git: { repoURL: SOURCE } }, { git: { repoURL: 'https://github.com/acme/config.git' } }]);
    const findings = simulateControllers(world([directStage('dev', CLUSTERS)], { warehouse: extra }));
    expect(only(findings, 'artifact-unused')).toEqual([
      'artifact-unused Warehouse/shop /spec/subscriptions/2/git: git "https://github.com/acme/config.git" is subscribed, but no step of Stage(s) dev lets it change the rendered release (it is never checked out into a rendered path): Freight made by its new versions promotes nothing',
    ]);
  });

  test('a git repository checked out inside the chart is read by helm-template; one outside the chart is not', () => {
    const config = 'https://github.com/acme/config.git';
    const extra = warehouse([{ image: { repoURL: IMAGE } }, { git: { repoURL: SOURCE } }, { git: { repoURL: config } }]);
    const checkout = (at: string) => ({ uses: 'git-clone', as: 'clone-config', config: { repoURL: config, checkout: [{ commit: `\${{ quote(commitFrom('${config}').ID) }}`, path: at }] } });
    const inside = simulateControllers(world([directStage('dev', CLUSTERS, [checkout('./src/chart/config')])], { warehouse: extra, task: helmTask() }));
    expect(lines(inside)).toEqual([]);
    const outside = simulateControllers(world([directStage('dev', CLUSTERS, [checkout('./src/config')])], { warehouse: extra, task: helmTask() }));
    expect(only(outside, 'artifact-unused')[0]).toContain(`git "${config}" is subscribed, but no step of Stage(s) dev lets it change the rendered release`);
  });

  test('fails if an image is only named in the commit message', () => {
    const findings = simulateControllers(world([directStage('dev', CLUSTERS, [])]));
    expect(only(findings, 'artifact-unused')[0]).toContain(`image "${IMAGE}" is subscribed, but no step of Stage(s) dev`);
  });

  test('fails if ignoreMissingValueFiles can hide a required values file', () => {
    const findings = simulateControllers(world([directStage('dev', CLUSTERS, [])], { task: helmTask({ ignoreMissingValueFiles: true }) }));
    expect(only(findings, 'values-files-ignore-missing')).toEqual([
      'values-files-ignore-missing PromotionTask/render /spec/steps/0/config/ignoreMissingValueFiles: ignoreMissingValueFiles applies to all 1 values file(s) ["./src/chart/values.yaml"]: a required values file that is missing renders silently with chart defaults; keep it unset and merge only the optional files first (yaml-merge with ignoreMissingFiles)',
    ]);
  });

  test('fails if helm-template renders without the cluster\'s capabilities or drops CRDs', () => {
    const findings = simulateControllers(world([directStage('dev', CLUSTERS, [])], { task: helmTask({ kubeVersion: undefined, apiVersions: undefined, includeCRDs: undefined }) }));
    const [line] = only(findings, 'helm-template-capabilities');
    expect(line).toContain('PromotionTask/render /spec/steps/0/config: helm-template renders client-only without kubeVersion');
    expect(line).toContain('includeCRDs: true (CRDs in the chart\'s crds/ directory are dropped)');
  });

  test('fails if argocd-update keeps its 5 minute default timeout', () => {
    const stage = directStage('dev', CLUSTERS);
    stage.spec.promotionTemplate.spec.steps[8] = syncStep('dev', "${{ quote(outputs['push'].commit) }}", null);
    expect(only(simulateControllers(world([stage])), 'argocd-update-timeout-default')).toEqual([
      'argocd-update-timeout-default Stage/dev /spec/promotionTemplate/spec/steps/8/retry/timeout: argocd-update "sync" has no retry.timeout: it waits at most the 5m default for the Applications to sync, so a slow wave or a deny sync window fails the promotion',
    ]);
  });

  test('fails if an Application\'s path is never rendered', () => {
    const objects = world([directStage('dev', CLUSTERS)]);
    objects.find((o) => o.kind === 'ApplicationSet').spec.template.spec.source.path = 'clusters/{{ .name }}';
    const findings = simulateControllers(objects);
    expect(findingCodes(findings)).toEqual(['application-revision-missing']);
    expect(lines(findings)[0]).toContain('Application "shop-east" cannot sync to');
  });

  const webMetric = (name: string, url: string) => ({
    name,
    interval: '1m',
    count: 5,
    failureLimit: 1,
    consecutiveErrorLimit: 1,
    successCondition: "result == '1.2.0'",
    provider: { web: { method: 'GET', url, jsonPath: '{$.version}' } },
  });
  const guardOf = (metric: any, changes: Record<string, unknown> = {}, env: Record<string, string> = {}) => ({
    ...metric,
    successCondition: undefined,
    name: `${metric.name}-answers-json`,
    ...changes,
    provider: {
      job: {
        spec: {
          template: {
            spec: {
              containers: [{
                name: 'check',
                image: 'node:22-alpine',
                command: ['node', '-e', '...'],
                securityContext: { runAsNonRoot: true, allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] }, seccompProfile: { type: 'RuntimeDefault' } },
                env: Object.entries({ CHECK_URL: metric.provider.web.url, CHECK_METHOD: 'GET', ...env }).map(([name, value]) => ({ name, value })),
              }],
            },
          },
        },
      },
    },
  });
  const smoke = (metrics: any[]) => ({
    apiVersion: 'argoproj.io/v1alpha1', kind: 'AnalysisTemplate', metadata: { name: 'smoke', namespace: NS }, spec: { metrics },
  });
  const version = webMetric('version', 'https://shop/version');
  const unguarded = 'web-metric-non-json-passes AnalysisTemplate/smoke /spec/metrics/0/successCondition: web metric "version" checks successCondition "result == \'1.2.0\'", '
    + 'but an answer that is not JSON is counted Successful without evaluating it: a plain-text answer from "https://shop/version" always passes '
    + '(no job metric of the template makes the same request on the same schedule and fails on a non-JSON answer)';

  test('fails if a web metric checks a condition (a non-JSON answer always passes) without a JSON guard', () => {
    const up = { name: 'up', successCondition: 'true', provider: { web: { url: 'https://shop/ready' } } };
    expect(only(simulateControllers([smoke([version, up])]), 'web-metric-non-json-passes')).toEqual([unguarded]);
  });

  test('accepts a web metric guarded by a job metric with the same request and schedule', () => {
    expect(lines(simulateControllers([smoke([version, guardOf(version)])]))).toEqual([]);
  });

  test.each([
    ['guards another url', guardOf(version, {}, { CHECK_URL: 'https://shop/ready' })],
    ['uses another method', guardOf(version, {}, { CHECK_METHOD: 'POST' })],
    ['measures on another interval', guardOf(version, { interval: '5m' })],
    ['measures fewer times', guardOf(version, { count: 1 })],
    ['is a web metric', { ...guardOf(version), provider: { web: { url: 'https://shop/version' } } }],
  ])('fails if the only candidate guard %s', (_, guard) => {
    expect(only(simulateControllers([smoke([version, guard])]), 'web-metric-non-json-passes')).toEqual([unguarded]);
  });

  test('fails if the guard is in another template', () => {
    const other = { ...smoke([guardOf(version)]), metadata: { name: 'other', namespace: NS } };
    expect(only(simulateControllers([smoke([version]), other]), 'web-metric-non-json-passes')).toEqual([unguarded]);
  });
});

describe('controller model: Prometheus metrics on no data and NaN', () => {
  const template = (metric: Record<string, unknown>, outcomes?: Record<string, unknown>) => ({
    apiVersion: 'argoproj.io/v1alpha1',
    kind: 'AnalysisTemplate',
    metadata: { name: 'errors', namespace: NS, ...outcomes ? { annotations: { 'gitops-platform.io/metric-outcomes': JSON.stringify(outcomes) } } : {} },
    spec: { metrics: [{ name: 'errors-east', ...metric, provider: { prometheus: { address: 'http://p:9090', query: 'sum(rate(errors[5m]))' } } }] },
  });

  test('fails if the condition indexes result[0] unguarded (today\'s threshold shape): an empty answer errors the measurement', () => {
    expect(only(simulateControllers([template({ successCondition: 'result[0] < 0.05' })]), 'metric-error-on-no-data')).toEqual([
      'metric-error-on-no-data AnalysisTemplate/errors /spec/metrics/0/successCondition: prometheus metric "errors-east": successCondition "result[0] < 0.05" '
      + 'fails on an answer without series (index out of range: 0 (array length is 0)), so the measurement is Error and the AnalysisRun errors, failing verification, '
      + 'whenever "sum(rate(errors[5m]))" returns nothing; guard it with len(result) == 0 || …',
    ]);
  });

  test.each([
    ['len(result) == 0 || isNaN(result[0]) || result[0] < 0.05', undefined, 'Successful', 'Successful'],
    ['len(result) == 0 || (!isNaN(result[0]) && result[0] < 0.05)', undefined, 'Successful', 'Failed'],
    ['len(result) > 0 && !isNaN(result[0]) && result[0] > 0.99', 'len(result) > 0 && !isNaN(result[0]) && !(result[0] > 0.99)', 'Inconclusive', 'Inconclusive'],
    ['len(result) > 0 && (isNaN(result[0]) || result[0] == 1)', undefined, 'Failed', 'Successful'],
  ])('%s / %s: no data %s, NaN %s', (successCondition, failureCondition, noData, nan) => {
    const metric = { successCondition, failureCondition };
    expect(lines(simulateControllers([template(metric, { 'errors-east': { noData, nan } })]))).toEqual([]);
    const wrong = { noData: noData === 'Failed' ? 'Successful' : 'Failed', nan };
    expect(only(simulateControllers([template(metric, { 'errors-east': wrong })]), 'metric-outcome-mismatch')).toEqual([
      `metric-outcome-mismatch AnalysisTemplate/errors /spec/metrics/0: prometheus metric "errors-east" is annotated noData "${wrong.noData}", but its conditions make an answer without series ${noData}`,
    ]);
  });

  test('NaN compares like a Go float64: NaN != t holds, NaN == NaN does not', () => {
    expect(lines(simulateControllers([template({ successCondition: 'len(result) > 0 && result[0] != 1' }, { 'errors-east': { noData: 'Failed', nan: 'Successful' } })]))).toEqual([]);
    expect(lines(simulateControllers([template({ successCondition: 'len(result) > 0 && result[0] == result[0]' }, { 'errors-east': { noData: 'Failed', nan: 'Failed' } })]))).toEqual([]);
  });
});

describe('controller model: expressions', () => {
  const env = { outputs: { 'push': { commit: 'abc', branch: 'b' }, 'open-pr': null }, vars: { n: 1 } };
  test.each([
    ["outputs['push'].commit", 'abc'],
    ["outputs['open-pr']?.pr.id", null],
    ["outputs['open-pr']?.pr.id ?? outputs.push.commit", 'abc'],
    ["outputs['missing'] ?? 'x'", 'x'],
    ['vars.n == 1 && !(vars.n > 1)', true],
    ["vars.n == 1 ? 'one' : 'other'", 'one'],
  ])('%s', (src, expected) => {
    expect(evaluateExpression(src, env, {})).toEqual(expected);
  });

  test('fails like expr-lang on a member of nil', () => {
    expect(() => evaluateExpression("outputs['open-pr'].pr.id", env, {})).toThrow('cannot fetch pr from <nil>');
  });

  test('templates: quote() keeps a number a string, a lone expression keeps its type', () => {
    expect(evaluateTemplate('${{ quote(1.2) }}', {}, {})).toBe('1.2');
    expect(evaluateTemplate("${{ quote('1.20') }}", {}, {})).toBe('1.20');
    expect(evaluateTemplate('${{ vars.n }}', env, {})).toBe(1);
    expect(evaluateTemplate('./out/${{ vars.n }}/x', env, {})).toBe('./out/1/x');
  });
});

describe('controller model on manifests/', () => {
  test('finds exactly the known problem kinds of today\'s output', () => {
    const findings = simulateManifestDirectory(path.join(__dirname, '..', 'manifests'));
    expect(findingCodes(findings)).toEqual(KNOWN_CONTROLLER_PROBLEMS);
    expect(findings.filter((f) => f.code === 'cluster-ca-missing')).toHaveLength(0);
    for (const code of findingCodes(findings)) expect(Object.keys(CONTROLLER_FINDING_CODES)).toContain(code);
  });
});


describe('controller model: Kargo starting a verification', () => {
  const template = (name: string, metrics: string[], args: unknown[] = [{ name: 'version' }]) => ({
    apiVersion: 'argoproj.io/v1alpha1',
    kind: 'AnalysisTemplate',
    metadata: { name, namespace: NS },
    spec: { args, metrics: metrics.map((m) => ({ name: m, provider: { job: { spec: { template: { spec: { containers: [] } } } } } })) },
  });
  const verified = (templates: string[], args: unknown[]) => {
    const stage = directStage('dev', CLUSTERS);
    stage.spec.verification = { analysisTemplates: templates.map((name) => ({ name })), args };
    return stage;
  };
  const run = (stage: any, ...templates: any[]) => simulateControllers([...world([stage]), ...templates]);
  const quoted = { name: 'version', value: `\${{ quote(imageFrom('${IMAGE}').Tag) }}` };

  test('a quoted tag, declared and resolved arguments, distinct metrics: no findings', () => {
    expect(lines(run(verified(['smoke', 'latency'], [quoted]), template('smoke', ['east']), template('latency', ['p99'], [{ name: 'version' }, { name: 'window', value: '5m' }])))).toEqual([]);
  });

  test('fails if an unquoted tag can read as a number', () => {
    const findings = run(verified(['smoke'], [{ name: 'version', value: `\${{ imageFrom('${IMAGE}').Tag }}` }]), template('smoke', ['east']));
    expect(lines(findings)).toEqual([
      'verification-arg-not-string Stage/dev /spec/verification/args/0/value: evaluated argument "version" value is not a string but float64 (1.2); wrap the expression in quote(): the verification errors before any check runs',
    ]);
  });

  test('fails if a job metric\'s Job name, cut to 63 characters, is invalid or shared', () => {
    const jobs = (names: string[]) => template('smoke', names, []);
    // 36 (uid) + 2 dots + 1 digit leave 24 characters of the metric name
    expect(lines(run(verified(['smoke'], []), jobs(['smoke-aws-use1-cpu-prod-01', 'smoke-aws-use1-c-10e173c'])))).toEqual([
      'job-name-invalid Stage/dev /spec/verification/analysisTemplates: job metric "smoke-aws-use1-cpu-prod-01" runs measurement 1 as Job "<run uid>.smoke-aws-use1-cpu-prod-.1", which is not a valid name: Kubernetes refuses the Job and the measurement errors',
    ]);
    expect(only(run(verified(['smoke'], []), jobs(['smoke-aws-use1-cpu-prodx-01', 'smoke-aws-use1-cpu-prodx-02'])), 'job-name-shared')).toEqual([
      'job-name-shared Stage/dev /spec/verification/analysisTemplates: job metrics "smoke-aws-use1-cpu-prodx-01" and "smoke-aws-use1-cpu-prodx-02" both run measurement 1 as Job "<run uid>.smoke-aws-use1-cpu-prodx.1": one reports the other\'s result',
      'job-name-shared Stage/dev /spec/verification/analysisTemplates: job metrics "smoke-aws-use1-cpu-prodx-02" and "smoke-aws-use1-cpu-prodx-01" both run measurement 1 as Job "<run uid>.smoke-aws-use1-cpu-prodx.1": one reports the other\'s result',
    ]);
  });

  test('fails if two templates share a metric name, or an argument is undeclared or unresolved; a template installed outside is not judged', () => {
    expect(lines(run(verified(['installed-by-the-platform'], [quoted, { name: 'anything', value: 'x' }])))).toEqual([]);
    expect(only(run(verified(['a', 'b'], [quoted]), template('a', ['east']), template('b', ['east'])), 'verification-templates-conflict')).toEqual([
      'verification-templates-conflict Stage/dev /spec/verification/analysisTemplates: the AnalysisTemplates of the verification cannot be combined into one AnalysisRun (duplicate metric name: "east"): every verification of the Stage errors',
    ]);
    expect(only(run(verified(['smoke'], [quoted, { name: 'region', value: 'eu' }]), template('smoke', ['east'])), 'verification-arg-undeclared')).toEqual([
      'verification-arg-undeclared Stage/dev /spec/verification/args/1: argument "region" is declared by none of the verification\'s AnalysisTemplates (version): Kargo drops it and the checks never see it',
    ]);
    expect(only(run(verified(['smoke'], []), template('smoke', ['east'])), 'verification-arg-unresolved')).toEqual([
      'verification-arg-unresolved Stage/dev /spec/verification/args: unresolved argument "version": neither the Stage nor its AnalysisTemplates give it a value or valueFrom, so the verification errors',
    ]);
  });
});
