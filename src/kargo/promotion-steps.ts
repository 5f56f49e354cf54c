import { freezeSteps } from './freeze-steps';
import { Artifact, ArtifactKind, chartDependencyRepository } from '../artifact/artifact';
import { ManifestSource, ManifestSourceKind, sourceArtifact } from '../artifact/manifest-source';
import { ImageSelectionStrategy } from '../artifact/versioning';
import { clusterVariables, RELEASE_VARIABLES, RENDER_ONLY_VARIABLES, renderOnlyVariables } from '../contracts/cluster-variables';
import { chartVersion, chartVersionOf, commitId, commitIdOf, expr, imageDigest, imageTag, imageTagOf, output, outputOf, textExpr, textVariable, variable } from '../contracts/expressions';
import { applicationLabels } from '../contracts/release-names';
import { ApprovalKind } from '../pipeline/approval';
import { PlacedCluster, PlacedWave } from '../plan/app-release';
import { StagePlan, WavePlan } from '../plan/release-plan';

/**
 * Everything the promotion steps of one app are derived from.
 * @internal
 */
export interface PromotionContext {
  readonly app: string;
  readonly releaseRepo: string;
  readonly source: ManifestSource;
  readonly artifacts: Artifact[];
  readonly destinationNamespace: string;
  /**
   * Whether some stage deploys to a namespace of its own: then the render task takes the
   * namespace as a variable, which each Stage sets to its stage's namespace.
   */
  readonly stageNamespaces: boolean;
  /**
   * Whether some cluster serves API versions of its own: then the render task takes the API
   * versions as a variable, which each render call sets to the app's and its cluster's.
   */
  readonly clusterApiVersions: boolean;
}

/** The name of the per-app PromotionTask that renders one cluster. @internal */
export const RENDER_TASK = 'render-cluster';

/** Working directories of a promotion. */
const SRC = './src';
const OUT = './out';
const WORK = './work';

/** The render task's variable holding the stage's namespace (Helm, when stages have their own). */
const NAMESPACE_VARIABLE = 'namespace';

/**
 * The render task's variable holding one cluster's API versions, comma-separated (Helm, when
 * clusters declare their own). Kargo refuses an empty task variable (kargo v1.11.2
 * `pkg/api/promotion.go` `promotionTaskVarsToStepVars`), so a cluster with none passes `v1`,
 * which Helm's capabilities hold anyway.
 */
const API_VERSIONS_VARIABLE = 'apiVersions';

/** The variables the render task takes, one per cluster attribute (and what Helm assumes). @internal */
export function renderVarNames(ctx: Pick<PromotionContext, 'source' | 'stageNamespaces' | 'clusterApiVersions'>): string[] {
  if (ctx.source.kind !== ManifestSourceKind.HELM) return RELEASE_VARIABLES;
  return [
    ...RELEASE_VARIABLES, ...RENDER_ONLY_VARIABLES,
    ...ctx.stageNamespaces ? [NAMESPACE_VARIABLE] : [],
    ...ctx.clusterApiVersions ? [API_VERSIONS_VARIABLE] : [],
  ];
}

/**
 * The steps of the per-cluster render task: render the source for one cluster into
 * `./out/<cluster>/manifests.yaml`. Kargo has no loop step, so the Stage calls this task once
 * per cluster of its wave.
 * @internal
 */
export function renderTaskSteps(ctx: PromotionContext): any[] {
  const outPath = `${OUT}/${variable('cluster')}/manifests.yaml`;
  const source = ctx.source;
  if (source.kind === ManifestSourceKind.HELM) {
    const o = source.helmOptions!;
    const chart = `${SRC}/${o.path}`;
    const required = (o.valuesFiles ?? []).map(f => `${chart}/${withTokens(f)}`);
    const optional = (o.optionalValuesFiles ?? []).map(f => `${chart}/${withTokens(f)}`);
    const images = ctx.artifacts.filter(a => a.kind === ArtifactKind.IMAGE);
    const setValues = [
      ...images.flatMap(a => helmImageValues(a)),
      ...RELEASE_VARIABLES.map(v => ({ key: `platform.${v}`, value: textVariable(v), literal: true })),
    ];
    const steps: any[] = [];
    if (optional.length > 0) {
      // helm-template's ignoreMissingValueFiles would also skip a missing required file
      // (kargo v1.11.2 `helm_template_runner.go` `composeValues`): merge only the optional
      // files first, which yaml-merge may skip, into one file that always exists (empty when
      // all are missing: `yaml_merger.go`, docs `yaml-merge.md`). Outside ./out: not committed.
      steps.push({
        uses: 'yaml-merge',
        as: 'optional-values',
        config: { inFiles: optional, outFile: optionalValuesFile(), ignoreMissingFiles: true },
      });
    }
    steps.push({
      uses: 'helm-template',
      as: 'render',
      config: {
        path: chart,
        releaseName: o.releaseName ?? ctx.app,
        // .Release.Namespace: the namespace of the Stage's Applications. A kustomize build has no
        // namespace setting; Argo CD puts the resources without one in the Application's namespace
        namespace: ctx.stageNamespaces ? textVariable(NAMESPACE_VARIABLE) : ctx.destinationNamespace,
        outPath,
        valuesFiles: nonEmpty([...required, ...optional.length > 0 ? [optionalValuesFile()] : []]),
        buildDependencies: ctx.artifacts.some(a => a.kind === ArtifactKind.HELM_CHART) ? true : undefined,
        // helm-template renders client-only (kargo v1.11.2 `helm_template_runner.go`
        // `newInstallAction`): without these, .Capabilities are Helm's defaults and crds/ is dropped
        kubeVersion: textVariable('kubeVersion'),
        // expr-lang's split() makes the comma-separated variable the list helm-template takes
        apiVersions: ctx.clusterApiVersions ? expr(`split(vars.${API_VERSIONS_VARIABLE}, ',')`) : nonEmpty(apiVersionsOf(ctx, undefined)),
        includeCRDs: true,
        setValues,
      },
    });
    return steps;
  }
  const k = source.kustomizeOptions!;
  return [{
    uses: 'kustomize-build',
    as: 'render',
    config: { path: `${SRC}/${withTokens(k.overlayPath)}`, outPath },
  }];
}

