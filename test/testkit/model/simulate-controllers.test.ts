import * as path from 'path';
import { Testing } from 'cdk8s';
import { describe, expect, test } from 'vitest';
import { defineExamples } from '../../../apps';
import { ApprovalKind } from '../../../src';
import { CONTROLLER_FINDING_CODES, findingCodes, simulateControllers, simulateManifestDirectory } from '../../../src/testkit';
import { CLUSTERS, lines } from '../../support/controller-model';
import { KNOWN_CONTROLLER_PROBLEMS, modelInput, unexpectedFindings } from '../../support/known-controller-problems';
import { directStage, helmTask, pullRequestStage, world } from '../../support/testkit-model-fixtures';

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

});

describe('controller model on manifests/', () => {
  test('finds exactly the known problem kinds of today\'s output', () => {
    const findings = simulateManifestDirectory(path.join(__dirname, '..', '..', '..', 'manifests'));
    expect(findingCodes(findings)).toEqual(KNOWN_CONTROLLER_PROBLEMS);
    expect(findings.filter((f) => f.code === 'cluster-ca-missing')).toHaveLength(0);
    for (const code of findingCodes(findings)) expect(Object.keys(CONTROLLER_FINDING_CODES)).toContain(code);
  });
});

describe('controller model on every example app', () => {
  const app = Testing.app();
  const examples = defineExamples(app);
  const charts = app.charts.map((chart) => ({ id: chart.node.id, objects: chart.toJson() }));
  const findings = simulateControllers(modelInput(charts));

  test('the examples cover every pipeline shape the model must run', () => {
    const stages = examples.apps.flatMap((a) => a.plan.stages);
    expect(new Set(stages.map((s) => s.approval))).toEqual(new Set([ApprovalKind.AUTOMATIC, ApprovalKind.MANUAL, ApprovalKind.PULL_REQUEST]));
    const objects = charts.flatMap((c) => c.objects);
    const kargoStages = objects.filter((o) => o.kind === 'Stage');
    expect(kargoStages.some((s) => s.spec.shard !== undefined)).toBe(true); // own Argo CD
    expect(kargoStages.some((s) => s.spec.shard === undefined)).toBe(true); // central Argo CD
    const uses = new Set(objects.filter((o) => o.kind === 'PromotionTask').flatMap((t) => t.spec.steps.map((s: any) => s.uses)));
    expect([...uses].sort()).toEqual(['helm-template', 'kustomize-build', 'yaml-merge']);
  });

  test('finds only the known problem kinds, on every app', () => {
    expect(unexpectedFindings(findings)).toEqual([]);
    expect(findingCodes(findings)).toEqual(KNOWN_CONTROLLER_PROBLEMS);
  });

  test('every Stage without a known step problem promotes through all four scenarios', () => {
    // a Stage that fails a scenario is reported once, with the scenario and step in the message
    const failed = findings.filter((f) => f.kind === 'Stage' && /^(first|second|promotion|rollback)/.test(f.message));
    // pull-request stages included: their first promotion (empty release repository) and the
    // promotion that changes nothing both succeed
    expect(failed).toEqual([]);
  });
});
