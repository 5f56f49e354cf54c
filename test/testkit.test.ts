import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { Chart, Testing } from 'cdk8s';
import { describe, test, expect } from 'vitest';
import * as YAML from 'yaml';
import { Project, Stage, Warehouse } from '../imports/kargo-kargo.akuity.io';
import { formatIssues, ManifestIssue, ManifestValidator, validateManifests } from '../src/testkit';

// Checks against upstream material outside the project (Kargo's quickstart, the pinned CRD
// directory) are in .ci/upstream-checks.ts, which CI runs when shared/ sits beside the clone.
const KARGO = 'kargo.akuity.io/v1alpha1';
const ARGO = 'argoproj.io/v1alpha1';
const NS = 'demo';

const validator = ManifestValidator.load();

function issuesOf(...objects: any[]): ManifestIssue[] {
  return validator.validateObjects(objects);
}

/** `<path>: <message>` lines, the shape most assertions read best in. */
function linesOf(...objects: any[]): string[] {
  return issuesOf(...objects).map((i) => `${i.path}: ${i.message}`);
}

function expectClean(...objects: any[]): void {
  expect(formatIssues(issuesOf(...objects))).toBe('');
}

function project(extra: Record<string, unknown> = {}): any {
  return { apiVersion: KARGO, kind: 'Project', metadata: { name: NS }, ...extra };
}

function stage(spec: Record<string, unknown> = {}, name = 'test'): any {
  return {
    apiVersion: KARGO,
    kind: 'Stage',
    metadata: { name, namespace: NS },
    spec: {
      requestedFreight: [{ origin: { kind: 'Warehouse', name: 'demo' }, sources: { direct: true } }],
      ...spec,
    },
  };
}

function stageWithSteps(steps: unknown[]): any {
  return stage({ promotionTemplate: { spec: { steps } } });
}

function promotionTask(steps: unknown[]): any {
  return { apiVersion: KARGO, kind: 'PromotionTask', metadata: { name: 'promote', namespace: NS }, spec: { steps } };
}

function warehouse(subscriptions: unknown[]): any {
  return { apiVersion: KARGO, kind: 'Warehouse', metadata: { name: 'demo', namespace: NS }, spec: { subscriptions } };
}

function projectConfig(spec: Record<string, unknown>, name = NS): any {
  return { apiVersion: KARGO, kind: 'ProjectConfig', metadata: { name, namespace: NS }, spec };
}

function applicationSet(spec: Record<string, unknown> = {}, annotations: Record<string, string> = {}): any {
  return {
    apiVersion: ARGO,
    kind: 'ApplicationSet',
    metadata: { name: 'demo', namespace: 'argocd' },
    spec: {
      generators: [{ list: { elements: [{ stage: 'test' }] } }],
      template: {
        metadata: { name: 'demo-{{stage}}', annotations: { 'kargo.akuity.io/authorized-stage': 'demo:{{stage}}', ...annotations } },
        spec: {
          project: 'default',
          source: { repoURL: 'https://github.com/acme/gitops.git', targetRevision: 'stage/{{stage}}', path: '.' },
          destination: { server: 'https://kubernetes.default.svc', namespace: 'demo-{{stage}}' },
        },
      },
      ...spec,
    },
  };
}

function application(authorizedStage: string): any {
  return {
    apiVersion: ARGO,
    kind: 'Application',
    metadata: { name: 'demo-test', namespace: 'argocd', annotations: { 'kargo.akuity.io/authorized-stage': authorizedStage } },
    spec: {
      project: 'default',
      source: { repoURL: 'https://github.com/acme/gitops.git', targetRevision: 'stage/test', path: '.' },
      destination: { server: 'https://kubernetes.default.svc', namespace: 'demo-test' },
    },
  };
}

function clusterSecret(config: unknown): any {
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    type: 'Opaque',
    metadata: { name: 'cluster-eu-1', namespace: 'argocd', labels: { 'argocd.argoproj.io/secret-type': 'cluster' } },
    stringData: { name: 'eu-1', server: 'https://10.0.0.1', config: JSON.stringify(config) },
  };
}