/** Where the render task merges a cluster's optional values files. */
function optionalValuesFile(): string {
  return `${WORK}/${variable('cluster')}/optional-values.yaml`;
}

function helmImageValues(image: Artifact): any[] {
  const key = image.imageOptions.helmValuesKey!;
  const digest = image.imageOptions.versioning!.strategy === ImageSelectionStrategy.DIGEST;
  return [
    { key: `${key}.repository`, value: image.repoUrl, literal: true },
    digest
      ? { key: `${key}.digest`, value: imageDigest(image.repoUrl), literal: true }
      : { key: `${key}.tag`, value: imageTag(image.repoUrl), literal: true },
  ];
}

/**
 * The promotion template steps of the Kargo Stage for one wave: fail while a deploy freeze of
 * the stage holds (before anything is pushed), check out the source at the Freight's commit and
 * the wave's release branch, clear it, prepare the source (images, chart
 * versions), render every cluster of the wave, commit, push (directly, or through a pull
 * request), then sync the wave's Argo CD Applications to the pushed commit.
 * @internal
 */
export function stageSteps(ctx: PromotionContext, { stage, wave, clusters }: PlacedWave): any[] {
  const sameRepo = ctx.releaseRepo === ctx.source.repoUrl;
  const steps: any[] = [...freezeSteps(stage)];
  const sourceCheckout = { commit: commitId(ctx.source.repoUrl), path: SRC };
  const releaseCheckout = { branch: wave.releaseBranch, create: true, path: OUT };
  if (sameRepo) {
    steps.push({ uses: 'git-clone', as: 'clone', config: { repoURL: ctx.releaseRepo, checkout: [sourceCheckout, releaseCheckout] } });
  } else {
    steps.push({ uses: 'git-clone', as: 'clone-source', config: { repoURL: ctx.source.repoUrl, checkout: [sourceCheckout] } });
    steps.push({ uses: 'git-clone', as: 'clone-release', config: { repoURL: ctx.releaseRepo, checkout: [releaseCheckout] } });
  }
  steps.push(...artifactCheckouts(ctx));
  // the branch is the complete desired state of the wave: start from nothing every time
  steps.push({ uses: 'git-clear', as: 'clear', config: { path: OUT } });
  steps.push(...prepareSteps(ctx));

  for (const cluster of clusters) {
    steps.push({
      task: { name: RENDER_TASK, kind: 'PromotionTask' },
      as: `render-${cluster.name}`,
      vars: [
        { name: 'stage', value: stage.name },
        ...Object.entries(renderVariables(ctx, cluster, stage)).map(([variableName, value]) => ({ name: variableName, value })),
      ],
    });
  }

  steps.push({ uses: 'git-commit', as: 'commit', config: { path: OUT, message: commitMessage(ctx, wave) } });
  let revision: string;
  if (stage.approval === ApprovalKind.PULL_REQUEST) {
    steps.push({ uses: 'git-push', as: 'push', config: { path: OUT, generateTargetBranch: true } });
    steps.push({
      uses: 'git-open-pr',
      as: 'open-pr',
      config: {
        repoURL: ctx.releaseRepo,
        sourceBranch: output('push', 'branch'),
        targetBranch: wave.releaseBranch,
        title: `Promote ${ctx.app} to ${wave.kargoStage}`,
        description: `Rendered manifests of ${ctx.app} for ${wave.clusters.length} cluster(s) of ${wave.kargoStage}: ${wave.clusters.join(', ')}.`,
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
      config: { repoURL: ctx.releaseRepo, prNumber: output('open-pr', 'pr.id') },
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
    // `argocd-update.md`): too short for a slow sync wave. A deny window is not waited out: the
    // freeze steps stop the promotion before it pushes (freeze-steps.ts)
    retry: { timeout: stage.syncTimeout },
    config: {
      apps: [{
        namespace: wave.argoCdNamespace,
        selector: { matchLabels: applicationLabels(ctx.app, stage.name, wave.kargoStage) },
        // text: an all-digit commit id would otherwise fail the step's schema (argocd_updater.go convert)
        sources: [{ repoURL: ctx.releaseRepo, desiredRevision: revision }],
      }],
    },
  });
  return steps;
}

/** The vars of one cluster's render: the cluster variables, and for Helm what helm-template assumes. */
function renderVariables(ctx: PromotionContext, cluster: PlacedCluster, stage: StagePlan): Record<string, string> {
  const source = cluster.variables;
  if (ctx.source.kind !== ManifestSourceKind.HELM) return clusterVariables(source);
  return {
    ...clusterVariables(source),
    ...renderOnlyVariables(source),
    ...ctx.stageNamespaces ? { [NAMESPACE_VARIABLE]: stage.namespace } : {},
    ...ctx.clusterApiVersions ? { [API_VERSIONS_VARIABLE]: apiVersionsOf(ctx, cluster).join(',') || 'v1' } : {},
  };
}

/** What helm-template puts in `.Capabilities.APIVersions` beyond the built-ins: the app's and the cluster's. */
function apiVersionsOf(ctx: PromotionContext, cluster: PlacedCluster | undefined): string[] {
  return [...new Set([...ctx.source.helmOptions?.apiVersions ?? [], ...cluster?.apiVersions ?? []])].sort();
}

/**
 * A git artifact other than the source is read where its `checkoutPath` puts it inside the
 * source checkout, at the Freight's commit: kargo v1.11.2 `git_cloner.go` adds one work tree per
 * checkout (`repo.AddWorkTree`, which creates the missing directories) at the path joined to the
 * work directory. Helm then loads it with the chart directory; a kustomization references it.
 */
function artifactCheckouts(ctx: PromotionContext): any[] {
  return ctx.artifacts.flatMap((a, i) => a.kind === ArtifactKind.GIT && a.gitOptions.checkoutPath !== undefined
    ? [{
      uses: 'git-clone',
      as: `clone-artifact-${i}`,
      config: { repoURL: a.repoUrl, checkout: [{ commit: commitId(a.repoUrl), path: `${SRC}/${a.gitOptions.checkoutPath}` }] },
    }]
    : []);
}

/** Steps that change the source before rendering: image and chart versions from Freight. */
function prepareSteps(ctx: PromotionContext): any[] {
  const steps: any[] = [];
  const charts = ctx.artifacts.filter(a => a.kind === ArtifactKind.HELM_CHART);
  if (ctx.source.kind === ManifestSourceKind.HELM && charts.length > 0) {
    steps.push({
      uses: 'helm-update-chart',
      as: 'update-charts',
      config: {
        path: `${SRC}/${ctx.source.helmOptions!.path}`,
        charts: charts.map(c => ({
          repository: chartDependencyRepository(c.repoUrl),
          name: c.chartOptions.dependencyName!,
          version: chartVersion(c.repoUrl, c.chartOptions.name),
        })),
      },
    });
  }
  const images = ctx.artifacts.filter(a => a.kind === ArtifactKind.IMAGE);
  if (ctx.source.kind === ManifestSourceKind.KUSTOMIZE && images.length > 0) {
    steps.push({
      uses: 'kustomize-set-image',
      as: 'set-images',
      config: {
        path: `${SRC}/${ctx.source.kustomizeOptions!.basePath}`,
        images: images.map(a => a.imageOptions.versioning!.strategy === ImageSelectionStrategy.DIGEST
          ? { image: a.repoUrl, digest: imageDigest(a.repoUrl) }
          : { image: a.repoUrl, tag: imageTag(a.repoUrl) }),
      },
    });
  }
  return steps;
}

function commitMessage(ctx: PromotionContext, wave: WavePlan): string {
  const parts = ctx.artifacts.map(a => {
    switch (a.kind) {
      case ArtifactKind.IMAGE: return `${a.repoUrl}:${expr(imageTagOf(a.repoUrl))}`;
      case ArtifactKind.HELM_CHART: return `${a.repoUrl}@${expr(chartVersionOf(a.repoUrl, a.chartOptions.name))}`;
      case ArtifactKind.GIT: return `${a.repoUrl}@${expr(commitIdOf(a.repoUrl))}`;
    }
  });
  if (!sourceArtifact(ctx.source, ctx.artifacts)) {
    parts.push(`${ctx.source.repoUrl}@${expr(commitIdOf(ctx.source.repoUrl))}`);
  }
  return `render ${ctx.app} for ${wave.kargoStage} (Freight ${expr('ctx.targetFreight.name')})\n\n${parts.join('\n')}`;
}

function withTokens(path: string): string {
  return path.replace(/\{(\w+)\}/g, (_, token) => variable(token));
}

function nonEmpty<T>(values: T[]): T[] | undefined {
  return values.length > 0 ? values : undefined;
}
