// The change-review API behind the `cdk8s-gitops-platform` command: TypeScript only (not part of
// the jsii API), published as the `cdk8s-gitops-platform/cli` entry point.
export * from './argocd-transition';
export * from './change-rules';
export * from './manifest-set';
export * from './manifest-pair';
export * from './release-model';
export * from './release-diff';
export * from './sync-windows';
export * from './object-fields';
export * from './risk-flags';
export * from './plan-json';
export { renderPlan, renderComment, summaryOf, COMMENT_LIMIT, COMMENT_MARKER, UNAFFECTED_LIMIT } from './plan-markdown';
export type { PlanExtras } from './plan-markdown';
export { run, DIRECTORY_CHECKS, EXIT_OK, EXIT_USAGE, EXIT_VIOLATION, EXIT_DETAILED_CHANGES, EXIT_DETAILED_ERROR } from './run';
export { WARNING_CODES, isKubernetesApi } from './validate-command';
export type { CliIo } from './run';
// `status --json` as scripts read it (schema: cli/status-output.schema.json)
export type { StatusOutput, AppStatus, StageStatus, WaveStatus, ClusterStatus, ReleaseOutput, LiveCluster, QueryOutput } from './status/status-model';
