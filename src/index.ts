// The public API (jsii): modules that also hold @internal helpers are re-exported by name, so that
// no helper becomes API (test/index.test.ts fails when an @internal name is reachable from here).
export * from './contracts/labels';
export { CloudProvider, Accelerator, Tier } from './fleet/cluster-attributes';
export * from './fleet/cluster-selector';
export * from './fleet/cluster-auth';
export { Cluster } from './fleet/cluster';
export type { ClusterOptions } from './fleet/cluster';
export * from './fleet/cluster-fleet';
export type { CaBundle, VerificationJobOptions } from './fleet/verification-jobs';
export * from './fleet/webhook-receiver';
export * from './pipeline/approval';
export * from './pipeline/waves';
export * from './pipeline/join';
export * from './pipeline/fan-out';
export * from './pipeline/promotion-pipeline';
export * from './pipeline/deploy-freeze';
export * from './plan/owner';
export { ImageSelectionStrategy, Versioning } from './artifact/versioning';
export { ArtifactKind, GitCommitSelection, Artifact } from './artifact/artifact';
export type { ArtifactOptions, ImageArtifactOptions, HelmChartArtifactOptions, GitArtifactOptions } from './artifact/artifact';
export { ManifestSourceKind, ManifestSource } from './artifact/manifest-source';
export type { ManifestSourceOptions, HelmSourceOptions, KustomizeSourceOptions } from './artifact/manifest-source';
export * from './fleet/requirement';
export * from './artifact/repository-credentials';
export * from './artifact/argocd-credentials';
export * from './plan/platform-app-props';
export * from './app/platform-app';
export * from './verification';
export * from './fleet/argocd-topology';
export type { WavePlan, FreezePlan, StagePlan, ReleasePlan } from './plan/release-plan';
export type { ClusterResource, StandardsExemption, IPlatformApp } from './plan/planned-app';
export { DiscoveryMode } from './plan/lead-time';
export type {
  DiscoveryPlan, VerificationTime, LeadTimeContributor, LeadTimeApproval, LeadTimePath, StageLeadTime, LeadTime,
} from './plan/lead-time';
export * from './standards/standards-rule';
export type { ControllerLoadLimits } from './standards/controller-load-limits';
export * from './standards/built-in-rules';
export type { MaxLeadTimeOptions } from './standards/lead-time-rule';
export * from './standards/platform-standards';
export * from './report/platform-report';
export * from './synth-app/platform-synth-app';
