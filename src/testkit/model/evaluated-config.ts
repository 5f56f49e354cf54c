import { KargoJsonSchemas } from '../kargo-json-schemas';
import { shippedSchemaBundle } from '../schema-bundle';

let schemas: KargoJsonSchemas | undefined;

/**
 * Why a step's config, after its expressions are evaluated, does not match the step's JSON
 * Schema, or undefined. Kargo v1.11.2's built-in steps validate the evaluated config before they
 * run (e.g. `pkg/promotion/runner/builtin/helm_template_runner.go` `convert` → `validate`), and
 * evaluation turns a result that reads as a number or boolean into one
 * (`pkg/expressions/json_templates.go` `EvaluateTemplate`): `kubeVersion: ${{ vars.kubeVersion }}`
 * with `1.31` is the number 1.31 there, which a string field refuses.
 */
export function evaluatedConfigProblem(step: string, config: unknown): string | undefined {
  schemas ??= new KargoJsonSchemas(shippedSchemaBundle().kargoSchemas);
  if (!schemas.hasStep(step)) return undefined;
  const findings = schemas.validateStepConfig(step, config, '');
  if (findings.length === 0) return undefined;
  return findings.map((f) => `${f.path || '/'}: ${f.message}`).join('; ');
}
