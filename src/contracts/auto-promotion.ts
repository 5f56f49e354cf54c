// Whether Kargo promotes into a Stage by itself (the 'automatic' gate of a wave): the plan decides
// it (StagePlan.autoPromote), the Kargo emitter writes it into the Project's ProjectConfig, and the
// command line and the test kit read it back from synthesized YAML, which may come from another
// version of the library, so they cannot read the plan. The writing and the reading are here
// only, side by side, so that the readers cannot drift from what the emitter writes.

/** A ProjectConfig promotion policy as the library writes it: one per auto-promoted Kargo Stage. @internal */
export interface AutoPromotionPolicy {
  readonly stageSelector: { readonly name: string };
  readonly autoPromotionEnabled: true;
}

/** The ProjectConfig's `spec.promotionPolicies` for the Kargo Stages Kargo promotes into by itself (none: no field). @internal */
export function autoPromotionPolicies(kargoStages: string[]): AutoPromotionPolicy[] | undefined {
  return kargoStages.length > 0 ? kargoStages.map(name => ({ stageSelector: { name }, autoPromotionEnabled: true })) : undefined;
}

/**
 * The Kargo Stages a ProjectConfig `spec` auto-promotes into, read as Kargo v1.11.2 reads it
 * (pkg/api/auto_promotion.go, IsAutoPromotionEnabled and findMatchingPromotionPolicy): the first
 * policy whose selector matches a Stage decides, and a policy without `stageSelector` names its
 * Stage in the deprecated `stage`. Selectors by exact name only, as the library writes them; a
 * policy with a label selector or an empty name is not read (it would need the Stage's labels).
 * @internal
 */
export function autoPromotedStages(projectConfigSpec: any): Set<string> {
  const decided = new Map<string, boolean>();
  for (const policy of projectConfigSpec?.promotionPolicies ?? []) {
    const selector = policy?.stageSelector ?? { name: policy?.stage };
    if (typeof selector.name !== 'string' || selector.name === '' || selector.labelSelector !== undefined) continue;
    if (!decided.has(selector.name)) decided.set(selector.name, policy.autoPromotionEnabled === true);
  }
  return new Set([...decided].filter(([, enabled]) => enabled).map(([name]) => name));
}
