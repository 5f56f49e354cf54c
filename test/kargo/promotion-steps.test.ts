import * as fs from 'fs';
import * as path from 'path';
import { Duration } from 'cdk8s';
import { describe, expect, test } from 'vitest';
import YAML from 'yaml';
import { Approval, Artifact, ClusterSelector, PlatformLabels, PromotionPipeline, Tier, Versioning, Waves } from '../../src';
import { goProblem } from '../../src/util/go-parsers';
import { MetricOutcome } from '../../src/verification';
import { metricConditionProblem } from '../../src/verification/metric-condition';
import { guardedConditions } from '../../src/verification/metric-outcome';
import { define } from '../support/define-app';
import { find, ofKind, synthApp } from '../support/fixtures';

const MANIFESTS = path.join(__dirname, '..', '..', 'manifests');

describe('recovery', () => {
  test('every version a promotion renders comes from the Freight, so promoting older Freight renders the older release', () => {
    const { objects } = define(() => ({ artifacts: [Artifact.image('ghcr.io/acme/api', { versioning: Versioning.semver('^1.0.0') })] }));
    const render = JSON.stringify(find(objects, 'PromotionTask', 'render-cluster'));
    expect(render).toContain('imageFrom(\'ghcr.io/acme/api\').Tag');
    for (const stage of ofKind(objects, 'Stage')) {
      const s = stage.spec.promotionTemplate.spec.steps;
      // the source is checked out at the Freight's commit, never at a branch head
      expect(s[0].config.checkout[0]).toEqual({ commit: '${{ quote(commitFrom(\'https://github.com/acme/api.git\').ID) }}', path: './src' });
      // the release branch is cleared before rendering: each commit is the complete state, so a rollback removes what the newer release added
      const clear = s.findIndex((x: any) => x.uses === 'git-clear');
      const firstRender = s.findIndex((x: any) => x.task);
      expect(clear).toBeGreaterThan(-1);
      expect(clear).toBeLessThan(firstRender);
    }
  });

  test('soak times apply between waves and stages, but a person may promote older Freight at once', () => {
    const { objects } = define(w => ({
      pipeline: new PromotionPipeline(w.app, 'soaked', {
        stages: [
          { name: 'dev', clusters: ClusterSelector.tier(Tier.DEV), approval: Approval.automatic() },
          { name: 'prod', clusters: ClusterSelector.tier(Tier.PROD), waves: Waves.byLabel('ring', ['canary', 'broad']), soak: Duration.hours(2) },
        ],
      }),
    }));
    // waited in the verification of the Stage before each wave (Kargo's requiredSoakTime is never written)
    for (const [stage, upstream] of [['prod-canary', 'dev'], ['prod-broad', 'prod-canary']]) {
      expect(find(objects, 'Stage', stage).spec.requestedFreight[0].sources.requiredSoakTime).toBeUndefined();
      expect(find(objects, 'Stage', stage).metadata.annotations['gitops-platform.io/soak']).toBe('2h');
      expect(find(objects, 'AnalysisTemplate', `${upstream}-verification`).spec.metrics.find((m: any) => m.name === 'soak').initialDelay).toBe('2h');
    }
    // the canary's checks are the soak only: it has none of its own
    expect(find(objects, 'Stage', 'prod-canary').spec.verification.analysisTemplates).toEqual([{ kind: 'AnalysisTemplate', name: 'prod-canary-verification' }]);
    expect(find(objects, 'AnalysisTemplate', 'prod-canary-verification').spec.metrics.map((m: any) => m.name)).toEqual(['soak']);
    // manual stages are not in the ProjectConfig: Kargo never promotes them by itself
    expect(find(objects, 'ProjectConfig', 'api').spec.promotionPolicies.map((p: any) => p.stageSelector.name)).toEqual(['dev']);
  });
});

/** Every string under `value` (a step's `if` and `config`, a var), with its path. */
function stringsOf(value: unknown, at: string, out: Array<[string, string]> = []): Array<[string, string]> {
  if (typeof value === 'string') out.push([at, value]);
  else if (Array.isArray(value)) value.forEach((v, i) => stringsOf(v, `${at}[${i}]`, out));
  else if (value && typeof value === 'object') Object.entries(value).forEach(([k, v]) => stringsOf(v, `${at}.${k}`, out));
  return out;
}

