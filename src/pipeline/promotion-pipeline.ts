import { Duration } from 'cdk8s';
import { Construct, IConstruct } from 'constructs';
import { Approval } from './approval';
import { DeployFreeze } from './deploy-freeze';
import { FanOut } from './fan-out';
import { checkFreezes } from './freeze-checks';
import { Join } from './join';
import { soakProblems, SoakNode } from './soak-rules';
import { namespacePatternProblem } from './stage-namespace';
import { WaveBudget, Waves } from './waves';
import { ClusterSelector } from '../fleet/cluster-selector';
import { call, constant, field as fieldOf, fieldText, hint, memberCall, num, prop } from '../util/code-hint';
import { toGoDuration } from '../util/duration';
import { describe, Field, ProblemList, reportValue, show, within } from '../util/errors';
import { dns1123LabelProblem } from '../util/names';
import { refuseSecretMaterial } from '../util/secret-material';
import { verificationProblems } from '../verification/render';
import { Verification } from '../verification/verification';

/**
 * A stage of a promotion pipeline.
 */
export interface PipelineStageOptions {
  /** The stage's name (a DNS-1123 label, e.g. `prod`); it names Kargo Stages and release branches. */
  readonly name: string;
  /**
   * The clusters of the fleet that belong to the stage. Without clusters the stage is a Kargo
   * control-flow Stage: it deploys nothing and has no promotion steps; it only joins its upstream
   * stages, soaks, and feeds the stages after it (e.g. one gate before regional stages).
   * @default - none: a control-flow stage
   */
  readonly clusters?: ClusterSelector;
  /**
   * The stages whose verified Freight feeds this one (names of stages added before it).
   * @default - the previous stage; none for the first stage (Freight comes from the Warehouse)
   */
  readonly after?: string[];
  /**
   * How Freight from several upstream stages is accepted.
   * @default Join.all()
   */
  readonly join?: Join;
  /**
   * Splits the stage into parallel sibling Kargo Stages (`<stage>-<branch>`), each promoted,
   * verified and rolled back on its own.
   * @default - one branch
   */
  readonly fanOut?: FanOut;
  /**
   * Who lets Freight into the stage.
   * @default Approval.manual(), Approval.automatic() for a control-flow stage
   */
  readonly approval?: Approval;
  /**
   * How the stage's clusters are split into waves.
   * @default Waves.single()
   */
  readonly waves?: Waves;
  /**
   * How long Freight must have run in the previous wave or stage before it may enter each wave
   * of this stage. It is waited in the verification of the Kargo Stages before each wave (an
   * extra metric that starts this long after their promotion), not with Kargo's
   * `requiredSoakTime`, which Kargo v1.11.2 cannot enforce on joins, waves or gates. So every
   * stage after one upstream stage needs the same soak, and a stage right after a control-flow
   * stage has none (give it to the control-flow stage).
   * @default - no soak time
   */
  readonly soak?: Duration;
  /**
   * Whether the stage serves production traffic; standards apply stricter rules to it.
   * @default - true when every cluster of the stage has a production tier
   */
  readonly production?: boolean;
  /**
   * Checks every app on the pipeline must pass in this stage, before Freight counts as verified.
   * @default - none
   */
  readonly verification?: Verification[];
  /**
   * Limits on the size of this stage's waves, replacing the pipeline's.
   * @default - the pipeline's wave budget
   */
  readonly waveBudget?: WaveBudget;
  /**
   * Deploy freezes of this stage, for every app on the pipeline.
   * @default - none
   */
  readonly freezes?: DeployFreeze[];
  /**
   * The namespace every app on the pipeline is deployed to in this stage, as a pattern with the
   * placeholders `{app}` and `{stage}` (e.g. `'{app}-{stage}'`). Stages in different namespaces
   * may share clusters (e.g. `test` and `uat` as two namespaces of one cluster); two stages that
   * deploy an app to the same namespace must select disjoint clusters.
   * @default - the app's namespace (`PlatformApp` `namespace`)
   */
  readonly namespace?: string;
}

/**
 * A stage of a `PromotionPipeline`.
 *
 * @example
 * const prod: PipelineStage = pipeline.addStage({ name: 'prod', clusters: ClusterSelector.tier(Tier.PROD) });
 */
