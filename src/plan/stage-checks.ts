import { PlacedWave } from './app-release';
import { ReleasePlan } from './release-plan';
import { VerificationJobOptions } from '../fleet/verification-jobs';
import { PipelineStage } from '../pipeline/promotion-pipeline';
import { didYouMean } from '../util/closest';
import { field, fieldText, prop } from '../util/code-hint';
import { duplicates } from '../util/collections';
import { describe, ProblemList, show, within } from '../util/errors';
import { renderVerification, RenderedVerification, verificationProblems } from '../verification/render';
import { Verification } from '../verification/verification';

/**
 * The checks of each pipeline stage for one app: the pipeline's, then the app's for every stage,
 * then the app's for that stage. Problems go to `problems`.
 * @internal
 */
export function collectStageChecks(problems: ProblemList, pipelineName: string, stages: PipelineStage[], everyStage: Verification[],
  perStage: Record<string, Verification[]>): Map<string, Verification[]> {
  const byStage = new Map<string, Verification[]>();
  for (const name of Object.keys(perStage)) {
    if (!stages.some(s => s.name === name)) {
      problems.add(describe(field(prop('stageVerification'), 'key'), name, `names no stage of pipeline '${pipelineName}'`,
        didYouMean(name, stages.map(s => s.name))));
    }
  }
  for (const p of verificationProblems(everyStage)) problems.add(within(prop('verification'), p));
  for (const stage of stages) {
    const own = perStage[stage.name] ?? [];
    if (stage.controlFlow) {
      // a control-flow Stage runs no checks: Kargo marks Freight verified there once it is available
      if (own.length > 0) {
        problems.add(describe(field(prop('stageVerification'), 'key'), stage.name, 'names a control-flow stage, which runs no checks',
          'put the checks on the stages before or after it'));
      }
      byStage.set(stage.name, []);
      continue;
    }
    for (const p of verificationProblems(own)) problems.add(within(`${fieldText(prop('stageVerification'))}[${show(stage.name)}]`, p));
    const all = [...stage.verification, ...everyStage, ...own];
    const dup = duplicates(all.map(c => c.name));
    if (dup.length > 0) {
      problems.add(describe(`stage ${show(stage.name)} check names`, dup, 'must be unique (the pipeline\'s and the app\'s checks share them)',
        'give each check a unique name'));
    }
    byStage.set(stage.name, all);
  }
  return byStage;
}

/**
 * The AnalysisTemplates and Stage verification of every Kargo Stage of a plan, by Kargo Stage.
 * Problems go to `problems`.
 * @internal
 */
export function renderStageChecks(problems: ProblemList, plan: ReleasePlan, waves: PlacedWave[], checks: Map<string, Verification[]>,
  jobs?: VerificationJobOptions): Map<string, RenderedVerification> {
  const rendered = new Map<string, RenderedVerification>();
  const templateOwners = new Map<string, string>();
  for (const { stage, wave, clusters } of waves) {
    const r = renderVerification(checks.get(stage.name) ?? [], {
      app: plan.app,
      project: plan.project,
      kargoStage: wave.kargoStage,
      pipelineStage: stage.name,
      namespace: stage.namespace,
      clusters: clusters.map(c => c.variables),
      jobs,
      soak: wave.verificationSoak,
    });
    r.problems.forEach(p => problems.add(within(`stage ${show(wave.kargoStage)} verification`, p)));
    // all templates of an app share the project namespace
    for (const t of r.templates) {
      const owner = templateOwners.get(t.name);
      if (owner) {
        problems.add(describe('AnalysisTemplate name', t.name, `is generated for both stage ${show(owner)} and stage ${show(wave.kargoStage)}`,
          'rename one of the checks'));
      }
      templateOwners.set(t.name, wave.kargoStage);
    }
    rendered.set(wave.kargoStage, r);
  }
  return rendered;
}
