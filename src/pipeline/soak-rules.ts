import { Field, describe, show } from '../util/errors';

/**
 * A stage as the soak rules see it: a pipeline stage when `PromotionPipeline.addStage` checks
 * it, a Kargo Stage when the plan places the soaks of every wave.
 * @internal
 */
export interface SoakNode {
  /** The stage's name. */
  readonly name: string;
  /** The soak before it as a Kargo duration (`1h`); undefined: no soak. */
  readonly soak?: string;
  /** The stages Freight comes from. */
  readonly upstreams: readonly string[];
  /** Whether it is a Kargo control-flow Stage (no promotion steps). */
  readonly controlFlow?: boolean;
}

/**
 * The two rules every soak obeys, in the one wording both the pipeline and the plan report.
 *
 * A soak is waited in the verification of the Kargo Stages before the stage (see
 * `verification/soak-check.ts` for why Kargo's `requiredSoakTime` is never written), so:
 * - it needs an upstream that runs verification: api/v1alpha1/freight_types.go (Kargo v1.11.2),
 *   GetLongestSoak, counts soak time only while Freight is current in a Stage, and Freight is
 *   never current in a control-flow Stage (akuity/kargo#6360);
 * - one upstream waits one soak, so every stage after it must ask for the same one.
 *
 * `nodes` come in plan order (every stage after its upstreams); each problem is reported on the
 * later stage, under the field `fieldOf` names. An upstream not in `nodes` is skipped (a stage
 * that was refused has its own problems).
 * @internal
 */
export function soakProblems(nodes: readonly SoakNode[], fieldOf: (node: SoakNode) => Field): string[] {
  const byName = new Map(nodes.map(n => [n.name, n]));
  const firstAfter = new Map<string, SoakNode>();
  const problems: string[] = [];
  for (const node of nodes) {
    const soak = node.soak ?? 'no soak';
    for (const up of node.upstreams) {
      const upstream = byName.get(up);
      if (upstream === undefined) continue;
      if (upstream.controlFlow && node.soak !== undefined) {
        problems.push(describe(fieldOf(node), soak,
          `follows control-flow stage ${show(up)}, where Freight never soaks (Kargo v1.11.2 counts no soak time in a Stage without promotion steps)`,
          `move the soak to stage ${show(up)}: it is then waited in the checks of the stages before it`));
      }
      const sibling = firstAfter.get(up);
      if (sibling === undefined) {
        firstAfter.set(up, node);
      } else if (sibling.soak !== node.soak) {
        problems.push(describe(fieldOf(node), soak,
          `differs from the soak of stage ${show(sibling.name)} (${sibling.soak ?? 'no soak'}), which also follows stage ${show(up)}; `
          + `the soak is waited in the checks of stage ${show(up)}, once for every stage after it`,
          `give every stage after ${show(up)} the same soak`));
      }
    }
  }
  return problems;
}