export class PipelineStage {
  /** The stage's name. */
  public readonly name: string;
  /** Which clusters belong to the stage (none: a control-flow stage). */
  public readonly clusters?: ClusterSelector;
  /** The upstream stages (empty: Freight comes straight from the Warehouse). */
  public readonly after: string[];
  /** How Freight from several upstream stages is accepted. */
  public readonly join: Join;
  /** How the stage splits into parallel branches, if it does. */
  public readonly fanOut?: FanOut;
  /** Who lets Freight into the stage. */
  public readonly approval: Approval;
  /** How the stage's clusters are split into waves. */
  public readonly waves: Waves;
  /** The soak time before each wave, if any. */
  public readonly soak?: Duration;
  /** Whether the stage was declared production (undefined: decided from cluster tiers). */
  public readonly production?: boolean;
  /** Checks every app must pass in this stage. */
  public readonly verification: Verification[];
  /** Limits on the size of this stage's waves, if the stage sets its own. */
  public readonly waveBudget?: WaveBudget;
  /** Deploy freezes of this stage. */
  public readonly freezes: DeployFreeze[];
  /** The namespace pattern of the stage (`{app}`, `{stage}`), if it has its own (else the app's namespace). */
  public readonly namespace?: string;

  constructor(options: PipelineStageOptions, previous?: string) {
    this.name = options.name;
    this.clusters = options.clusters;
    this.after = options.after ? [...options.after] : previous !== undefined ? [previous] : [];
    this.join = options.join ?? Join.all();
    this.fanOut = options.fanOut;
    this.approval = options.approval ?? (options.clusters ? Approval.manual() : Approval.automatic());
    this.waves = options.waves ?? Waves.single();
    this.soak = options.soak;
    this.production = options.production;
    this.verification = [...options.verification ?? []];
    this.waveBudget = options.waveBudget ? { ...options.waveBudget } : undefined;
    this.freezes = [...options.freezes ?? []];
    this.namespace = options.namespace;
  }

  /** Whether the stage is a Kargo control-flow Stage (no clusters, no promotion steps). */
  public get controlFlow(): boolean {
    return this.clusters === undefined;
  }
}

/**
 * Properties for `PromotionPipeline`.
 */
export interface PromotionPipelineProps {
  /**
   * The stages, in promotion order; more can be added with `addStage()`.
   * @default - none
   */
  readonly stages?: PipelineStageOptions[];
  /**
   * Limits on the size of every wave of every stage.
   * @default - no limits
   */
  readonly waveBudget?: WaveBudget;
  /**
   * Deploy freezes for every app on the pipeline, in the stages each freeze names (all when it
   * names none).
   * @default - none
   */
  readonly freezes?: DeployFreeze[];
}

/**
 * An ordered promotion path through the fleet.
 */
export interface IPromotionPipeline extends IConstruct {
  /** The pipeline's name. */
  readonly pipelineName: string;
  /** The stages, in the order they were added (every stage after its upstream stages). */
  readonly stages: PipelineStage[];
  /** Limits on the size of every wave. */
  readonly waveBudget: WaveBudget;
  /** Deploy freezes for every app on the pipeline. */
  readonly freezes: DeployFreeze[];
}

/**
 * The order in which releases move through the fleet, owned by the platform team: stages that
 * each select clusters, say how promotion into them is approved, and split their clusters into
 * waves. Every `PlatformApp` on the pipeline gets its own Kargo promotion track along it.
 *
 * The pipeline synthesizes nothing by itself.
 *
 * @example
 * const pipeline = new PromotionPipeline(app, 'standard', {
 *   stages: [
 *     { name: 'dev', clusters: ClusterSelector.tier(Tier.DEV), approval: Approval.automatic() },
 *     { name: 'prod', clusters: ClusterSelector.tier(Tier.PROD), waves: Waves.byLabel('ring', ['canary', 'broad']),
 *       soak: Duration.hours(1), approval: Approval.pullRequest() },
 *   ],
 * });
 */
export class PromotionPipeline extends Construct implements IPromotionPipeline {
  public readonly pipelineName: string;
  public readonly waveBudget: WaveBudget;
  public readonly freezes: DeployFreeze[];
  private readonly _stages: PipelineStage[] = [];

