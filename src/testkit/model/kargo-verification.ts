import { ControllerFinding, finding } from './controller-finding';
import { ExprFunctions } from './expr';
import { SimulatedFreight, warehouseArtifacts } from './freight';
import { requestedWarehouses } from './kargo-promotion-model';
import { checkJobNames } from './rollouts-job-names';
import { evaluateTemplate } from './template';

/**
 * Kargo v1.11.2 starting a Stage's verification, with no cluster: `pkg/controller/stages/
 * regular_stages.go` (`startVerification`: arguments are evaluated
 * with `ctx.project`, `ctx.stage`, the Stage's `vars` and the Freight functions),
 * `pkg/rollouts/analysis_run_builder.go` (`buildArgs`: "evaluated argument %q value is not a
 * string but %T") and `pkg/rollouts/analysis_template.go` (`flattenTemplates`: a metric name used
 * twice across the templates, conflicting argument values; `mergeArgs`: an argument the
 * templates do not declare is dropped, one left with neither value nor valueFrom is
 * "unresolved"). Arguments are evaluated with two Freight: one whose image tags read as
 * versions (`1.1.0`) and one whose tags read as numbers (`1.10`), the trap `quote()` avoids.
 */
export function checkVerifications(objects: any[]): ControllerFinding[] {
  const out: ControllerFinding[] = [];
  for (const stage of objects.filter((o) => o?.kind === 'Stage' && o.spec?.verification)) {
    const verification = stage.spec.verification;
    const refs: any[] = Array.isArray(verification.analysisTemplates) ? verification.analysisTemplates : [];
    const templates: Array<{ spec: any }> = [];
    let external = false;
    for (const ref of refs) {
      const found = findTemplate(objects, stage.metadata?.namespace, ref);
      // a template that is not among the objects is one the platform installs itself
      // (Verification.fromTemplate): what it declares is unknown, so its arguments are not judged
      if (found) templates.push({ spec: found.spec ?? {} });
      else external = true;
    }
    const flattened = flatten(templates);
    if (typeof flattened === 'string') {
      out.push(finding(stage, '/spec/verification/analysisTemplates', 'verification-templates-conflict',
        `the AnalysisTemplates of the verification cannot be combined into one AnalysisRun (${flattened}): every verification of the Stage errors`));
      continue;
    }
    out.push(...checkJobNames(stage, flattened.metrics));
    out.push(...checkArgs(stage, objects, external ? undefined : flattened.args));
  }
  return out;
}

function findTemplate(objects: any[], namespace: string, ref: any): any {
  const kind = ref?.kind === 'ClusterAnalysisTemplate' ? 'ClusterAnalysisTemplate' : 'AnalysisTemplate';
  return objects.find((o) => o?.kind === kind && o.metadata?.name === ref?.name && (kind === 'ClusterAnalysisTemplate' || o.metadata?.namespace === namespace));
}

/** `flattenTemplates`: one AnalysisRun from every template, or why not. */
function flatten(templates: Array<{ spec: any }>): { args: any[]; metrics: any[] } | string {
  const metrics = new Set<string>();
  const all: any[] = [];
  const args: any[] = [];
  for (const { spec } of templates) {
    for (const metric of spec.metrics ?? []) {
      if (metrics.has(metric?.name)) return `duplicate metric name: ${JSON.stringify(metric?.name)}`;
      metrics.add(metric?.name);
      all.push(metric);
    }
    for (const arg of spec.args ?? []) {
      const existing = args.find((a) => a.name === arg?.name);
      if (!existing) {
        args.push({ ...arg });
      } else if (existing.value !== undefined && arg.value !== undefined && existing.value !== arg.value) {
        return `conflicting values for argument ${JSON.stringify(arg.name)}: ${JSON.stringify(existing.value)} and ${JSON.stringify(arg.value)}`;
      } else if (existing.value === undefined && arg.value !== undefined) {
        existing.value = arg.value;
      }
    }
  }
  return { args, metrics: all };
}

/** `declared`: the arguments of the flattened templates, undefined when a template is not among the objects. */
function checkArgs(stage: any, objects: any[], declared: any[] | undefined): ControllerFinding[] {
  const out: ControllerFinding[] = [];
  const given: any[] = Array.isArray(stage.spec.verification.args) ? stage.spec.verification.args : [];
  const warehouses = requestedWarehouses(stage, objects);
  const artifacts = warehouses.flatMap((w) => warehouseArtifacts(w));
  const name = warehouses.map((w) => w.metadata?.name).join('+');
  const freights = [new SimulatedFreight(name, artifacts, {}, 1), new SimulatedFreight(name, artifacts, {}, 2, true)];
  given.forEach((arg, i) => {
    const at = `/spec/verification/args/${i}`;
    if (declared && !declared.some((d) => d.name === arg?.name)) {
      out.push(finding(stage, at, 'verification-arg-undeclared',
        `argument ${JSON.stringify(arg?.name)} is declared by none of the verification's AnalysisTemplates (${declared.map((d) => d.name).join(', ') || 'none'}): Kargo drops it and the checks never see it`));
      return;
    }
    if (typeof arg?.value !== 'string' || arg.value === '') return;
    for (const freight of freights) {
      const problem = evaluationProblem(stage, arg, freight.functions());
      if (problem) {
        out.push(finding(stage, `${at}/value`, 'verification-arg-not-string', `${problem}: the verification errors before any check runs`));
        break;
      }
    }
  });
  for (const d of declared ?? []) {
    const value = given.find((a) => a?.name === d.name && typeof a.value === 'string' && a.value !== '');
    if (!value && d.value === undefined && d.valueFrom === undefined) {
      out.push(finding(stage, '/spec/verification/args', 'verification-arg-unresolved',
        `unresolved argument ${JSON.stringify(d.name)}: neither the Stage nor its AnalysisTemplates give it a value or valueFrom, so the verification errors`));
    }
  }
  return out;
}

function evaluationProblem(stage: any, arg: any, fns: ExprFunctions): string | undefined {
  const env: Record<string, unknown> = { ctx: { project: stage.metadata?.namespace, stage: stage.metadata?.name } };
  try {
    const vars: Record<string, unknown> = {};
    for (const v of stage.spec?.vars ?? []) vars[v.name] = evaluateTemplate(String(v.value ?? ''), { ...env, vars }, fns);
    const value = evaluateTemplate(arg.value, { ...env, vars }, fns);
    if (typeof value !== 'string') {
      return `evaluated argument ${JSON.stringify(arg.name)} value is not a string but ${goType(value)} (${JSON.stringify(value)}); wrap the expression in quote()`;
    }
    return undefined;
  } catch (e) {
    return `evaluate argument ${JSON.stringify(arg.name)}: ${(e as Error).message}`;
  }
}

function goType(value: unknown): string {
  if (typeof value === 'number') return 'float64';
  if (typeof value === 'boolean') return 'bool';
  if (Array.isArray(value)) return '[]interface {}';
  if (value === null) return '<nil>';
  return 'map[string]interface {}';
}
