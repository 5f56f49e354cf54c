/**
 * Caps on what the synthesized objects ask of the live controllers (see the fleet report's
 * controller load). Each limit turns on a rule of its own id; the figures are counted from the
 * objects of every app and fleet of the cdk8s app.
 */
export interface ControllerLoadLimits {
  /**
   * Most Applications one Argo CD application-controller shard reconciles (`max-applications-per-shard`).
   * @default - no limit
   */
  readonly maxApplicationsPerShard?: number;
  /**
   * Most ApplicationSets one Argo CD holds (`max-applicationsets-per-argocd`): each one with a
   * clusters generator is reconciled again on every cluster Secret change.
   * @default - no limit
   */
  readonly maxApplicationSetsPerArgoCd?: number;
  /**
   * Most Stages one Kargo controller shard reconciles (`max-stages-per-kargo-shard`).
   * @default - no limit
   */
  readonly maxStagesPerKargoShard?: number;
  /**
   * Most requests per hour the Warehouses' polling makes to one registry, tag listings plus
   * manifest GETs at most (`max-registry-requests-per-hour`).
   * @default - no limit
   */
  readonly maxRegistryRequestsPerHour?: number;
  /**
   * Most `ls-remote`s per hour the Warehouses' polling makes to one Git host (`max-git-requests-per-hour`).
   * @default - no limit
   */
  readonly maxGitRequestsPerHour?: number;
}
