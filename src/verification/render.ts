import { VerificationKind } from './check-options';
import { jobNameProblems } from './job-names';
import { METRIC_OUTCOMES_ANNOTATION } from './metric-outcome';
import { BUILT_IN_ARGS, fillPlaceholders } from './placeholders';
import { SOAK_CHECK_NAME, soakMetric } from './soak-check';
import { Verification } from './verification';
import { argIdentity, VerificationArg } from './verification-arg';
import { clusterVariables, ClusterVariableSource } from '../contracts/cluster-variables';
import { PlatformLabels } from '../contracts/labels';
import { VERIFICATION_CHECKS_ANNOTATION, verificationTemplateName } from '../contracts/release-names';
import { VerificationJobOptions } from '../fleet/verification-jobs';
import { call, ETC, hint, str, struct } from '../util/code-hint';
import { duplicates } from '../util/collections';
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

/** What the generated checks of one Stage put into its one AnalysisTemplate, in check order. */
interface StageTemplateParts {
  readonly checks: string[];
  readonly metrics: any[];
  readonly args: any[];
  readonly dryRun: Array<{ metricName: string }>;
  /** `gitops-platform.io/metric-outcomes` entries, by metric name. */
  readonly outcomes: Map<string, string>;
}

/**
 * The AnalysisTemplate and the `spec.verification` of one Kargo Stage.
 *
 * Kargo builds one AnalysisRun from every template a Stage references, concatenating their
 * metrics, dry-run and measurement-retention entries and merging their args by name (kargo
 * v1.11.2 pkg/rollouts/analysis_run_builder.go `Build`, `buildSpec`; analysis_template.go
 * `flattenTemplates`, `flattenArgs`, `mergeArgs`): args are shared by name and metric names must
 * be unique across templates. So every generated check of the Stage goes into ONE template
 * (`<kargoStage>-verification`, see `verificationTemplateName`), which makes the same AnalysisRun
 * as a template per check would, with one metric per cluster (`<check>-<cluster>`, placeholders
 * filled), or a single metric (`<check>`) when the check uses no per-cluster placeholder, and the
 * soak's metric last; the template declares the args its metrics substitute, each once (as
 * `flattenArgs` keeps the first declaration), and the Stage passes them. `fromTemplate()` checks
 * stay references of their own. Report verificationProblems() first: checks with problems
 * render, but not meaningfully.
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
  const templateName = verificationTemplateName(ctx.kargoStage);
  const parts: StageTemplateParts = { checks: [], metrics: [], args: [], dryRun: [], outcomes: new Map() };
  const references: Array<{ name: string; kind: string }> = [];
  // the generated template takes the place of the Stage's first generated check among the
  // references: the run's metrics keep their order, except that an existing namespaced template
  // after a generated check now follows all of them and the soak (metrics are measured independently)
  let at: number | undefined;
  const metricOwners = new Map<string, string>();
  const guards = new Set<string>();
  const inputs = metricInputs(ctx, labels);
  for (const check of checks) {
    if (check.kind === VerificationKind.TEMPLATE) {
      references.push({ name: check.name, kind: check._templateKind ?? 'AnalysisTemplate' });
      continue;
    }
    at ??= references.length;
    problems.push(...addCheckMetrics(check, ctx, parts, { owners: metricOwners, guards, inputs }));
  }
  if (ctx.soak !== undefined) problems.push(...addSoakMetric(ctx, ctx.soak, checks, labels, parts));
  problems.push(...jobMetricNameProblems(parts.metrics, guards, metricOwners));
  const templates = parts.metrics.length === 0 ? [] : [stageTemplate(templateName, labels, parts)];
  if (templates.length > 0) {
    const nameProblem = dns1123SubdomainProblem(templateName);
    if (nameProblem) problems.push(describe('verification AnalysisTemplate name', templateName, nameProblem, 'shorten the stage or wave name'));
    references.splice(at ?? references.length, 0, { name: templateName, kind: 'AnalysisTemplate' });
  }
  for (const check of checks) {
    if (templates.length > 0 && check.kind === VerificationKind.TEMPLATE && check._templateKind === 'AnalysisTemplate' && check.name === templateName) {
      problems.push(describe('verification template', check.name, `has the name of the template generated for Stage ${show(ctx.kargoStage)}`, 'rename the existing template'));
    }
  }
  const { uses } = argUses(checks, { stage: ctx.pipelineStage, namespace: ctx.namespace });
  const kargoArgs = [...new Map(uses.filter(u => u.kargoValue !== undefined).map(u => [u.name, u])).values()]
    .sort((a, b) => a.name.localeCompare(b.name))
    .map(u => ({ name: u.name, value: u.kargoValue! }));
  return {
    templates,
    stageVerification: {
      analysisTemplates: references,
      analysisRunMetadata: { labels: { ...labels } },
      args: kargoArgs.length > 0 ? kargoArgs : undefined,
    },
    problems,
  };
}

/**
 * Adds one generated check's metrics (per cluster, or one), its args, dry-run entries and
 * outcomes to the Stage's template; returns the problems only the Stage shows (metric names
 * another check also has, per-cluster placeholders without clusters).
 */
