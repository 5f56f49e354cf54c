/**
 * The test kit, `cdk8s-gitops-platform/testkit`: an entry point of its own (TypeScript only, not
 * part of the jsii API) that reads synthesized YAML the way the live controllers would, for this
 * project's tests, for users' own vitest suites, and for `cdk8s-gitops-platform validate`.
 *
 * What it restates from upstream (Kubernetes, Argo CD v3.5.1, Kargo v1.11.2, Argo Rollouts v1.9.1),
 * each piece naming the upstream code it follows:
 * - generated, never written by hand: the structural schemas of the pinned CRDs with their CEL
 *   rules, and Kargo's promotion step and Warehouse subscription JSON Schemas
 *   (`imports/schema-bundle.json`, written by `npx projen import`; `schema-bundle.ts`,
 *   `structural-schema.ts`, `cel.ts`);
 * - the admission rules the schemas do not hold: Kubernetes name syntax (`k8s-names.ts`), object
 *   metadata (`object-meta.ts`), the shape of the few core kinds the library emits
 *   (`core-kinds.ts`), Argo CD's and Kargo's webhooks (`argocd-rules.ts`, `kargo-rules.ts`,
 *   `promotion-steps.ts`, `warehouse-subscriptions.ts`), and that no Secret carries credentials
 *   (`secret-guard.ts`);
 * - what the controllers do with valid objects (`model/`): Argo CD's ApplicationSet generators
 *   and ownership, project permission check and cluster connection; Kargo's promotion runner and
 *   built-in steps on an in-memory Git, expr-lang, Freight availability and auto-promotion over
 *   time, the start of verification; Argo Rollouts' metric evaluation; Pod Security `restricted`.
 *
 * Why it never shares code with the emitters: it is the second, independent reading of upstream
 * that the emitters' output is checked against. A rule both used (a name limit, a label key, the
 * shape of a step's config) would be wrong on both sides at once, and every test would still
 * pass. So it imports nothing of the library and restates what it needs (`k8s-names.ts` is not
 * `src/util/names.ts`), and the conformance suite compares its model with upstream's own Go code
 * wherever both judge (`conformance/differential.ts`).
 *
 * Who may import it: code that reads synthesized output, never code that produces it. `load/`
 * counts the Applications the ApplicationSets generate with the model's generators (for the fleet
 * report and the load standards, never for an object), and `cli/` validates, simulates and diffs
 * YAML with it. Both read the output as a controller would; a model of their own would be a
 * second reading of Argo CD that could disagree with the one the conformance suite checks. The
 * emitters and everything they stand on (`plan/`, `kargo/`, `argocd/`, `synth/` and below) never
 * import it, so no check agrees with the output merely because the two share code.
 * `test/architecture.test.ts` enforces both directions (`STANDALONE`); ARCHITECTURE.md says the same.
 *
 * @packageDocumentation
 */
export * from './manifest-issue';
export * from './manifest-validator';
export * from './model';
export * from './secret-scan';
