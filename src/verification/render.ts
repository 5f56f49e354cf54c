import { VerificationKind } from './check-options';
import { jobNameProblems } from './job-names';
import { METRIC_OUTCOMES_ANNOTATION } from './metric-outcome';
import { BUILT_IN_ARGS, fillPlaceholders } from './placeholders';
import { SOAK_CHECK_NAME, soakMetric } from './soak-check';
import { Verification } from './verification';
import { argIdentity, VerificationArg } from './verification-arg';
import { clusterVariables, ClusterVariableSource } from '../contracts/cluster-variables';
import { PlatformLabels } from '../contracts/labels';
import { VerificationJobOptions } from '../fleet/verification-jobs';
import { compact, duplicates } from '../util/collections';
import { describe, show, within } from '../util/errors';
import { dns1123SubdomainProblem } from '../util/names';

/** A cluster a Kargo Stage deploys to, as the placeholders of a check see it. @internal */
export type VerificationTarget = ClusterVariableSource;

/** Where a list of checks is rendered: one Kargo Stage (a wave) of one app. @internal */
export interface VerificationContext {
  readonly app: string;
  readonly project: string;
  readonly kargoStage: string;
  readonly pipelineStage: string;
  /** The namespace the app is deployed to in this stage (`{namespace}`). */
  readonly namespace: string;
  readonly clusters: VerificationTarget[];
  /** How the fleet runs verification Jobs on the hub (CA bundle, image registry). */
  readonly jobs?: VerificationJobOptions;
  /**
   * How long the verification waits after the Stage's promotion (Kargo duration): the soak the
   * Stages after it ask for (see `soak-check.ts`).
   * @default - no soak
   */
  readonly soak?: string;
}

/** One AnalysisTemplate to define in the Kargo project namespace. @internal */
export interface RenderedTemplate {
  /** metadata.name */
  readonly name: string;
  /** metadata.labels, so the templates of an app and Stage can be listed */
  readonly labels: Record<string, string>;
  /** metadata.annotations: what each Prometheus metric counts as on no data and NaN */
  readonly annotations?: Record<string, string>;
  /** spec, plain JSON with the CRD's field names */
  readonly spec: any;
}

/** @internal */
export interface RenderedVerification {
  /** AnalysisTemplates to define in the project namespace: metadata name + spec (plain JSON, exact CRD field names) */
  readonly templates: RenderedTemplate[];
  /** the Stage's spec.verification, or undefined when there are no checks */
  readonly stageVerification: any | undefined;
  /**
   * What only shows once the Stage and its clusters are known (template names, metric names
   * that collide); the caller reports them with its own name, like verificationProblems().
   */
  readonly problems: string[];
}

/** How one arg name is passed to the AnalysisRun, and by which check. */
interface ArgUse {
  readonly name: string;
  readonly identity: string;
  /** The Kargo value, or undefined when the template reads a Secret itself. */
  readonly kargoValue?: string;
  readonly check: string;
}

/**
 * The AnalysisTemplates and the `spec.verification` of one Kargo Stage.
 *
 * Kargo merges every template of a Stage into one AnalysisRun, in the project namespace on the
 * hub: args are shared by name and metric names must be unique across templates. So each
 * generated check gets one template (`<kargoStage>-<check>`) holding one metric per cluster
 * (`<check>-<cluster>`, placeholders filled), or a single metric (`<check>`) when it uses no
 * per-cluster placeholder; templates declare the args they substitute and the Stage passes them.
 * Report verificationProblems() first: checks with problems render, but not meaningfully.
 * @internal
 */