  constructor(scope: Construct, id: string, props: PromotionPipelineProps = {}) {
    super(scope, id);
    this.pipelineName = id;
    // credentials first, alone: no other check gets to quote one (stages are walked as they are added)
    refuseSecretMaterial(`PromotionPipeline '${id}'`, { ...props, stages: undefined });
    this.waveBudget = { ...props.waveBudget ?? {} };
    this.freezes = [...props.freezes ?? []];
    const problems = new ProblemList(this.subject);
    checkWaveBudget(problems, prop('waveBudget'), this.waveBudget);
    checkFreezes(problems, prop('freezes'), this.freezes);
    // a stage with problems is not added, but the stages after it still follow it
    const refused = new Set<string>();
    let previous: string | undefined;
    for (const stage of props.stages ?? []) {
      this.checkAndAdd(problems, stage, previous, refused);
      previous = stage.name;
    }
    problems.throwIfAny();
    this.node.addValidation({
      validate: () => this._stages.length === 0 ? [describe(fieldOf('pipeline', prop('stages')), [], 'must not be empty', hint`add one with ${memberCall('addStage')}`)] : [],
    });
  }

  /**
   * Adds a stage, by default after the last one (`after` names others). Every problem of the
   * stage is reported in one error.
   */
  public addStage(options: PipelineStageOptions): PipelineStage {
    const problems = new ProblemList(this.subject);
    const stage = this.checkAndAdd(problems, options, this._stages[this._stages.length - 1]?.name, new Set());
    problems.throwIfAny();
    return stage!;
  }

  public get stages(): PipelineStage[] {
    return [...this._stages];
  }

  private get subject(): string {
    return `PromotionPipeline '${this.pipelineName}'`;
  }

  /**
   * Adds every problem of the stage to `problems`, and the stage to the pipeline when it has none.
   * `previous` is the stage before it; `refused` holds the stages of this call that were not
   * added: following one is not another problem.
   */
  private checkAndAdd(problems: ProblemList, options: PipelineStageOptions, previous: string | undefined,
    refused: Set<string>): PipelineStage | undefined {
    // credentials first, alone: no other check gets to quote one
    refuseSecretMaterial(`${this.subject}: stage ${show(options?.name)}`, options);
    const before = problems.size;
    const field = (name: string) => fieldOf('stage', show(options.name), prop(name));
    const nameProblem = dns1123LabelProblem(options.name ?? '');
    problems.check(fieldOf('stage', prop('name')), options.name, nameProblem, 'use a short DNS-1123 label such as "prod"');
    if (nameProblem === undefined && (this._stages.some(s => s.name === options.name) || refused.has(options.name))) {
      problems.check(fieldOf('stage', prop('name')), options.name, 'is already used in this pipeline', 'give every stage a unique name');
    }
    if (options.clusters !== undefined && !(options.clusters instanceof ClusterSelector)) {
      problems.check(field('clusters'), options.clusters, 'must be a ClusterSelector', hint`use ${call('ClusterSelector', 'tier', constant('Tier', 'PROD'))} or similar`);
    }
    checkFreezes(problems, field('freezes'), options.freezes ?? [], options.name);
    const nsProblem = options.namespace === undefined ? undefined : namespacePatternProblem(options.namespace, options.name);
    if (nsProblem) problems.check(field('namespace'), options.namespace, ...nsProblem);
    this.checkGraph(problems, options, refused);
    if (options.waveBudget) checkWaveBudget(problems, field('waveBudget'), options.waveBudget);
    reportValue(problems, field('clusters'), options.clusters);
    reportValue(problems, field('approval'), options.approval);
    reportValue(problems, field('waves'), options.waves);
    reportValue(problems, field('fanOut'), options.fanOut);
    for (const p of verificationProblems(options.verification ?? [])) problems.add(within(`stage ${show(options.name)}`, p));
    const soakIsValid = checkSoakDuration(problems, field('soak'), options.soak);
    if (soakIsValid) {
      const soak = options.soak === undefined ? undefined : toGoDuration(options.soak);
      const upstreams = options.after ?? (previous === undefined ? [] : [previous]);
      const nodes = [...this._stages.map(soakNode), { name: options.name, soak, upstreams, controlFlow: options.clusters === undefined }];
      // the stages added before passed these rules: every problem found is the new stage's
      soakProblems(nodes, () => field('soak')).forEach(p => problems.add(p));
    }
    if (problems.size > before) {
      refused.add(options.name);
      return undefined;
    }
    const stage = new PipelineStage(options, previous);
    this._stages.push(stage);
    return stage;
  }

