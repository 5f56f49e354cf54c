/**
 * How a stage fed by several upstream stages accepts Freight.
 */
export enum JoinKind {
  /** Freight must be verified in every upstream Kargo Stage (Kargo `availabilityStrategy: All`). */
  ALL = 'all',
  /** Freight verified in any one upstream Kargo Stage will do (Kargo `availabilityStrategy: OneOf`). */
  ANY_OF = 'any-of',
}

/**
 * How a stage with several upstream stages (`after`) joins them. Kargo checks this per Freight:
 * the Stage's `requestedFreight[].sources.availabilityStrategy` (Kargo v1.11.2
 * api/v1alpha1/stage_types.go, `FreightAvailabilityStrategy`; unset means `OneOf`).
 *
 * @example
 * pipeline.addStage({ name: 'prod', after: ['ab-test-a', 'ab-test-b'], join: Join.anyOf() });
 */
export class Join {
  /** Freight must be verified in every upstream stage (and every wave and part of it). */
  public static all(): Join {
    return new Join(JoinKind.ALL);
  }

  /** Freight verified in any one upstream stage will do, e.g. either variant of an A/B test. */
  public static anyOf(): Join {
    return new Join(JoinKind.ANY_OF);
  }

  private constructor(
    /** The kind of join. */
    public readonly kind: JoinKind) {}
}
