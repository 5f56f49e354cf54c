/**
 * The Argo CD sync waves of the platform's output (docs/fleet.md). One Application applies all of
 * `manifests/` in one sync, wave by wave: a multi-step sync waits while an object of the current
 * wave is not yet Healthy and fails on a Degraded one (argo-cd v3.5.1
 * `gitops-engine/pkg/sync/sync_context.go` `Sync`), so each wave finds what it needs in place.
 * @internal
 */
export enum SyncWave {
  /** Each app's Kargo project Namespace, labelled as a project: everything of the app lives in it. */
  PROJECT_NAMESPACE = '-2',
  /**
   * What later waves refer to: Kargo Projects, Argo CD AppProjects (the ApplicationSet controller
   * refuses Applications of a missing project), the render PromotionTask (Kargo refuses a
   * Promotion whose task is missing) and the cluster Secrets (an ApplicationSet's clusters
   * generator finds only the clusters whose Secret exists).
   */
  REFERENCED = '-1',
  /**
   * Kargo Stages, last: a Stage auto-promotes the Warehouse's Freight as soon as it exists, and its
   * `argocd-update` step fails the Promotion when no Application matches its selector yet ("no Argo
   * CD Applications found"); Kargo then skips auto-promotion of that Freight for good (v1.11.2
   * `pkg/controller/stages/regular_stages.go`). The ApplicationSets of wave 0 are Healthy only once
   * their Applications exist (argo-cd `resource_customizations/argoproj.io/ApplicationSet/health.lua`:
   * `ResourcesUpToDate`).
   */
  STAGES = '1',
}

/** The annotation that puts an object in a sync wave. @internal */
export function syncWave(wave: SyncWave): Record<string, string> {
  return { 'argocd.argoproj.io/sync-wave': wave };
}
