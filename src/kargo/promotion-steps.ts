import { freezeSteps } from './freeze-steps';
import { warehouseArtifacts } from '../artifact/manifest-source';
import { OUT, SRC } from '../artifact/promotion-dirs';
import { commitId, expr, output, outputOf, textExpr } from '../contracts/expressions';
import { applicationLabels } from '../contracts/release-names';
import { releaseCommitMessage, releaseTrailerBlock } from '../contracts/release-record';
import { ApprovalKind } from '../pipeline/approval';
import { AppRelease, PlacedCluster, PlacedWave } from '../plan/app-release';
import { StagePlan } from '../plan/release-plan';
import { toMetaV1Duration } from '../util/duration';

/** The name of the per-app PromotionTask that renders one cluster. @internal */
export const RENDER_TASK = 'render-cluster';

/** The variables the render task takes, one per cluster attribute (and what the source's renderer assumes). @internal */
export function renderVarNames(release: AppRelease): string[] {
  return release.source._type.renderVarNames(release.render);
}

/**
 * The steps of the per-cluster render task: render the source for one cluster into
 * `./out/<cluster>/manifests.yaml`. Kargo has no loop step, so the Stage calls this task once
 * per cluster of its wave.
 * @internal
 */
export function renderTaskSteps(release: AppRelease): any[] {
  return release.source._type.renderTaskSteps(release.render);
}

/**
 * The promotion template steps of the Kargo Stage for one wave: fail while a deploy freeze of
 * the stage holds (before anything is pushed), check out the source at the Freight's commit and
 * the wave's release branch, clear it, prepare the source (images, chart
 * versions), render every cluster of the wave, commit, push (directly, or through a pull
 * request), then sync the wave's Argo CD Applications to the pushed commit.
 * @internal
 */
export function stageSteps(release: AppRelease, { stage, wave, clusters }: PlacedWave): any[] {
  const { releaseRepo, source, artifacts, plan: { app } } = release;
  const sameRepo = releaseRepo === source.repoUrl;
  const steps: any[] = [...freezeSteps(stage)];
  const sourceCheckout = { commit: commitId(source.repoUrl), path: SRC };
  const releaseCheckout = { branch: wave.releaseBranch, create: true, path: OUT };
  if (sameRepo) {
    steps.push({ uses: 'git-clone', as: 'clone', config: { repoURL: releaseRepo, checkout: [sourceCheckout, releaseCheckout] } });
  } else {
    steps.push({ uses: 'git-clone', as: 'clone-source', config: { repoURL: source.repoUrl, checkout: [sourceCheckout] } });
    steps.push({ uses: 'git-clone', as: 'clone-release', config: { repoURL: releaseRepo, checkout: [releaseCheckout] } });
  }
  // a git artifact other than the source is read where its checkoutPath puts it in the source checkout
  steps.push(...artifacts.flatMap((a, i) => a._type.gitClone?.(i) ?? []));
  // the branch is the complete desired state of the wave: start from nothing every time
  steps.push({ uses: 'git-clear', as: 'clear', config: { path: OUT } });
  steps.push(...source._type.updateSteps(release.render));

  steps.push(...renderCalls(release, stage, clusters));

  // the release record `status` reads back (contracts/release-record.ts)
  steps.push({ uses: 'git-commit', as: 'commit', config: { path: OUT, message: releaseCommitMessage(app, wave.kargoStage, artifactTrailers(release)) } });
  let revision: string;
  if (stage.approval === ApprovalKind.PULL_REQUEST) {
    steps.push({ uses: 'git-push', as: 'push', config: { path: OUT, generateTargetBranch: true } });
    steps.push({
      uses: 'git-open-pr',
      as: 'open-pr',
      config: {
        repoURL: releaseRepo,
        sourceBranch: output('push', 'branch'),
        targetBranch: wave.releaseBranch,
        title: `Promote ${app} to ${wave.kargoStage}`,
        description: pullRequestDescription(release, wave),
        labels: stage.pullRequestLabels.length > 0 ? [...stage.pullRequestLabels] : undefined,
      },
    });
    // A promotion whose render changes nothing pushes a branch equal to the target: git-open-pr
    // is then Skipped without output ("no commits between" otherwise; kargo v1.11.2
    // `pkg/promotion/runner/builtin/git_pr_opener.go`, docs `git-open-pr.md`), so there is no PR
    // to wait for, and the pushed commit is the target branch's head (git-commit was Skipped,
    // `git_commiter.go`; git-push still outputs `commit`, `git_pusher.go`). `status()` is kargo
    // `pkg/expressions/function/functions.go` `getStatus`.
    steps.push({
      uses: 'git-wait-for-pr',
      as: 'wait-for-pr',
      if: expr("status('open-pr') != 'Skipped'"),
      config: { repoURL: releaseRepo, prNumber: output('open-pr', 'pr.id') },
    });
    revision = textExpr(`outputs['wait-for-pr']?.commit ?? ${outputOf('push', 'commit')}`);
  } else {
    steps.push({ uses: 'git-push', as: 'push', config: { path: OUT } });
    revision = textExpr(outputOf('push', 'commit'));
  }
  steps.push({
    uses: 'argocd-update',
    as: 'sync',
    // the step's own default is 5 minutes (kargo `argocd_updater.go` `DefaultTimeout`, docs
    // `argocd-update.md`): too short for a slow sync wave; written as Kargo stores it (`30m0s`). A deny
    // window is not waited out: the freeze steps stop the promotion before it pushes (freeze-steps.ts)
    retry: { timeout: toMetaV1Duration(stage.syncTimeout) },
    config: {
      apps: [{
        namespace: wave.argoCdNamespace,
        selector: { matchLabels: applicationLabels(app, stage.name, wave.kargoStage) },
        // text: an all-digit commit id would otherwise fail the step's schema (argocd_updater.go convert)
        sources: [{ repoURL: releaseRepo, desiredRevision: revision }],
      }],
    },
  });
  return steps;
}

/** One call of the render task per cluster of the wave, with the cluster's variables. */
function renderCalls(release: AppRelease, stage: StagePlan, clusters: PlacedCluster[]): any[] {
  return clusters.map(cluster => ({
    task: { name: RENDER_TASK, kind: 'PromotionTask' },
    as: `render-${cluster.name}`,
    vars: [
      { name: 'stage', value: stage.name },
      ...Object.entries(release.source._type.renderVariables(release.render, cluster, stage.namespace)).map(([key, value]) => ({ name: key, value })),
    ],
  }));
}

/** What the pull request says, with the record's trailers: a host that squash-merges with the description as message keeps the record. */
function pullRequestDescription(release: AppRelease, wave: PlacedWave['wave']): string {
  return `Rendered manifests of ${release.plan.app} for ${wave.clusters.length} cluster(s) of ${wave.kargoStage}: ${wave.clusters.join(', ')}.\n\n`
    + releaseTrailerBlock(wave.kargoStage, artifactTrailers(release));
}

/** The trailers recording each artifact's version in the Freight (contracts/release-record.ts). */
function artifactTrailers(release: AppRelease): string[] {
  return warehouseArtifacts(release.source, release.artifacts).map(a => a.commitTrailer());
}
