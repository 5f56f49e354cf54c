import { PlatformLabels } from './labels';

// Names and labels that more than one emitter (or a check) must agree on. Each is derived here
// only; the plan computes them once per app and the emitters read them from the plan.

/**
 * The Argo CD Application of an app on one cluster (also a Go template when `cluster` is one);
 * `stage` when the app has several Applications on the cluster, one per stage namespace.
 * @internal
 */
export function applicationName(app: string, cluster: string, stage?: string): string {
  return stage === undefined ? `${app}-${cluster}` : `${app}-${stage}-${cluster}`;
}

/**
 * The central ApplicationSet that owns a family of Application names (see `applicationName`): the
 * app's, for every stage deploying to the app's namespace, or one stage's with a namespace of its
 * own. Its generators carry each cluster's wave, so a cluster that changes wave or stage keeps
 * its Application and its owner.
 * @internal
 */
export function applicationSetName(app: string, stage?: string): string {
  return stage === undefined ? app : `${app}-${stage}`;
}

/** The id, hence the file name, of the chart a cluster with its own Argo CD applies for an app. @internal */
export function perClusterChartId(app: string, cluster: string): string {
  return `${app}--${cluster}`;
}

/** The branch of the release repository holding what one Kargo Stage rendered. @internal */
export function releaseBranch(app: string, kargoStage: string): string {
  return `rendered/${app}/${kargoStage}`;
}

/** The value of `kargo.akuity.io/authorized-stage` for a Kargo Stage. @internal */
export function authorizedStage(project: string, kargoStage: string): string {
  return `${project}:${kargoStage}`;
}

/**
 * The labels of every Application of a wave; the Stage's `argocd-update` step selects on them.
 * @internal
 */
export function applicationLabels(app: string, pipelineStage: string, kargoStage: string): Record<string, string> {
  return {
    [PlatformLabels.APP]: app,
    [PlatformLabels.PIPELINE_STAGE]: pipelineStage,
    [PlatformLabels.STAGE]: kargoStage,
  };
}

/**
 * The one AnalysisTemplate generated for a Kargo Stage: every generated check of the Stage (and
 * its soak) as metrics of one template, since Kargo merges all the templates a Stage references
 * into one AnalysisRun anyway (verification/render.ts).
 * @internal
 */
export function verificationTemplateName(kargoStage: string): string {
  return `${kargoStage}-verification`;
}

/**
 * Annotation on that template: the checks it holds, comma separated in the Stage's order, so
 * readers of the output (the plan diff) see checks, not the one template that carries them.
 * @internal
 */
export const VERIFICATION_CHECKS_ANNOTATION = 'gitops-platform.io/checks';