export function renderVerification(checks: Verification[], ctx: VerificationContext): RenderedVerification {
  const problems: string[] = [];
  if (checks.length === 0 && ctx.soak === undefined) return { templates: [], stageVerification: undefined, problems };
  const labels = {
    [PlatformLabels.APP]: ctx.app,
    [PlatformLabels.STAGE]: ctx.kargoStage,
    [PlatformLabels.PIPELINE_STAGE]: ctx.pipelineStage,
  };
  const stageValues = { stage: ctx.pipelineStage, namespace: ctx.namespace };
  const templates: RenderedTemplate[] = [];
  const references: Array<{ name: string; kind: string }> = [];
  const metricOwners = new Map<string, string>();
  const guards = new Set<string>();
  for (const check of checks) {
    if (check.kind === VerificationKind.TEMPLATE) {
      references.push({ name: check.name, kind: check._templateKind ?? 'AnalysisTemplate' });
      continue;
    }
    const templateName = `${ctx.kargoStage}-${check.name}`;
    const nameProblem = dns1123SubdomainProblem(templateName);
    if (nameProblem) {
      problems.push(describe(`verification ${show(check.name)} AnalysisTemplate name`, templateName, nameProblem, 'shorten the check name'));
    }
    if (check._perCluster && ctx.clusters.length === 0) {
      problems.push(describe(`verification ${show(check.name)}`, ctx.clusters, `uses per-cluster placeholders but Stage ${show(ctx.kargoStage)} has no clusters`, 'place clusters on the stage or drop the per-cluster placeholders'));
      continue;
    }
    const metrics: any[] = [];
    const targets = check._perCluster ? ctx.clusters : [undefined];
    for (const target of targets) {
      const values: Record<string, string> = target ? { ...stageValues, ...clusterVariables(target) } : stageValues;
      const metricLabels = target ? { ...labels, [PlatformLabels.CLUSTER]: target.name } : { ...labels };
      const rendered = check._renderMetrics(target ? `${check.name}-${target.name}` : check.name, values, metricLabels, ctx.jobs);
      rendered.slice(1).forEach(guard => guards.add(guard.name));
      for (const metric of rendered) {
        const owner = metricOwners.get(metric.name);
        if (owner !== undefined) {
          problems.push(describe(`verification ${show(check.name)} metric name`, metric.name, `is also a metric of ${show(owner)}`,
            'Kargo merges all templates of a Stage into one AnalysisRun, where metric names must be unique: rename one check'));
        }
        metricOwners.set(metric.name, check.name);
        metrics.push(metric);
      }
    }
    const args = check._referencedArgs.map(name => templateArg(name, check._args[name]));
    templates.push({
      name: templateName,
      labels: { ...labels },
      annotations: outcomesAnnotation(check, metrics),
      spec: {
        args: args.length > 0 ? args : undefined,
        metrics,
        dryRun: check._dryRun ? metrics.map(m => ({ metricName: m.name })) : undefined,
      },
    });
    references.push({ name: templateName, kind: 'AnalysisTemplate' });
  }
  if (ctx.soak !== undefined) problems.push(...addSoakTemplate(ctx, ctx.soak, checks, labels, { templates, references }));
  problems.push(...jobMetricNameProblems(templates, guards, metricOwners));
  const generated = new Set(templates.map(t => t.name));
  for (const check of checks) {
    if (check.kind === VerificationKind.TEMPLATE && check._templateKind === 'AnalysisTemplate' && generated.has(check.name)) {
      problems.push(describe('verification template', check.name, `has the name of a template generated for Stage ${show(ctx.kargoStage)}`, 'rename the existing template or the generated check'));
    }
  }
  const { uses } = argUses(checks, stageValues);
  const kargoArgs = [...new Map(uses.filter(u => u.kargoValue !== undefined).map(u => [u.name, u])).values()]
    .sort((a, b) => a.name.localeCompare(b.name))
    .map(u => ({ name: u.name, value: u.kargoValue! }));
  return {
    templates: templates.map(t => compact({ ...t, spec: compact(t.spec) })),
    stageVerification: {
      analysisTemplates: references,
      analysisRunMetadata: { labels: { ...labels } },
      args: kargoArgs.length > 0 ? kargoArgs : undefined,
    },
    problems,
  };
}

/**
 * Adds the template of a Stage's soak (one dry-run metric that starts `soak` after the run) to
 * the Stage's templates and references; returns the problems (a check that takes its name).
 */
function addSoakTemplate(ctx: VerificationContext, soak: string, checks: Verification[], labels: Record<string, string>,
  into: { templates: RenderedTemplate[]; references: Array<{ name: string; kind: string }> }): string[] {
  const name = `${ctx.kargoStage}-${SOAK_CHECK_NAME}`;
  const metrics = [soakMetric(soak, labels, ctx.jobs)];
  into.templates.push({ name, labels: { ...labels }, spec: { metrics, dryRun: [{ metricName: SOAK_CHECK_NAME }] } });
  into.references.push({ name, kind: 'AnalysisTemplate' });
  return checks.some(c => c.name === SOAK_CHECK_NAME)
    ? [describe('verification name', SOAK_CHECK_NAME, `is the name of the metric and template (${show(name)}) `
      + `that wait the soak of ${soak} in Stage ${show(ctx.kargoStage)}`, 'rename the check')]
    : [];
}