function addCheckMetrics(check: Verification, ctx: VerificationContext, into: StageTemplateParts,
  seen: { owners: Map<string, string>; guards: Set<string>; inputs: (target: VerificationTarget | undefined) => MetricInputs }): string[] {
  if (check._perCluster && ctx.clusters.length === 0) {
    return [describe(`verification ${show(check.name)}`, ctx.clusters, `uses per-cluster placeholders but Stage ${show(ctx.kargoStage)} has no clusters`, 'place clusters on the stage or drop the per-cluster placeholders')];
  }
  const problems: string[] = [];
  const metrics: any[] = [];
  for (const target of check._perCluster ? ctx.clusters : [undefined]) {
    const { values, labels: metricLabels } = seen.inputs(target);
    const rendered = check._renderMetrics(target ? `${check.name}-${target.name}` : check.name, values, metricLabels, ctx.jobs);
    rendered.slice(1).forEach(guard => seen.guards.add(guard.name));
    for (const metric of rendered) {
      const owner = seen.owners.get(metric.name);
      if (owner !== undefined) {
        problems.push(describe(`verification ${show(check.name)} metric name`, metric.name, `is also a metric of ${show(owner)}`,
          'Kargo merges all templates of a Stage into one AnalysisRun, where metric names must be unique: rename one check'));
      }
      seen.owners.set(metric.name, check.name);
      metrics.push(metric);
    }
  }
  into.checks.push(check.name);
  into.metrics.push(...metrics);
  for (const name of check._referencedArgs) {
    if (!into.args.some(a => a.name === name)) into.args.push(templateArg(name, check._args[name]));
  }
  if (check._dryRun) into.dryRun.push(...metrics.map(m => dryRunRule(`${m.name}`)));
  const outcomes = check._outcomes;
  if (outcomes !== undefined) {
    const outcome = JSON.stringify({ noData: outcomes.noData, nan: outcomes.nan });
    for (const m of metrics.filter(x => x.provider?.prometheus)) into.outcomes.set(`${m.name}`, outcome);
  }
  return problems;
}

/** The placeholder values and the labels of a check's metrics on one cluster of the Stage (or on none). */
interface MetricInputs {
  readonly values: Record<string, string>;
  readonly labels: Record<string, string>;
}

/** The inputs of every check's metrics on each cluster of the Stage, made once per cluster (not per check). */
function metricInputs(ctx: VerificationContext, labels: Record<string, string>): (target: VerificationTarget | undefined) => MetricInputs {
  const stageValues = { stage: ctx.pipelineStage, namespace: ctx.namespace };
  const byTarget = new Map<VerificationTarget, MetricInputs>();
  return (target) => {
    if (!target) return { values: stageValues, labels: { ...labels } };
    let found = byTarget.get(target);
    if (!found) {
      // one spread, first, then named members: a second spread takes V8's slow path (about twice
      // as slow, and this runs for every app on every cluster); the values are only looked up
      // by name, so their order does not matter
      const values = { ...clusterVariables(target), stage: stageValues.stage, namespace: stageValues.namespace };
      found = { values, labels: { ...labels, [PlatformLabels.CLUSTER]: target.name } };
      byTarget.set(target, found);
    }
    return found;
  };
}

