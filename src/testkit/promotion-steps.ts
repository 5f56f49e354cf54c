import { Finding, show } from './finding';
import { joinPointer } from './json-pointer';
import { KargoJsonSchemas } from './kargo-json-schemas';
import { isPlainObject } from './object-meta';

// Kargo names unnamed steps `step-<n>` / `task-<n>`; user aliases in that shape would collide.
const RESERVED_ALIAS = /^(step|task)-\d+$/;

/** Where each Kargo kind keeps its promotion steps. */
export const STEP_LISTS: Record<string, string[]> = {
  Stage: ['spec', 'promotionTemplate', 'spec', 'steps'],
  PromotionTask: ['spec', 'steps'],
  ClusterPromotionTask: ['spec', 'steps'],
  Promotion: ['spec', 'steps'],
};

/**
 * Webhook and run-time checks of a promotion step list: every `uses` step has a pinned config
 * schema and its `config` validates against it; aliases are unique and not reserved; steps that
 * reference a task carry no `config` or `if` (tasks are inflated when the Promotion is created,
 * before either could apply). `retry` and `continueOnError` on task steps are rejected by the
 * Stage CRD's own CEL rules, so they are not repeated here.
 */
export function validatePromotionSteps(steps: unknown, basePath: string, schemas: KargoJsonSchemas): Finding[] {
  if (!Array.isArray(steps)) {
    return [];
  }
  const findings: Finding[] = [];
  const aliases = new Map<string, number>();
  steps.forEach((step, index) => {
    const at = joinPointer(basePath, index);
    if (!isPlainObject(step)) {
      return;
    }
    if (typeof step.uses === 'string' && step.uses !== '') {
      if (!schemas.hasStep(step.uses)) {
        findings.push({ path: joinPointer(at, 'uses'), message: `unknown promotion step "${step.uses}" (no ${step.uses}-config.json among the pinned kargo step schemas)` });
      } else {
        findings.push(...schemas.validateStepConfig(step.uses, step.config ?? {}, joinPointer(at, 'config')));
      }
    }
    if (step.task !== undefined) {
      for (const field of ['config', 'if']) {
        if (step[field] !== undefined) {
          findings.push({ path: joinPointer(at, field), message: `a step that references a task must not set "${field}"` });
        }
      }
    }
    if (step.as !== undefined) {
      const alias = step.as;
      if (typeof alias === 'string' && RESERVED_ALIAS.test(alias)) {
        findings.push({ path: joinPointer(at, 'as'), message: `step alias "${alias}" is reserved (matches ^(step|task)-\\d+$)` });
      }
      const first = aliases.get(String(alias));
      if (first !== undefined) {
        findings.push({ path: joinPointer(at, 'as'), message: `duplicate step alias ${show(alias)} (already used by step ${first})` });
      } else {
        aliases.set(String(alias), index);
      }
    }
  });
  return findings;
}
