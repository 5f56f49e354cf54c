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
import { describe, fail, ProblemList, reportValue, show, userError, within } from '../util/errors';
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
    checkWaveBudget(`PromotionPipeline '${id}'`, fieldText(prop('waveBudget')), this.waveBudget);
    this.freezes = [...props.freezes ?? []];
    const freezeProblems = new ProblemList(`PromotionPipeline '${id}'`);
    checkFreezes(freezeProblems, prop('freezes'), this.freezes);
    freezeProblems.throwIfAny();
    for (const stage of props.stages ?? []) {
      this.addStage(stage);
    }
    this.node.addValidation({
      validate: () => this._stages.length === 0 ? [describe(fieldOf('pipeline', prop('stages')), [], 'must not be empty', hint`add one with ${memberCall('addStage')}`)] : [],
    });
  }

  /**
   * Adds a stage, by default after the last one (`after` names others).
   */
  public addStage(options: PipelineStageOptions): PipelineStage {
    const subject = `PromotionPipeline '${this.pipelineName}'`;
    refuseSecretMaterial(`${subject}: stage ${show(options?.name)}`, options);
    const problem = dns1123LabelProblem(options.name ?? '');
    if (problem) fail(subject, fieldOf('stage', prop('name')), options.name, problem, 'use a short DNS-1123 label such as "prod"');
    if (this._stages.some(s => s.name === options.name)) {
      fail(subject, fieldOf('stage', prop('name')), options.name, 'is already used in this pipeline', 'give every stage a unique name');
    }
    if (options.clusters !== undefined && !(options.clusters instanceof ClusterSelector)) {
      fail(subject, fieldOf('stage', show(options.name), prop('clusters')), options.clusters, 'must be a ClusterSelector',
        hint`use ${call('ClusterSelector', 'tier', constant('Tier', 'PROD'))} or similar`);
    }
    const freezeProblems = new ProblemList(subject);
    checkFreezes(freezeProblems, fieldOf('stage', show(options.name), prop('freezes')), options.freezes ?? [], options.name);
    freezeProblems.throwIfAny();
    const nsProblem = options.namespace === undefined ? undefined : namespacePatternProblem(options.namespace, options.name);
    if (nsProblem) fail(subject, fieldOf('stage', show(options.name), prop('namespace')), options.namespace, ...nsProblem);
    this.checkGraph(subject, options);
    if (options.waveBudget) checkWaveBudget(subject, fieldText(fieldOf('stage', show(options.name), prop('waveBudget'))), options.waveBudget);
    const problems = new ProblemList(subject);
    reportValue(problems, fieldOf('stage', show(options.name), prop('clusters')), options.clusters);
    reportValue(problems, fieldOf('stage', show(options.name), prop('approval')), options.approval);
    reportValue(problems, fieldOf('stage', show(options.name), prop('waves')), options.waves);
    reportValue(problems, fieldOf('stage', show(options.name), prop('fanOut')), options.fanOut);
    for (const p of verificationProblems(options.verification ?? [])) problems.add(within(`stage ${show(options.name)}`, p));
    problems.throwIfAny();
    if (options.soak !== undefined) {
      if (typeof (options.soak as any)?.toSeconds !== 'function') {
        fail(subject, fieldOf('stage', show(options.name), prop('soak')), options.soak, 'must be a Duration',
          hint`use ${call('Duration', 'minutes', num(30))} or ${call('Duration', 'hours', num(1))}`);
      }
      const seconds = options.soak.toSeconds({ integral: false });
      if (!(Number.isInteger(seconds) && seconds > 0)) {
        fail(subject, fieldOf('stage', show(options.name), prop('soak')), `${seconds}s`, 'must be a positive whole number of seconds',
          hint`use ${call('Duration', 'minutes')} or ${call('Duration', 'hours')}`);
      }
    }
    const stage = new PipelineStage(options, this._stages[this._stages.length - 1]?.name);
    this.checkSoak(subject, stage);
    this._stages.push(stage);
    return stage;
  }

  /** Upstream stages must exist already (so the graph has no cycles); a control-flow stage only gates. */
  private checkGraph(subject: string, options: PipelineStageOptions) {
    for (const up of options.after ?? []) {
      if (!this._stages.some(s => s.name === up)) {
        fail(subject, fieldOf('stage', show(options.name), prop('after')), up, 'is not a stage added before it',
          `name earlier stages (${this._stages.map(s => show(s.name)).join(', ') || 'none yet'}); add upstream stages first`);
      }
    }
    const dup = (options.after ?? []).find((a, i, all) => all.indexOf(a) !== i);
    if (dup !== undefined) fail(subject, fieldOf('stage', show(options.name), prop('after')), dup, 'is named twice', 'name each upstream stage once');
    if (options.clusters !== undefined) return;
    // pkg/controller/stages/control_flow_stages.go (Kargo v1.11.2): a Stage without promotion steps
    // is never promoted into; its reconciler marks Freight verified as soon as it is available
    // (verified and soaked upstream), so it cannot deploy, run checks or wait for a person
    const unsupported: Array<[string, unknown]> = [['fanOut', options.fanOut], ['waves', options.waves], ['waveBudget', options.waveBudget],
      ['verification', options.verification?.length ? options.verification : undefined], ['production', options.production], ['namespace', options.namespace]];
    for (const [name, value] of unsupported) {
      if (value !== undefined) {
        fail(subject, fieldOf('stage', show(options.name), prop(name)), fieldText(prop(name)), 'is set on a control-flow stage (a stage without clusters)',
          'give the stage clusters, or move the setting to the stages after it');
      }
    }
    if (options.approval?.gated) {
      fail(subject, fieldOf('stage', show(options.name), prop('approval')), options.approval.kind, 'is gated on a control-flow stage, which Kargo never promotes into',
        hint`gate the stages after it (their ${prop('approval')}), or give the control-flow stage a soak (waited in the checks of the stages before it)`);
    }
  }

  /** The soak rules (`soakProblems`) on the stages added before and this one: every problem found is this one's. */
  private checkSoak(subject: string, stage: PipelineStage) {
    const [problem] = soakProblems([...this._stages, stage].map(soakNode), () => fieldOf('stage', show(stage.name), prop('soak')));
    if (problem !== undefined) throw userError(within(subject, problem));
  }

  public get stages(): PipelineStage[] {
    return [...this._stages];
  }
}

function checkWaveBudget(subject: string, field: string, budget: WaveBudget) {
  const { maxClusters, maxPercent } = budget;
  if (maxClusters !== undefined && !(Number.isInteger(maxClusters) && maxClusters >= 1)) {
    fail(subject, `${field}.${fieldText(prop('maxClusters'))}`, maxClusters, 'must be a whole number >= 1');
  }
  if (maxPercent !== undefined && !(maxPercent > 0 && maxPercent <= 100)) {
    fail(subject, `${field}.${fieldText(prop('maxPercent'))}`, maxPercent, 'must be in (0, 100]');
  }
}

/** A stage as the soak rules see it. */
function soakNode(stage: PipelineStage): SoakNode {
  const soak = stage.soak === undefined ? undefined : toGoDuration(stage.soak);
  return { name: stage.name, soak, upstreams: stage.after, controlFlow: stage.controlFlow };
}