/**
 * What is wrong with a list of checks regardless of where they run: each check's own problems
 * (prefixed with its name), names used twice, and args passed with different values by two checks.
 * @internal
 */
export function verificationProblems(checks: Verification[]): string[] {
  const problems: string[] = [];
  for (const check of checks) {
    for (const p of check._problems) problems.push(within(`verification ${show(check.name)}`, p));
  }
  for (const name of duplicates(checks.map(c => c.name))) {
    problems.push(describe('verification name', name, 'is given more than once', `give each check its own name, e.g. Verification.http({ name: '${name}-2', ... })`));
  }
  problems.push(...argUses(checks, {}).conflicts);
  return problems;
}


/**
 * Job metrics (job checks and JSON guards) whose Jobs Kubernetes would refuse or that would share
 * a Job with another job metric of the Stage's AnalysisRun (Kargo merges the Stage's templates
 * into one).
 */
function jobMetricNameProblems(templates: RenderedTemplate[], guards: Set<string>, owners: Map<string, string>): string[] {
  const jobMetrics: any[] = templates.flatMap(t => t.spec.metrics).filter((m: any) => m.provider?.job);
  return jobNameProblems(
    jobMetrics.map(m => ({
      name: m.name,
      count: m.count,
      owner: owners.get(m.name) ?? m.name,
      fix: guards.has(m.name) ? 'shorten the check name, or set requireJson: false' : 'shorten the check name',
    })),
    jobMetrics.map(m => ({ name: m.name, count: m.count ?? 1 })));
}

/**
 * `gitops-platform.io/metric-outcomes`: each Prometheus metric's outcome on no data and on NaN,
 * as JSON with metric names sorted and keys in a fixed order, so the conformance suite can
 * compare Argo Rollouts' real outcome on those answers with the one the library promises.
 */
function outcomesAnnotation(check: Verification, metrics: any[]): Record<string, string> | undefined {
  const outcomes = check._outcomes;
  if (outcomes === undefined) return undefined;
  const names = metrics.filter(m => m.provider?.prometheus).map(m => `${m.name}`).sort();
  const entries = names.map(name => `${JSON.stringify(name)}:${JSON.stringify({ noData: outcomes.noData, nan: outcomes.nan })}`);
  return { [METRIC_OUTCOMES_ANNOTATION]: `{${entries.join(',')}}` };
}

/** The template's declaration of an arg: required from Kargo, or read from a Secret. */
function templateArg(name: string, arg: VerificationArg | undefined): any {
  if (arg?.isSecret) {
    return { name, valueFrom: { secretKeyRef: { name: arg.secretName, key: arg.secretKey } } };
  }
  return { name };
}

/**
 * Every arg the AnalysisRun receives, and the names two checks pass differently: Kargo passes
 * one value per name to every template, so the second would silently get the first's value.
 */
function argUses(checks: Verification[], values: Record<string, string>): { uses: ArgUse[]; conflicts: string[] } {
  const uses: ArgUse[] = [];
  const conflicts: string[] = [];
  const byName = new Map<string, ArgUse>();
  const add = (use: ArgUse) => {
    const first = byName.get(use.name);
    if (first === undefined) {
      byName.set(use.name, use);
      uses.push(use);
    } else if (first.identity !== use.identity) {
      conflicts.push(describe(`args.${use.name}`, [first.identity, use.identity], `is passed with different values by verification ${show(first.check)} and ${show(use.check)}`,
        'the Stage passes one value per name to all its checks: rename the arg in one of them', v => (v as string[]).join(' and ')));
    }
  };
  for (const check of checks) {
    const names = check.kind === VerificationKind.TEMPLATE ? Object.keys(check._args).sort() : check._referencedArgs;
    for (const name of names) {
      const arg = check._args[name];
      if (check.kind !== VerificationKind.TEMPLATE && BUILT_IN_ARGS[name] !== undefined && arg === undefined) {
        add({ name, identity: `value ${show(BUILT_IN_ARGS[name])}`, kargoValue: BUILT_IN_ARGS[name], check: check.name });
      } else if (arg !== undefined) {
        const kargoValue = arg.isSecret ? undefined : fillPlaceholders(arg.kargoValue ?? '', values);
        add({ name, identity: argIdentity(arg), kargoValue, check: check.name });
      }
    }
  }
  return { uses, conflicts };
}