describe('expressions the library writes', () => {
  // The example platform's output: every ${{ }} Kargo evaluates, compiled by expr-lang v1.17.8 as
  // Kargo compiles it (go/parsers kargo-template), and every Rollouts condition as Rollouts does.
  const documents = fs.readdirSync(MANIFESTS).filter(f => f.endsWith('.k8s.yaml'))
    .flatMap(f => YAML.parseAllDocuments(fs.readFileSync(path.join(MANIFESTS, f), 'utf8')).map(d => ({ file: f, object: d.toJSON() })));

  test('every Kargo expression of a Stage or PromotionTask compiles as Kargo compiles it', () => {
    const problems: string[] = [];
    let compiled = 0;
    for (const { file, object } of documents) {
      const steps = object?.kind === 'Stage' ? object.spec?.promotionTemplate?.spec : object?.kind === 'PromotionTask' ? object.spec : undefined;
      const verification = object?.kind === 'Stage' ? object.spec?.verification?.args : undefined;
      for (const [env, root] of [['promotion', steps], ['verification', verification]] as const) {
        for (const [at, text] of stringsOf(root, `${file} ${object?.kind}/${object?.metadata?.name}`)) {
          if (!text.includes('${{') && !text.includes('${%')) continue;
          compiled++;
          const error = goProblem('kargo-template', text, env);
          if (error) problems.push(`${at}: ${error}`);
        }
      }
    }
    expect(problems).toEqual([]);
    expect(compiled).toBeGreaterThan(100);
  });

  test('every metric condition of an AnalysisTemplate compiles as Argo Rollouts compiles it', () => {
    const problems: string[] = [];
    let compiled = 0;
    for (const { file, object } of documents.filter(d => d.object?.kind === 'AnalysisTemplate')) {
      for (const metric of object.spec.metrics) {
        const result = metric.provider.prometheus ? 'vector' : 'any';
        for (const condition of [metric.successCondition, metric.failureCondition].filter(c => c !== undefined)) {
          compiled++;
          const problem = metricConditionProblem(condition, result, {});
          if (problem) problems.push(`${file} ${object.metadata.name} ${metric.name}: ${problem}`);
        }
      }
    }
    expect(problems).toEqual([]);
    expect(compiled).toBeGreaterThan(5);
  });

  test('the guards around a Prometheus condition compile for every pair of outcomes', () => {
    for (const noData of Object.values(MetricOutcome)) {
      for (const nan of Object.values(MetricOutcome)) {
        const c = guardedConditions('(result[0] < 0.05)', { noData, nan });
        for (const condition of [c.successCondition, c.failureCondition].filter(x => x !== undefined)) {
          expect(metricConditionProblem(condition!, 'vector', {})).toBeUndefined();
        }
      }
    }
  });
});

describe('stageSteps and renderTaskSteps', () => {
  test('stage steps: clone, clear, render every cluster of the wave, commit, push, argocd-update', () => {
    const { objects } = synthApp();
    const steps = find(objects, 'Stage', 'prod-canary').spec.promotionTemplate.spec.steps;
    expect(steps.map((s: any) => s.uses ?? `task:${s.task.name}`)).toEqual([
      'git-clone', 'git-clone', 'git-clear', 'task:render-cluster', 'task:render-cluster', 'git-commit', 'git-push', 'argocd-update',
    ]);
    expect(steps.map((s: any) => s.as)).toEqual([
      'clone-source', 'clone-release', 'clear', 'render-aws-prod-cpu-1', 'render-gcp-prod-h100-1', 'commit', 'push', 'sync',
    ]);
    expect(steps[1].config.checkout).toEqual([{ branch: 'rendered/api/prod-canary', create: true, path: './out' }]);
    expect(steps[3].vars).toEqual([
      { name: 'stage', value: 'prod' }, { name: 'cluster', value: 'aws-prod-cpu-1' }, { name: 'region', value: 'us-east-1' },
      { name: 'provider', value: 'aws' }, { name: 'accelerator', value: 'none' }, { name: 'tier', value: 'prod' },
      { name: 'kubeVersion', value: '1.31' },
    ]);
    expect(steps[7].config).toEqual({
      apps: [{
        namespace: 'argocd',
        selector: { matchLabels: { [PlatformLabels.APP]: 'api', [PlatformLabels.PIPELINE_STAGE]: 'prod', [PlatformLabels.STAGE]: 'prod-canary' } },
        sources: [{ repoURL: 'https://github.com/acme/releases.git', desiredRevision: '${{ quote(outputs[\'push\'].commit) }}' }],
      }],
    });
  });

  test('the source and the release repository are cloned once when they are the same repository', () => {
    const { objects } = synthApp(() => ({ releaseRepo: 'https://github.com/acme/api.git' }));
    const steps = find(objects, 'Stage', 'dev').spec.promotionTemplate.spec.steps;
    expect(steps[0]).toMatchObject({ uses: 'git-clone', as: 'clone', config: { repoURL: 'https://github.com/acme/api.git' } });
    expect(steps[0].config.checkout).toHaveLength(2);
    expect(steps[1].uses).toBe('git-clear');
  });

  test('the render task renders one cluster with helm, injecting the image tag from Freight', () => {
    const { objects } = synthApp();
    const task = find(objects, 'PromotionTask', 'render-cluster');
    expect(task.spec.vars.map((v: any) => v.name)).toEqual(['stage', 'cluster', 'region', 'provider', 'accelerator', 'tier', 'kubeVersion']);
    expect(task.spec.steps).toHaveLength(1);
    expect(task.spec.steps[0].uses).toBe('helm-template');
    expect(task.spec.steps[0].config).toMatchObject({
      path: './src/chart',
      outPath: './out/${{ vars.cluster }}/manifests.yaml',
      releaseName: 'api',
      namespace: 'api',
      valuesFiles: ['./src/chart/values-${{ vars.stage }}.yaml'],
    });
    expect(task.spec.steps[0].config.setValues.slice(0, 2)).toEqual([
      { key: 'image.repository', value: 'ghcr.io/acme/api', literal: true },
      { key: 'image.tag', value: '${{ quote(imageFrom(\'ghcr.io/acme/api\').Tag) }}', literal: true },
    ]);
  });
});
