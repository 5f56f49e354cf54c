import { applyFreezes } from './freeze-plan';
import { ClusterResource } from './planned-app';
import { ReleasePlan } from './release-plan';
import { checkRenderInputs } from './render-inputs';
import { RepositoryAccess } from './repository-access';
import { resolveReleasePlan, PlanInput } from './resolve-plan';
import { renderStageChecks } from './stage-checks';
import { ArgoCdCredentials } from '../artifact/argocd-credentials';
import { Artifact } from '../artifact/artifact';
import { ManifestSource } from '../artifact/manifest-source';
import { Cluster } from '../fleet/cluster';
import { RenderedVerification } from '../verification/render';

/**
 * Everything one app's output is made from, resolved once: the release plan plus the facts the
 * emitters need about its clusters, artifacts, source, checks and repository access. The
 * emitters read this and nothing else.
 * @internal
 */
export interface AppRelease {
  readonly plan: ReleasePlan;
  /** The release repository, without trailing slashes. */
  readonly releaseRepo: string;
  readonly source: ManifestSource;
  readonly artifacts: Artifact[];
  /** The namespace of the central Argo CD. */
  readonly argoCdNamespace: string;
  /** The clusters the app is placed on, by name. */
  readonly clusters: Map<string, Cluster>;
  /** One line naming the app and its owner, for descriptions. */
  readonly description: string;
  /** Annotations for the Kargo Project and the AppProjects (standards exemptions). */
  readonly annotations: Record<string, string>;
  /** Cluster-scoped resources the AppProjects allow. */
  readonly clusterResources: ClusterResource[];
  /** The rendered checks of every Kargo Stage, by Kargo Stage. */
  readonly checks: Map<string, RenderedVerification>;
  /** The repositories Kargo authenticates to. */
  readonly accesses: RepositoryAccess[];
  /** How each Argo CD reads the release repository, when the app declares it. */
  readonly releaseRepoArgoCdCredentials?: ArgoCdCredentials;
}

/**
 * What an app release is resolved from, besides the plan input.
 * @internal
 */
export interface AppReleaseInput extends PlanInput {
  readonly releaseRepo: string;
  readonly source: ManifestSource;
  readonly artifacts: Artifact[];
  readonly description: string;
  readonly annotations: Record<string, string>;
  readonly clusterResources: ClusterResource[];
  readonly accesses: RepositoryAccess[];
  readonly releaseRepoArgoCdCredentials?: ArgoCdCredentials;
}

/**
 * Resolves an app against its fleet and pipeline: the plan, then the checks of every Kargo Stage.
 * Throws one error listing every problem.
 * @internal
 */
export function resolveAppRelease(input: AppReleaseInput): AppRelease {
  const plan = applyFreezes(input.subject, resolveReleasePlan(input), input.pipeline, input);
  const inFleet = new Map(input.fleet.clusters.map(c => [c.name, c]));
  const clusters = new Map(plan.clusters.map(name => [name, inFleet.get(name)!]));
  checkRenderInputs(input.subject, input.source, [...clusters.values()]);
  return {
    plan,
    releaseRepo: input.releaseRepo,
    source: input.source,
    artifacts: input.artifacts,
    argoCdNamespace: input.fleet.argoCdNamespace,
    clusters,
    description: input.description,
    annotations: input.annotations,
    clusterResources: input.clusterResources,
    checks: renderStageChecks(input.subject, plan, input.verification, clusters, input.fleet.verificationJobs),
    accesses: input.accesses,
    releaseRepoArgoCdCredentials: input.releaseRepoArgoCdCredentials,
  };
}
