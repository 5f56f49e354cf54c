import * as path from 'path';
import { Testing } from 'cdk8s';
import { describe, expect, test } from 'vitest';
import { defineExamples } from '../apps';
import { ApprovalKind, ArtifactKind, ImageSelectionStrategy, VerificationKind } from '../src';
import { releaseConsistencyProblems } from './support/argocd-simulation';
import { formatIssues, ManifestValidator } from '../src/testkit';

const validator = ManifestValidator.load();

describe('examples in apps/', () => {
  const app = Testing.app();
  const examples = defineExamples(app);
  const charts = app.charts.map(chart => ({ id: chart.node.id, objects: chart.toJson() }));

  test('synth passes the platform standards', () => {
    expect(examples.standards.review().filter(v => v.severity === 'error')).toEqual([]);
    expect(() => app.synth()).not.toThrow();
  });

  test('every app declares how Kargo writes and every Argo CD reads the private release repository they all use', () => {
    for (const chart of charts.filter(c => examples.apps.some(a => a.appName === c.id))) {
      const secrets = chart.objects.filter((o: any) => o.kind === 'Secret');
      expect(secrets.filter((s: any) => s.metadata.labels?.['kargo.akuity.io/cred-type'] === 'git' && s.stringData?.repoURL === 'https://github.com/acme/releases.git'), chart.id)
        .toHaveLength(1);
      expect(secrets.filter((s: any) => s.metadata.labels?.['argocd.argoproj.io/secret-type'] === 'repository'), chart.id).not.toEqual([]);
    }
  });

  test('every object of every chart is valid against the pinned schemas', () => {
    const issues = charts.flatMap(c => validator.validateObjects(c.objects, c.id));
    expect(formatIssues(issues)).toBe('');
  });

  test('one chart per app, one for the fleet, one per app and cluster with its own Argo CD', () => {
    const ids = charts.map(c => c.id);
    expect(ids.filter(id => !id.includes('--')).sort()).toEqual(['fleet', ...examples.apps.map(a => a.appName)].sort());
    for (const id of ids.filter(i => i.includes('--'))) {
      const [appName, cluster] = id.split('--');
      expect(examples.apps.map(a => a.appName)).toContain(appName);
      expect(examples.fleet.findCluster(cluster)!.argoCd.kind).toBe('per-cluster');
    }
  });

  // what each app and the fleet synthesize to is pinned by manifests/ (determinism.test.ts)
  for (const platformApp of examples.apps) {
    describe(platformApp.appName, () => {
      test('each Kargo Stage updates exactly the Applications of its clusters, in the Argo CD it is routed to', () => {
        expect(releaseConsistencyProblems(platformApp.plan, charts)).toEqual([]);
      });
    });
  }

  test('exercise every capability: waves, gates, check kinds, versioning rules, artifact kinds, sources', () => {
    const stages = examples.apps.flatMap(a => a.plan.stages);
    const kargoStages = charts.flatMap(c => c.objects).filter(o => o.kind === 'Stage');
    // every production wave is its own Kargo Stage with a soak time
    const prodWaves = stages.filter(s => s.production).flatMap(s => s.waves);
    expect(new Set(prodWaves.map(w => w.name)).size).toBeGreaterThan(3);
    for (const w of prodWaves) {
      const project = examples.apps.find(a => a.plan.stages.some(st => st.waves.includes(w)))!.plan.project;
      const stage = kargoStages.find(s => s.metadata.name === w.kargoStage && s.metadata.namespace === project);
      // after a control-flow gate the soak is the gate's; it is written as the library's annotation, never requiredSoakTime
      const sources = stage.spec.requestedFreight[0].sources;
      const gate = kargoStages.find(s => s.metadata.namespace === project && s.metadata.name === sources.stages?.[0] && !s.spec.promotionTemplate);
      expect((gate ?? stage).metadata.annotations['gitops-platform.io/soak']).toMatch(/^\d+h$/);
      expect(sources.requiredSoakTime).toBeUndefined();
    }
    expect(new Set(stages.map(s => s.approval))).toEqual(new Set([ApprovalKind.AUTOMATIC, ApprovalKind.MANUAL, ApprovalKind.PULL_REQUEST]));
    expect(kargoStages.some(s => s.spec.promotionTemplate?.spec.steps.some((x: any) => x.uses === 'git-open-pr'))).toBe(true);

    // every verification check kind appears and is referenced by a Stage
    const kinds = new Set(examples.standard.stages.flatMap(s => s.verification).map(c => c.kind));
    const templates = charts.flatMap(c => c.objects).filter(o => o.kind === 'AnalysisTemplate');
    const providers = new Set(templates.flatMap(t => t.spec.metrics.map((m: any) => Object.keys(m.provider)[0])));
    expect(providers).toEqual(new Set(['web', 'prometheus', 'job']));
    expect(kinds).toContain(VerificationKind.TEMPLATE);
    const referenced = new Set(kargoStages.flatMap(s => (s.spec.verification?.analysisTemplates ?? []).map((t: any) => t.name)));
    for (const t of templates) expect(referenced).toContain(t.metadata.name);
    expect(referenced).toContain('platform-smoke');

    const artifacts = examples.apps.flatMap(a => a.artifacts);
    expect(new Set(artifacts.map(a => a.kind))).toEqual(new Set([ArtifactKind.IMAGE, ArtifactKind.HELM_CHART, ArtifactKind.GIT]));
    const imageSubscriptions = charts.flatMap(c => c.objects).filter(o => o.kind === 'Warehouse').flatMap(w => w.spec.subscriptions).filter(x => x.image);
    expect(new Set(imageSubscriptions.map(x => x.image.imageSelectionStrategy))).toEqual(new Set([
      ImageSelectionStrategy.SEMVER, ImageSelectionStrategy.DIGEST, ImageSelectionStrategy.LEXICAL, ImageSelectionStrategy.NEWEST_BUILD,
    ]));
    const chartUrls = artifacts.filter(a => a.kind === ArtifactKind.HELM_CHART).map(a => a.repoUrl.split(':')[0]);
    expect(new Set(chartUrls)).toEqual(new Set(['https', 'oci']));
    const sources = new Set(charts.flatMap(c => c.objects).filter(o => o.kind === 'PromotionTask').map(t => t.spec.steps.at(-1).uses));
    expect(sources).toEqual(new Set(['helm-template', 'kustomize-build']));
  });

  test('the fleet is fed by Terraform and sharded, and one app reaches only a GPU subset', () => {
    expect(examples.fleet.clusters).toHaveLength(100);
    expect(examples.fleet.reportShards()!.imbalancePercent).toBeLessThan(10);
  });
});

describe('manifests/', () => {
  test('every committed manifest is valid against the pinned schemas', () => {
    const issues = validator.validateDirectory(path.join(__dirname, '..', 'manifests'));
    expect(formatIssues(issues)).toBe('');
  });
});