/**
 * A dry-run rule for exactly one metric. Argo Rollouts v1.9.1 reads `dryRun[].metricName` as a
 * regular expression and matches it unanchored against every metric's name
 * (utils/analysis/helpers.go, `GetDryRunMetrics`: `regexp.MatchString`): the rule `soak` would
 * also make `soak-probe`, and a dry-run check `api` every `api-*` metric, non-blocking.
 * @internal
 */
export function dryRunRule(metricName: string): { metricName: string } {
  return { metricName: `^${metricName.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$` };
}

/**
 * Adds the Stage's soak (one dry-run metric that starts `soak` after the run) to its template;
 * returns the problems (a check that takes its name).
 */
function addSoakMetric(ctx: VerificationContext, soak: string, checks: Verification[], labels: Record<string, string>,
  into: StageTemplateParts): string[] {
  into.checks.push(SOAK_CHECK_NAME);
  into.metrics.push(soakMetric(soak, labels, ctx.jobs));
  into.dryRun.push(dryRunRule(SOAK_CHECK_NAME));
  return checks.some(c => c.name === SOAK_CHECK_NAME)
    ? [describe('verification name', SOAK_CHECK_NAME, `is the name of the metric that waits the soak of ${soak} in Stage ${show(ctx.kargoStage)}`, 'rename the check')]
    : [];
}

/**
 * The Stage's one template. Annotations: the checks it holds, and each Prometheus metric's outcome
 * on no data and on NaN as JSON with metric names sorted and keys in a fixed order, so the
 * conformance suite can compare Argo Rollouts' real outcome on those answers with the one the
 * library promises.
 */
function stageTemplate(name: string, labels: Record<string, string>, parts: StageTemplateParts): RenderedTemplate {
  const outcomes = [...parts.outcomes.keys()].sort().map(metric => `${JSON.stringify(metric)}:${parts.outcomes.get(metric)}`);
  return {
    name,
    labels: { ...labels },
    annotations: {
      [VERIFICATION_CHECKS_ANNOTATION]: parts.checks.join(','),
      ...outcomes.length > 0 ? { [METRIC_OUTCOMES_ANNOTATION]: `{${outcomes.join(',')}}` } : {},
    },
    // not copied: the metrics are this Stage's own objects, and rendering the ApiObject drops
    // the undefined members (cdk8s sanitizes the props)
    spec: {
      ...parts.args.length > 0 ? { args: parts.args } : {},
      metrics: parts.metrics,
      ...parts.dryRun.length > 0 ? { dryRun: parts.dryRun } : {},
    },
  };
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
    const renamed = call('Verification', 'http', struct('HttpVerificationOptions', { name: str(`${name}-2`), url: ETC }));
    problems.push(describe('verification name', name, 'is given more than once', hint`give each check its own name, e.g. ${renamed}`));
  }
  problems.push(...argUses(checks, {}).conflicts);
  return problems;
}


/**
 * Job metrics (job checks, JSON guards and the soak) whose Jobs Kubernetes would refuse or that
 * would share a Job with another job metric of the Stage's AnalysisRun.
 */
function jobMetricNameProblems(metrics: any[], guards: Set<string>, owners: Map<string, string>): string[] {
  const jobMetrics: any[] = metrics.filter((m: any) => m.provider?.job);
  return jobNameProblems(
    jobMetrics.map(m => ({
      name: m.name,
      count: m.count,
      owner: owners.get(m.name) ?? m.name,
      fix: guards.has(m.name) ? 'shorten the check name, or set requireJson: false' : 'shorten the check name',
    })),
    jobMetrics.map(m => ({ name: m.name, count: m.count ?? 1 })));
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
