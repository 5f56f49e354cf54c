import * as fs from 'fs';
import * as path from 'path';
import { describe, expect, test } from 'vitest';
import * as YAML from 'yaml';
import { findingCodes, setSource, simulateControllers } from '../src/testkit';

/*
 * The emitter changes recommended for issue 8 part 1, applied by hand to today's manifests/: with
 * all of them the controller model finds nothing. Each patch is one recommendation; the emitters
 * should produce the same fields.
 */

const MANIFESTS = path.join(__dirname, '..', 'manifests');
const CA = 'LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCg==';

function load(): any[] {
  return fs.readdirSync(MANIFESTS).filter((f) => f.endsWith('.yaml')).sort().flatMap((f) =>
    YAML.parseAllDocuments(fs.readFileSync(path.join(MANIFESTS, f), 'utf8')).map((d) => d.toJS()).filter((o) => o).map((o) => {
      setSource(o, f);
      return o;
    }));
}

const stepsOf = (o: any): any[] => (o.kind === 'Stage' ? (o.spec.promotionTemplate?.spec.steps ?? []) : o.spec.steps);

/** 1. Every AppProject permits the Namespace its Applications create (name-scoped). */
function permitNamespace(o: any): void {
  if (o.kind !== 'AppProject') return;
  const namespaces = [...new Set<string>(o.spec.destinations.map((d: any) => d.namespace))];
  o.spec.clusterResourceWhitelist = namespaces.map((name) => ({ group: '', kind: 'Namespace', name }));
}

/** 2. Every cluster Secret carries its cluster's CA. */
function addCa(o: any): void {
  if (o.kind !== 'Secret' || !o.stringData?.config) return;
  const config = JSON.parse(o.stringData.config);
  config.tlsClientConfig = { ...config.tlsClientConfig, caData: config.tlsClientConfig?.caData ?? CA };
  o.stringData.config = JSON.stringify(config);
}

/** 3-5. Pull-request guard and fallback, OCI dependency repository, argocd-update timeout. */
function fixStageSteps(o: any): void {
  if (o.kind !== 'Stage') return;
  for (const step of stepsOf(o)) {
    if (step.uses === 'git-wait-for-pr') step.if = "${{ status('open-pr') != 'Skipped' }}";
    if (step.uses === 'argocd-update') {
      step.retry = { timeout: '30m' };
      for (const app of step.config.apps) {
        for (const src of app.sources) {
          if (String(src.desiredRevision).includes("outputs['wait-for-pr']")) src.desiredRevision = "${{ outputs['wait-for-pr']?.commit ?? outputs['push'].commit }}";
        }
      }
    }
    if (step.uses === 'helm-update-chart') {
      for (const chart of step.config.charts) {
        if (chart.repository.startsWith('oci://')) chart.repository = chart.repository.slice(0, chart.repository.lastIndexOf('/'));
      }
    }
  }
}

/** 6-7. helm-template with the cluster's capabilities; optional values files merged first. */
function fixRender(o: any): void {
  if (o.kind !== 'PromotionTask') return;
  const steps = stepsOf(o);
  const template = steps.find((s: any) => s.uses === 'helm-template');
  if (!template) return;
  Object.assign(template.config, { kubeVersion: '${{ vars.kubeVersion }}', apiVersions: ['monitoring.coreos.com/v1'], includeCRDs: true });
  o.spec.vars.push({ name: 'kubeVersion', value: '1.30.0' });
  if (template.config.ignoreMissingValueFiles) {
    delete template.config.ignoreMissingValueFiles;
    const [required, ...optional] = template.config.valuesFiles;
    const merged = './work/${{ vars.cluster }}/optional-values.yaml';
    steps.unshift({ uses: 'yaml-merge', as: 'optional-values', config: { inFiles: optional, outFile: merged, ignoreMissingFiles: true } });
    template.config.valuesFiles = [required, merged];
  }
}

/** 8. A subscribed git repository is checked out and read by the render (model-server's config). */
function useEveryGitArtifact(objects: any[]): void {
  const repo = 'https://github.com/acme/model-config.git';
  for (const o of objects.filter((x) => x.kind === 'Stage' && x.metadata.namespace === 'model-server')) {
    stepsOf(o).splice(1, 0, { uses: 'git-clone', as: 'clone-config', config: { repoURL: repo, checkout: [{ commit: `\${{ commitFrom('${repo}').ID }}`, path: './config' }] } });
  }
  const task = objects.find((x) => x.kind === 'PromotionTask' && x.metadata.namespace === 'model-server');
  stepsOf(task).find((s: any) => s.uses === 'helm-template').config.valuesFiles.push('./config/serving/values.yaml');
}

/** 9. An HTTP check with a condition runs as a Job that fails on a wrong answer. */
function httpChecksAsJobs(o: any): void {
  if (o.kind !== 'AnalysisTemplate') return;
  for (const metric of o.spec.metrics) {
    const web = metric.provider.web;
    if (!web || ['true', undefined].includes(metric.successCondition)) continue;
    metric.provider = { job: { spec: { template: { spec: { containers: [{ name: 'check', image: 'ghcr.io/acme/http-check:1', args: [web.url, web.jsonPath, metric.successCondition] }] } } } } };
    delete metric.successCondition;
  }
}

describe('controller model: the recommended emitter changes', () => {
  test('leave none of the problems of issue 8 in manifests/', () => {
    const objects = load();
    for (const o of objects) {
      permitNamespace(o);
      addCa(o);
      fixStageSteps(o);
      fixRender(o);
      httpChecksAsJobs(o);
    }
    useEveryGitArtifact(objects);
    const findings = simulateControllers(objects);
    expect(findings.map((f) => `${f.code} ${f.source} ${f.kind}/${f.name} ${f.path}: ${f.message}`).slice(0, 5)).toEqual([]);
    expect(findingCodes(findings)).toEqual([]);
  });
});
