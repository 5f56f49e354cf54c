import { Testing } from 'cdk8s';
import { describe, expect, test } from 'vitest';
import { KNOWN_CONTROLLER_PROBLEMS, modelInput, unexpectedFindings } from './known-controller-problems';
import { defineExamples } from '../apps';
import { ApprovalKind } from '../src';
import { findingCodes, simulateControllers } from '../src/testkit';

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