  /** Upstream stages must exist already (so the graph has no cycles); a control-flow stage only gates. */
  private checkGraph(problems: ProblemList, options: PipelineStageOptions, refused: Set<string>) {
    const field = (name: string) => fieldOf('stage', show(options.name), prop(name));
    for (const up of options.after ?? []) {
      if (!this._stages.some(s => s.name === up) && !refused.has(up)) {
        problems.check(field('after'), up, 'is not a stage added before it',
          `name earlier stages (${this._stages.map(s => show(s.name)).join(', ') || 'none yet'}); add upstream stages first`);
      }
    }
    const dup = (options.after ?? []).find((a, i, all) => all.indexOf(a) !== i);
    if (dup !== undefined) problems.check(field('after'), dup, 'is named twice', 'name each upstream stage once');
    if (options.clusters !== undefined) return;
    // pkg/controller/stages/control_flow_stages.go (Kargo v1.11.2): a Stage without promotion steps
    // is never promoted into; its reconciler marks Freight verified as soon as it is available
    // (verified and soaked upstream), so it cannot deploy, run checks or wait for a person
    const unsupported: Array<[string, unknown]> = [['fanOut', options.fanOut], ['waves', options.waves], ['waveBudget', options.waveBudget],
      ['verification', options.verification?.length ? options.verification : undefined], ['production', options.production], ['namespace', options.namespace]];
    for (const [name, value] of unsupported) {
      if (value !== undefined) {
        problems.check(field(name), fieldText(prop(name)), 'is set on a control-flow stage (a stage without clusters)',
          'give the stage clusters, or move the setting to the stages after it');
      }
    }
    if (options.approval?.gated) {
      problems.check(field('approval'), options.approval.kind, 'is gated on a control-flow stage, which Kargo never promotes into',
        hint`gate the stages after it (their ${prop('approval')}), or give the control-flow stage a soak (waited in the checks of the stages before it)`);
    }
  }
}

/** A stage as the soak rules see it. */
function soakNode(stage: PipelineStage): SoakNode {
  const soak = stage.soak === undefined ? undefined : toGoDuration(stage.soak);
  return { name: stage.name, soak, upstreams: stage.after, controlFlow: stage.controlFlow };
}

/** Whether `soak` is unset or a positive whole number of seconds; adds the problem when not. */
function checkSoakDuration(problems: ProblemList, field: Field, soak: Duration | undefined): boolean {
  if (soak === undefined) return true;
  if (typeof (soak as any)?.toSeconds !== 'function') {
    problems.check(field, soak, 'must be a Duration', hint`use ${call('Duration', 'minutes', num(30))} or ${call('Duration', 'hours', num(1))}`);
    return false;
  }
  const seconds = soak.toSeconds({ integral: false });
  if (!(Number.isInteger(seconds) && seconds > 0)) {
    problems.check(field, `${seconds}s`, 'must be a positive whole number of seconds', hint`use ${call('Duration', 'minutes')} or ${call('Duration', 'hours')}`);
    return false;
  }
  return true;
}

function checkWaveBudget(problems: ProblemList, field: Field, budget: WaveBudget) {
  const { maxClusters, maxPercent } = budget;
  const name = fieldText(field);
  if (maxClusters !== undefined && !(Number.isInteger(maxClusters) && maxClusters >= 1)) {
    problems.check(`${name}.${fieldText(prop('maxClusters'))}`, maxClusters, 'must be a whole number >= 1');
  }
  if (maxPercent !== undefined && !(maxPercent > 0 && maxPercent <= 100)) {
    problems.check(`${name}.${fieldText(prop('maxPercent'))}`, maxPercent, 'must be in (0, 100]');
  }
}