describe('ManifestValidator', () => {
  test('validates objects synthesized by cdk8s', () => {
    const chart = new Chart(Testing.app(), 'demo');
    new Project(chart, 'project', { metadata: { name: NS } });
    new Warehouse(chart, 'warehouse', {
      metadata: { name: 'demo', namespace: NS },
      spec: { interval: '5m0s', subscriptions: [{ image: { repoURL: 'ghcr.io/acme/api', constraint: '^1.0.0' } }] as any },
    });
    new Stage(chart, 'stage', {
      metadata: { name: 'test', namespace: NS },
      spec: { requestedFreight: [{ origin: { kind: 'Warehouse' as any, name: 'demo' }, sources: { direct: true } }] },
    });
    expectClean(...Testing.synth(chart));
  });

  describe('crd structure', () => {
    test('fails if a stage has a field the crd does not declare', () => {
      expect(linesOf(stage({ autoPromotionEnabled: true }))).toEqual(['/spec/autoPromotionEnabled: unknown field "autoPromotionEnabled"']);
    });

    test('fails if a project has a spec (removed in kargo v1.7)', () => {
      expect(linesOf(project({ spec: { promotionPolicies: [] } }))).toEqual(['/spec: unknown field "spec"']);
    });

    test('fails if requestedFreight is missing', () => {
      const s = stage();
      delete s.spec.requestedFreight;
      expect(linesOf(s)).toEqual(['/spec/requestedFreight: missing required field "requestedFreight"']);
    });

    test('fails if an enum value is not allowed', () => {
      const s = stage({ requestedFreight: [{ origin: { kind: 'Warehouse', name: 'demo' }, sources: { stages: ['dev'], availabilityStrategy: 'Sometimes' } }] });
      expect(linesOf(s)).toEqual(['/spec/requestedFreight/0/sources/availabilityStrategy: "Sometimes" is not one of "All", "OneOf", ""']);
    });

    test('fails if requiredSoakTime does not match the duration pattern', () => {
      const s = stage({ requestedFreight: [{ origin: { kind: 'Warehouse', name: 'demo' }, sources: { stages: ['dev'], requiredSoakTime: '1 hour' } }] });
      expect(linesOf(s)).toEqual(['/spec/requestedFreight/0/sources/requiredSoakTime: "1 hour" does not match pattern ^([0-9]+(\\.[0-9]+)?(s|m|h))+$']);
      const ok = stage({ requestedFreight: [{ origin: { kind: 'Warehouse', name: 'demo' }, sources: { stages: ['dev'], requiredSoakTime: '1h30m' } }] });
      expectClean(ok);
    });

    test('fails if an int-or-string or typed field has the wrong type', () => {
      const s = stageWithSteps([{ uses: 'git-clear', config: { path: './out' }, retry: { errorThreshold: 'three' } }]);
      expect(linesOf(s)).toEqual(['/spec/promotionTemplate/spec/steps/0/retry/errorThreshold: "three" must be integer']);
    });

    test('fails if an object carries status', () => {
      expect(linesOf(project({ status: { conditions: [] } }))).toEqual(['/status: status must not be set in a manifest (controllers write it)']);
    });

    test('reports a cel rule: a stage step with both uses and task', () => {
      const s = stageWithSteps([{ uses: 'git-clear', task: { name: 'promote' }, config: { path: './out' } }]);
      expect(linesOf(s)).toContain('/spec/promotionTemplate/spec/steps/0: PromotionTemplate step must have exactly one of uses or task set');
    });

    test('reports a cel rule: a task step with retry', () => {
      const s = stageWithSteps([{ task: { name: 'promote' }, retry: { timeout: '10m' } }]);
      expect(linesOf(s)).toEqual(['/spec/promotionTemplate/spec/steps/0: PromotionTemplate step referencing a task cannot set retry']);
    });

    test('reports a cel rule: a promotion policy with both stage and stageSelector', () => {
      const pc = projectConfig({ promotionPolicies: [{ stage: 'test', stageSelector: { name: 'test' }, autoPromotionEnabled: true }] });
      expect(linesOf(pc)).toEqual(['/spec/promotionPolicies/0: PromotionPolicy must have exactly one of stage or stageSelector set']);
      expectClean(projectConfig({ promotionPolicies: [{ stageSelector: { name: 'test' }, autoPromotionEnabled: true }] }));
    });

    test('reports a cel rule on list items: autoRollback.onPromotion values', () => {
      const pc = projectConfig({ promotionPolicies: [{ stageSelector: { name: 'prod' }, autoRollback: { onPromotion: ['Failed', 'Broken'] } }] });
      expect(linesOf(pc)).toEqual(['/spec/promotionPolicies/0/autoRollback/onPromotion: onPromotion[1] must be Failed or Errored']);
    });
  });

  describe('metadata', () => {
    test('fails if a label value is longer than 63 characters', () => {
      const p = project({ metadata: { name: NS, labels: { 'acme.io/team': 'x'.repeat(64) } } });
      expect(linesOf(p)).toEqual([`/metadata/labels/acme.io~1team: label value "${'x'.repeat(64)}" is longer than 63 characters`]);
    });

    test('fails if a label key is not a qualified name', () => {
      const p = project({ metadata: { name: NS, labels: { 'Acme.io/team/x': 'a', '-bad': 'b' } } });
      expect(linesOf(p)).toEqual([
        '/metadata/labels/-bad: invalid label key: "-bad" is not a qualified name (alphanumerics, \'-\', \'_\' and \'.\', starting and ending alphanumeric, optional dns prefix)',
        '/metadata/labels/Acme.io~1team~1x: invalid label key: "Acme.io/team/x" is not a qualified name (at most one \'/\')',
      ]);
    });

    test('fails if a project name is not a dns label (it becomes a namespace)', () => {
      expect(linesOf(project({ metadata: { name: 'demo.app' } }))).toEqual([
        '/metadata/name: invalid name: "demo.app" is not a dns-1123 label (lowercase alphanumerics and \'-\', starting and ending alphanumeric)',
      ]);
      expectClean(stage({}, 'test.eu-1'));
    });

    test('fails if the namespace is missing on a namespaced kind or set on a cluster-scoped one', () => {
      const s = stage();
      delete s.metadata.namespace;
      expect(linesOf(s)).toEqual(['/metadata/namespace: metadata.namespace is required for a namespaced kind']);
      expect(linesOf(project({ metadata: { name: NS, namespace: NS } }))).toEqual([
        '/metadata/namespace: metadata.namespace must not be set on a cluster-scoped kind, got "demo"',
      ]);
    });

    test('fails if metadata has a missing name, server-managed fields or a non-string annotation', () => {
      expect(linesOf(project({ metadata: { uid: 'abc', annotations: { 'acme.io/n': 1 } } }))).toEqual([
        '/metadata/annotations/acme.io~1n: annotation value must be a string, got 1',
        '/metadata/name: metadata.name is required',
        '/metadata/uid: unknown or server-managed metadata field "uid"',
      ]);
    });
  });

  describe('promotion steps', () => {
    test('fails if a step name has no pinned schema', () => {
      expect(linesOf(promotionTask([{ uses: 'wait-for-pr', config: {} }]))).toEqual([
        '/spec/steps/0/uses: unknown promotion step "wait-for-pr" (no wait-for-pr-config.json among the pinned kargo step schemas)',
      ]);
    });

    test('fails if a step config has an unknown key', () => {
      expect(linesOf(promotionTask([{ uses: 'git-push', config: { path: './out', repoURL: 'https://github.com/acme/gitops.git' } }]))).toEqual([
        '/spec/steps/0/config/repoURL: unknown field "repoURL"',
      ]);
    });

    test('fails if a step config misses a required key', () => {
      expect(linesOf(promotionTask([{ uses: 'git-commit', config: { path: './out' } }]))).toEqual([
        '/spec/steps/0/config/message: missing required field "message"',
      ]);
      expect(linesOf(promotionTask([{ uses: 'git-clear' }]))).toEqual(['/spec/steps/0/config/path: missing required field "path"']);
    });

    test('accepts expressions where the schema wants another type, but still checks the keys around them', () => {
      const waitForPr = (config: Record<string, unknown>) => promotionTask([{ uses: 'git-wait-for-pr', as: 'wait', config }]);
      expectClean(waitForPr({ repoURL: '${{ vars.repoURL }}', prNumber: "${{ outputs['open-pr'].pr.id }}" }));
      expectClean(waitForPr({ repoURL: 'https://github.com/acme/gitops.git', prNumber: '${% outputs.pr.id %}' }));
      expect(linesOf(waitForPr({ repoURL: 'https://github.com/acme/gitops.git', prNumber: 'seven' }))).toEqual([
        '/spec/steps/0/config/prNumber: "seven" must be integer',
      ]);
      expect(linesOf(waitForPr({ repoURL: '${{ vars.repoURL }}', prNumber: '${{ 1 }}', pr: '${{ 1 }}' }))).toEqual([
        '/spec/steps/0/config/pr: unknown field "pr"',
      ]);
      expect(linesOf(waitForPr({ prNumber: '${{ 1 }}' }))).toEqual(['/spec/steps/0/config/repoURL: missing required field "repoURL"']);
    });

    test('folds oneOf failures into one line naming the closest alternative', () => {
      const issues = linesOf(promotionTask([{ uses: 'git-push', config: { path: './out', targetBranch: 'main', tag: 'v1' } }]));
      expect(issues).toHaveLength(1);
      expect(issues[0]).toMatch(/^\/spec\/steps\/0\/config: matches none of the 4 alternatives \(oneOf\); closest alternative #\d fails with: \/(tag|targetBranch): /);
      expectClean(promotionTask([{ uses: 'git-push', config: { path: './out', generateTargetBranch: '${{ vars.pr == "true" }}' } }]));
    });

    test('resolves references between step schemas (argocd-update selector from argocd-common.json)', () => {
      const update = (app: Record<string, unknown>) => promotionTask([{ uses: 'argocd-update', config: { apps: [app] } }]);
      expectClean(update({ selector: { matchLabels: { 'acme.io/app': 'demo' } }, namespace: 'argocd' }));
      expect(linesOf(update({ selector: { matchLabels: {} } }))).toEqual([
        '/spec/steps/0/config/apps/0/selector: matches none of the 2 alternatives (anyOf); closest alternative #0 fails with: /matchLabels: {} must not have fewer than 1 properties',
      ]);
    });

    test('fails if a step alias is reserved', () => {
      expect(linesOf(promotionTask([{ uses: 'git-clear', as: 'step-1', config: { path: './out' } }]))).toEqual([
        '/spec/steps/0/as: step alias "step-1" is reserved (matches ^(step|task)-\\d+$)',
      ]);
    });

    test('fails if step aliases repeat', () => {
      const steps = [
        { uses: 'git-clear', as: 'clear', config: { path: './out' } },
        { uses: 'git-clear', as: 'clear', config: { path: './src' } },
      ];
      expect(linesOf(stageWithSteps(steps))).toEqual(['/spec/promotionTemplate/spec/steps/1/as: duplicate step alias "clear" (already used by step 0)']);
    });

    test('fails if a task step sets config or if', () => {
      const s = stageWithSteps([{ task: { name: 'promote' }, as: 'promo', config: { a: 1 }, if: '${{ success() }}' }]);
      expect(linesOf(s)).toEqual([
        '/spec/promotionTemplate/spec/steps/0/config: a step that references a task must not set "config"',
        '/spec/promotionTemplate/spec/steps/0/if: a step that references a task must not set "if"',
      ]);
    });

    test('checks cluster promotion tasks like promotion tasks', () => {
      const task = { ...promotionTask([{ uses: 'fail', config: { message: 1 } }]), kind: 'ClusterPromotionTask', metadata: { name: 'shared' } };
      expect(linesOf(task)).toEqual(['/spec/steps/0/config/message: 1 must be string']);
    });
  });

  describe('warehouse subscriptions', () => {
    test('accepts image, git and chart subscriptions', () => {
      expectClean(warehouse([
        { image: { repoURL: 'ghcr.io/acme/api', imageSelectionStrategy: 'SemVer', constraint: '^2.0.0', discoveryLimit: 10 } },
        { git: { repoURL: 'https://github.com/acme/deploy.git', branch: 'main', includePaths: ['charts/api'] } },
        { chart: { repoURL: 'oci://ghcr.io/acme/charts/api', semverConstraint: '^1.0.0' } },
        { chart: { repoURL: 'https://charts.acme.io', name: 'api' } },
        { chart: { repoURL: 'https://charts.acme.io', name: 'worker' } },
      ]));
    });

    test('fails if an image subscription has a removed or unknown field', () => {
      expect(linesOf(warehouse([{ image: { repoURL: 'ghcr.io/acme/api', semverConstraint: '^1.0.0' } }]))).toEqual([
        '/spec/subscriptions/0/image/semverConstraint: unknown field "semverConstraint"',
      ]);
    });

    test('fails if an image subscription uses allowTags, which breaks discovery since v1.11', () => {
      expect(linesOf(warehouse([{ image: { repoURL: 'ghcr.io/acme/api', allowTags: '^v1' } }]))).toEqual([
        '/spec/subscriptions/0/image/allowTags: allowTags "^v1" makes artifact discovery fail since kargo v1.11; use allowTagsRegexes',
      ]);
    });

    test('fails if a subscription field has the wrong format', () => {
      expect(linesOf(warehouse([{ git: { repoURL: 'https://github.com/acme/deploy.git', since: 'yesterday' } }]))).toEqual([
        '/spec/subscriptions/0/git/since: "yesterday" is not a valid date-time',
      ]);
      expectClean(warehouse([{ git: { repoURL: 'https://github.com/acme/deploy.git', since: '2026-01-01T00:00:00Z' } }]));
    });

    test('fails if an image repoURL carries a tag', () => {
      expect(linesOf(warehouse([{ image: { repoURL: 'ghcr.io/acme/api:1.0' } }]))[0]).toMatch(/^\/spec\/subscriptions\/0\/image\/repoURL: "ghcr.io\/acme\/api:1.0" does not match pattern/);
    });

    test('fails if an oci:// chart subscription has a name, or an http one has none', () => {
      expect(linesOf(warehouse([{ chart: { repoURL: 'oci://ghcr.io/acme/charts/api', name: 'api' } }]))).toEqual([
        '/spec/subscriptions/0/chart/name: name must be empty for an oci:// repository (the url names the chart), got "api" for "oci://ghcr.io/acme/charts/api"',
      ]);
      expect(linesOf(warehouse([{ chart: { repoURL: 'https://charts.acme.io' } }]))).toEqual([
        '/spec/subscriptions/0/chart/name: name is required for a classic http(s) chart repository "https://charts.acme.io"',
      ]);
    });

    test('fails if a subscription has two or no artifact kinds', () => {
      expect(linesOf(warehouse([{ image: { repoURL: 'ghcr.io/acme/api' }, git: { repoURL: 'https://github.com/acme/api.git' } }, {}]))).toEqual([
        '/spec/subscriptions/0: subscription must set exactly one of image, git, chart, subscription, found image, git',
        '/spec/subscriptions/1: subscription must set exactly one of image, git, chart, subscription, found none',
      ]);
    });

    test('fails if two subscriptions use the same repository', () => {
      expect(linesOf(warehouse([
        { git: { repoURL: 'https://github.com/acme/deploy.git' } },
        { git: { repoURL: 'https://github.com/acme/deploy' } },
      ]))).toEqual(['/spec/subscriptions/1: duplicate git subscription to "https://github.com/acme/deploy" (also subscribed at /spec/subscriptions/0)']);
    });
  });

  describe('kargo and argo cd rules', () => {
    test('fails if a projectconfig name differs from its namespace', () => {
      expect(linesOf(projectConfig({}, 'other'))).toEqual(['/metadata/name: projectconfig name "other" must equal its namespace (the project) "demo"']);
    });

    test('fails if two promotion policies name the same stage', () => {
      const pc = projectConfig({ promotionPolicies: [{ stageSelector: { name: 'test' } }, { stage: 'test', autoPromotionEnabled: true }] });
      expect(linesOf(pc)).toEqual(['/spec/promotionPolicies/1/stage: stage "test" already has a promotion policy at /spec/promotionPolicies/0']);
    });

    test('fails if a stage requests one origin twice or misuses MatchUpstream', () => {
      const s = stage({
        requestedFreight: [
          { origin: { kind: 'Warehouse', name: 'demo' }, sources: { direct: true, autoPromotionOptions: { selectionPolicy: 'MatchUpstream' } } },
          { origin: { kind: 'Warehouse', name: 'demo' }, sources: { stages: ['dev'] } },
        ],
      });
      expect(linesOf(s)).toEqual([
        '/spec/requestedFreight/0/sources/autoPromotionOptions/selectionPolicy: selectionPolicy MatchUpstream needs exactly one upstream stage and no direct source, got stages [] and direct: true',
        '/spec/requestedFreight/1/origin: origin Warehouse/demo is already requested at /spec/requestedFreight/0',
      ]);
    });

    test('fails if authorized-stage uses a wildcard', () => {
      expect(linesOf(application('demo:*'))).toEqual([
        '/metadata/annotations/kargo.akuity.io~1authorized-stage: authorized-stage entry "demo:*" contains "*": wildcards are not supported, list every <project>:<stage>',
      ]);
      expect(linesOf(applicationSet({}, { 'kargo.akuity.io/authorized-stage': '*:{{stage}}' }))).toEqual([
        '/spec/template/metadata/annotations/kargo.akuity.io~1authorized-stage: authorized-stage entry "*:{{stage}}" contains "*": wildcards are not supported, list every <project>:<stage>',
      ]);
      const generatorTemplate = { metadata: { annotations: { 'kargo.akuity.io/authorized-stage': 'demo:prod-*' } }, spec: { project: 'default', destination: {} } };
      expect(linesOf(applicationSet({ generators: [{ list: { elements: [{ stage: 'prod-eu' }], template: generatorTemplate } }] }))).toEqual([
        '/spec/generators/0/list/template/metadata/annotations/kargo.akuity.io~1authorized-stage: authorized-stage entry "demo:prod-*" contains "*": wildcards are not supported, list every <project>:<stage>',
      ]);
    });

    test('fails if a generator gives a wholly templated authorized-stage a bad value, or none', () => {
      const annotations = { 'kargo.akuity.io/authorized-stage': '{{ .values.authorizedStage }}' };
      const clusters = (values?: Record<string, string>) => ({ clusters: { selector: { matchLabels: { env: 'dev' } }, ...(values ? { values } : {}) } });
      expectClean(applicationSet({ generators: [clusters({ authorizedStage: 'demo:test' }), clusters({ authorizedStage: 'demo:prod' })] }, annotations));
      expect(linesOf(applicationSet({ generators: [clusters({ authorizedStage: 'demo:*' }), clusters()] }, annotations))).toEqual([
        '/spec/generators/0/clusters/values/authorizedStage: authorized-stage entry "demo:*" contains "*": wildcards are not supported, list every <project>:<stage>',
        '/spec/generators/1/clusters/values/authorizedStage: the template\'s authorized-stage "{{ .values.authorizedStage }}" needs "values.authorizedStage", which this generator does not give',
      ]);
    });

    test('accepts a comma list of authorized stages and rejects malformed entries', () => {
      expectClean(application('demo:test, demo:test-eu'));
      expect(linesOf(application('demo:test,,demo'))).toEqual([
        '/metadata/annotations/kargo.akuity.io~1authorized-stage: authorized-stage entry "" in "demo:test,,demo" is not <project>:<stage>',
        '/metadata/annotations/kargo.akuity.io~1authorized-stage: authorized-stage entry "demo" in "demo:test,,demo" is not <project>:<stage>',
      ]);
    });

    test('fails if an applicationset generator item holds two generators', () => {
      const appSet = applicationSet({ generators: [{ list: { elements: [] }, clusters: { selector: { matchLabels: { env: 'dev' } } } }] });
      expect(linesOf(appSet)).toEqual(['/spec/generators/0: generator item must have exactly one generator (clusterDecisionResource, clusters, git, list, matrix, merge, plugin, pullRequest, scmProvider), found list, clusters']);
    });

    test('checks nested matrix generators, which the crd leaves untyped', () => {
      const nested = { matrix: { generators: [{ clusters: {} }, { list: { elements: [] }, lists: {} }] } };
      const appSet = applicationSet({ generators: [{ matrix: { generators: [{ git: { repoURL: 'https://github.com/acme/x.git', revision: 'HEAD' } }, nested] } }] });
      expect(linesOf(appSet)).toEqual([
        '/spec/generators/0/matrix/generators/1/matrix/generators/1/lists: unknown field "lists" in a nested generator',
      ]);
    });

    test('warns if an appproject whitelists no namespaced resources', () => {
      const appProject = (spec: Record<string, unknown>) => ({ apiVersion: ARGO, kind: 'AppProject', metadata: { name: 'demo', namespace: 'argocd' }, spec });
      expect(linesOf(appProject({ namespaceResourceWhitelist: [] }))).toEqual([
        '/spec/namespaceResourceWhitelist: warning: an empty namespaceResourceWhitelist ([]) forbids every namespaced resource; omit the field to allow all',
      ]);
      expectClean(appProject({ sourceRepos: ['https://github.com/acme/*'], namespaceResourceWhitelist: [{ group: '*', kind: '*' }] }));
    });
  });

  describe('core kinds', () => {
    test('accepts the built-in kinds the library emits', () => {
      expectClean(
        { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'demo', labels: { 'kargo.akuity.io/project': 'true' } } },
        { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cfg', namespace: NS }, data: { 'values.yaml': 'a: 1' } },
        { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'promoter', namespace: NS } },
        { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'hook', namespace: NS }, type: 'Opaque', data: { repoURL: Buffer.from('https://x').toString('base64') } },
        { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name: 'promoter', namespace: NS }, rules: [{ apiGroups: ['kargo.akuity.io'], resources: ['stages'], verbs: ['promote'] }] },
        {
          apiVersion: 'rbac.authorization.k8s.io/v1',
          kind: 'RoleBinding',
          metadata: { name: 'promoter', namespace: NS },
          roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'promoter' },
          subjects: [{ kind: 'ServiceAccount', name: 'promoter', namespace: NS }, { kind: 'Group', apiGroup: 'rbac.authorization.k8s.io', name: 'team' }],
        },
        { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'system:acme:viewer' }, rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }] },
        {
          apiVersion: 'rbac.authorization.k8s.io/v1',
          kind: 'ClusterRoleBinding',
          metadata: { name: 'acme-viewer' },
          roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'system:acme:viewer' },
          subjects: [{ kind: 'ServiceAccount', name: 'viewer', namespace: NS }],
        },
        {
          apiVersion: 'batch/v1',
          kind: 'Job',
          metadata: { name: 'smoke', namespace: NS },
          spec: { backoffLimit: 0, template: { spec: { restartPolicy: 'Never', containers: [{ name: 'curl', image: 'curlimages/curl:8.8.0', args: ['-f', 'https://x'] }] } } },
        },
      );
    });

    test('fails if a secret has an unknown top-level field or non-base64 data', () => {
      const secret = { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's', namespace: NS }, data: { url: 'not base64!' }, spec: {} };
      expect(linesOf(secret)).toEqual(['/data/url: "not base64!" is not a valid base64 value (format byte)', '/spec: unknown field "spec"']);
    });

    test('fails if a rolebinding has no roleRef or a subject without name', () => {
      const binding = { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'RoleBinding', metadata: { name: 'b', namespace: NS }, subjects: [{ kind: 'ServiceAccount' }] };
      expect(linesOf(binding)).toEqual(['/roleRef: missing required field "roleRef"', '/subjects/0/name: missing required field "name"']);
    });

    test('fails if a job container has an unknown field (schema borrowed from the pinned rollouts crd)', () => {
      const job = {
        apiVersion: 'batch/v1',
        kind: 'Job',
        metadata: { name: 'smoke', namespace: NS },
        spec: { template: { spec: { containers: [{ name: 'c', image: 'busybox', command: ['true'], cmd: 'x' }] } } },
      };
      expect(linesOf(job)).toEqual(['/spec/template/spec/containers/0/cmd: unknown field "cmd"']);
    });

    test('fails if a kind has no pinned schema', () => {
      expect(linesOf({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'x', namespace: NS } })).toEqual([': no pinned schema for apps/v1/Deployment']);
      expect(linesOf({ apiVersion: 'kargo.akuity.io/v1beta1', kind: 'Stage', metadata: { name: 'x', namespace: NS } })).toEqual([
        ': no pinned schema for kargo.akuity.io/v1beta1/Stage (the pinned crd serves kargo.akuity.io/v1alpha1)',
      ]);
      expect(linesOf({ metadata: { name: 'x' } })).toEqual([': object has no apiVersion/kind (apiVersion undefined, kind undefined)']);
    });
  });

  describe('secret material guard', () => {
    test('fails if a cluster secret carries a bearer token inside its config json', () => {
      expect(linesOf(clusterSecret({ bearerToken: 'eyJhbGciOi', tlsClientConfig: { insecure: false, caData: 'LS0tLS1CRUdJTg==' } }))).toEqual([
        '/stringData/config: secret material: stringData.config json has a value at "bearerToken"; use exec/iam-based auth instead of credentials in git',
      ]);
    });

    test('accepts exec-based cluster auth with a public ca certificate', () => {
      expectClean(clusterSecret({
        execProviderConfig: { command: 'argocd-k8s-auth', args: ['gcp'], apiVersion: 'client.authentication.k8s.io/v1beta1' },
        tlsClientConfig: { insecure: false, caData: 'LS0tLS1CRUdJTg==' },
      }));
    });

    test('fails if credentials sit in data (base64) or stringData', () => {
      const secret = {
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: { name: 'repo', namespace: NS, labels: { 'kargo.akuity.io/cred-type': 'git' } },
        data: { config: Buffer.from(JSON.stringify({ tlsClientConfig: { keyData: 'a2V5' } })).toString('base64') },
        stringData: { repoURL: 'https://github.com/acme/deploy.git', username: 'bot', password: '${GITHUB_PAT}', githubAppPrivateKey: '' },
      };
      expect(linesOf(secret)).toEqual([
        '/data/config: secret material: data.config json has a value at "tlsClientConfig.keyData"; use exec/iam-based auth instead of credentials in git',
        '/stringData/password: secret material: stringData.password carries a value; reference an identity (iam role, workload identity, exec plugin) or an external secret instead',
      ]);
    });
  });

  describe('yaml, files and directories', () => {
    test('reports a missing metadata once', () => {
      const app = application('demo:test');
      delete app.metadata;
      expect(linesOf(app)).toEqual(['/metadata: metadata is required']);
    });

    test('reports a document that does not parse and validates the others', () => {
      const text = ['apiVersion: kargo.akuity.io/v1alpha1\nkind: Project\nmetadata: {name: demo}', 'a: [1', '', 'apiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: demo}'].join('\n---\n');
      const issues = validator.validateYaml(text, 'x.yaml');
      expect(formatIssues(issues).split('\n').map((line) => line.split(':')[0])).toEqual([
        'x.yaml - /',
        'x.yaml Pod/demo/p /',
      ]);
      expect(issues.map((i) => i.message.split(':')[0])).toEqual(['yaml document 2 does not parse', 'no pinned schema for v1/Pod']);
    });

    test('validates every yaml file below a directory in path order', () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'testkit-'));
      try {
        fs.mkdirSync(path.join(dir, 'b'));
        fs.writeFileSync(path.join(dir, 'b', 'app.yml'), YAML.stringify(project({ spec: {} })));
        fs.writeFileSync(path.join(dir, 'a.yaml'), YAML.stringify(stage({ bogus: 1 })));
        fs.writeFileSync(path.join(dir, 'notes.txt'), 'not yaml: [');
        const issues = validateManifests(dir);
        expect(formatIssues(issues)).toBe([
          `${path.join(dir, 'a.yaml')} Stage/demo/test /spec/bogus: unknown field "bogus"`,
          `${path.join(dir, 'b', 'app.yml')} Project/demo /spec: unknown field "spec"`,
        ].join('\n'));
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    });

    test('orders issues of one object by path, numerically for list indexes', () => {
      const steps = Array.from({ length: 12 }, (_, i) => ({ uses: 'git-clear', as: `clear-${i}`, config: {} }));
      const paths = issuesOf(promotionTask(steps)).map((i) => i.path);
      expect(paths).toEqual(steps.map((_, i) => `/spec/steps/${i}/config/path`));
    });
  });

  describe('loading', () => {
    test('fails with a helpful message if the crds directory is missing', () => {
      expect(() => ManifestValidator.load({ crdsDir: '/nonexistent/crds' })).toThrow(/crds directory "\/nonexistent\/crds" \(from the crdsDir option\) does not exist/);
    });

    test('needs no argument, environment or working directory: the schemas ship in the package', () => {
      const savedCwd = process.cwd();
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'testkit-cwd-'));
      process.chdir(dir);
      try {
        expect(formatIssues(ManifestValidator.load().validateObjects([project({ spec: {} })]))).toBe('inline Project/demo /spec: unknown field "spec"');
      } finally {
        process.chdir(savedCwd);
        fs.rmSync(dir, { recursive: true, force: true });
      }
    });

    test('validates many objects with one compiled validator', () => {
      const objects = YAML.parseAllDocuments(fs.readFileSync(path.join(__dirname, '..', 'manifests', 'checkout-api.k8s.yaml'), 'utf8')).map((d) => d.toJS());
      expect(objects.length).toBeGreaterThan(10);
      const many = Array.from({ length: 1000 }, (_, i) => objects[i % objects.length]);
      expect(validator.validateObjects(many)).toEqual([]);
    });
  });
});
