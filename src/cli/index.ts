// The change-review API behind the `cdk8s-gitops-platform` command: TypeScript only (not part of
// the jsii API), published as the `cdk8s-gitops-platform/cli` entry point.
export * from './argocd-transition';
export * from './change-rules';
export * from './manifest-set';
export * from './release-model';
export * from './release-diff';
export * from './sync-windows';
export { renderPlan, summaryOf } from './plan-markdown';
export { run, DIRECTORY_CHECKS, EXIT_OK, EXIT_USAGE, EXIT_VIOLATION } from './run';
export type { CliIo } from './run';
