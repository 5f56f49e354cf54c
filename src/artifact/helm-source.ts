import { nonEmpty, SourceReach } from './artifact-type';
import { ManifestSourceKind, ManifestSourceOptions } from './manifest-source-kind';
import { clusterManifests, SRC, WORK, withTokens } from './promotion-dirs';
import { checkPath, checkRepo, RenderContext, RenderedCluster, RenderOptions, SourceType } from './source-type';
import { clusterVariables, RELEASE_VARIABLES, RENDER_ONLY_VARIABLES, renderOnlyVariables } from '../contracts/cluster-variables';
import { expr, textVariable, variable } from '../contracts/expressions';
import { call, field, hint, prop, shorthand } from '../util/code-hint';
import { describe, ProblemList, show } from '../util/errors';
import { apiVersionProblem } from '../util/names';
import { pathWithin } from '../util/repo-paths';

/**
 * Options for `ManifestSource.helm()`.
 *
 * Paths are relative to `path`; they may use the tokens `{stage}`, `{cluster}`, `{region}`,
 * `{provider}`, `{accelerator}` and `{tier}`, which are filled in per stage and cluster.
 */
export interface HelmSourceOptions extends ManifestSourceOptions {
  /** The chart's directory in the repository, e.g. `charts/gateway`. */
  readonly path: string;
  /**
   * Values files applied after the chart's `values.yaml`, in order, e.g. per-stage values.
   * @default - none
   */
  readonly valuesFiles?: string[];
  /**
   * Values files applied last that may be missing, e.g. per-cluster overrides
   * (`clusters/{cluster}.yaml`). The ones present are merged into one values file first
   * (Kargo's `yaml-merge`), so a missing file from `valuesFiles` still fails the render. Unlike
   * Helm, that merge combines lists of maps that share a `name` key instead of replacing the
   * whole list, which matters only when several optional files set the same list.
   * @default - none
   */
  readonly optionalValuesFiles?: string[];
  /**
   * API versions beyond Kubernetes' built-in ones that every target cluster serves, for charts
   * that test `.Capabilities.APIVersions.Has` (e.g. `monitoring.coreos.com/v1`): the render is
   * client-only and knows no CRD-provided API otherwise. Each cluster adds its own
   * (`ClusterOptions.apiVersions`), and the render assumes its `kubernetesVersion`.
   * @default - none
   */
  readonly apiVersions?: string[];
  /**
   * The Helm release name.
   * @default - the application's name
   */
  readonly releaseName?: string;
}

/** The longest release name Helm accepts (chartutil.ValidateReleaseName), even for `helm template`. */
const HELM_RELEASE_NAME_MAX = 53;

/** The render task's variable holding the stage's namespace (when stages have their own). */
const NAMESPACE_VARIABLE = 'namespace';

/**
 * The render task's variable holding one cluster's API versions, comma-separated (when
 * clusters declare their own). Kargo refuses an empty task variable (kargo v1.11.2
 * `pkg/api/promotion.go` `promotionTaskVarsToStepVars`), so a cluster with none passes `v1`,
 * which Helm's capabilities hold anyway.
 */
const API_VERSIONS_VARIABLE = 'apiVersions';

/**
 * Returns why Helm would refuse `name` as a release name because of its length, or undefined.
 * @internal
 */
export function helmReleaseNameLengthProblem(name: string): string | undefined {
  return name.length > HELM_RELEASE_NAME_MAX ? `must be at most ${HELM_RELEASE_NAME_MAX} characters (it has ${name.length})` : undefined;
}

/**
 * The Helm source `options`, validated.
 * @internal
 */
export function helmSource(options: HelmSourceOptions): SourceType<HelmSourceOptions> {
  const problems: string[] = [];
  checkRepo(problems, options);
  checkPath(problems, field('helm', prop('path')), options.path, false);
  for (const f of [...options.valuesFiles ?? [], ...options.optionalValuesFiles ?? []]) checkPath(problems, 'helm values file', f, true);
  for (const v of options.apiVersions ?? []) {
    const problem = apiVersionProblem(v);
    if (problem) problems.push(describe(field('helm', prop('apiVersions')), v, problem, 'use "<group>/<version>" or "<group>/<version>/<Kind>"'));
  }
  if (options.releaseName !== undefined && !/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/.test(options.releaseName)) {
    problems.push(describe(field('helm', prop('releaseName')), options.releaseName, 'must be a DNS-1123 label', 'use lowercase letters, digits and dashes'));
  } else if (options.releaseName !== undefined && helmReleaseNameLengthProblem(options.releaseName)) {
    problems.push(describe(field('helm', prop('releaseName')), options.releaseName, helmReleaseNameLengthProblem(options.releaseName)!,
      'shorten it: helm template refuses longer release names'));
  }
  return new HelmSource(options, problems);
}

class HelmSource implements SourceType<HelmSourceOptions> {
  public readonly kind = ManifestSourceKind.HELM;
  public readonly repoUrl: string;
  public readonly branch: string;
  /**
   * helm-template renders client-only (kargo v1.11.2 `pkg/promotion/runner/builtin/helm_template_runner.go`
   * `newInstallAction`): without the cluster's version, `.Capabilities.KubeVersion` and the
   * chart's own `kubeVersion` constraint see Helm's built-in default.
   */
  public readonly needsKubernetesVersion = true;

  constructor(public readonly options: HelmSourceOptions, public readonly problems: string[]) {
    this.repoUrl = `${options.repoUrl}`.replace(/\/+$/, '');
    this.branch = options.branch ?? 'main';
  }

  public get reach(): SourceReach {
    const chart = this.options.path;
    return {
      sourceKind: this.kind,
      updatesChartDependencies: true,
      sourceDirs: [chart],
      checkoutBase: chart,
      // Helm loads the chart directory whole, and nothing else of the checkout
      checkoutProblem: path => pathWithin(path, chart) && path !== chart
        ? undefined : `lies outside the chart directory ${show(chart)}, the only directory helm-template reads`,
    };
  }

  public get watchedPaths(): string[] {
    return [this.options.path];
  }

  /** The release name defaults to the app's name, which Helm then refuses when it is too long. */
  public checkAppName(problems: ProblemList, appName: string): void {
    if (this.options.releaseName !== undefined) return;
    const tooLong = helmReleaseNameLengthProblem(appName);
    problems.check(prop('appName'), appName, tooLong && `is the Helm release name, which ${tooLong}`, hint`shorten the app name or set ${call('ManifestSource', 'helm', shorthand('HelmSourceOptions', 'releaseName'))}`);
  }

  /** Beyond the cluster variables, what helm-template assumes of the cluster. */
  public renderVarNames(options: RenderOptions): string[] {
    return [
      ...RELEASE_VARIABLES, ...RENDER_ONLY_VARIABLES,
      ...options.stageNamespaces ? [NAMESPACE_VARIABLE] : [],
      ...options.clusterApiVersions ? [API_VERSIONS_VARIABLE] : [],
    ];
  }

  public renderVariables(options: RenderOptions, cluster: RenderedCluster, namespace: string): Record<string, string> {
    const source = cluster.variables;
    return {
      ...clusterVariables(source),
      ...renderOnlyVariables(source),
      ...options.stageNamespaces ? { [NAMESPACE_VARIABLE]: namespace } : {},
      ...options.clusterApiVersions ? { [API_VERSIONS_VARIABLE]: this.apiVersionsOf(cluster).join(',') || 'v1' } : {},
    };
  }

  /**
   * Images are injected with `--set`, and each cluster's attributes under `platform.*`; optional
   * values files are merged first.
   */
  public renderTaskSteps(ctx: RenderContext): any[] {
    const o = this.options;
    const chart = `${SRC}/${o.path}`;
    const required = (o.valuesFiles ?? []).map(f => `${chart}/${withTokens(f)}`);
    const optional = (o.optionalValuesFiles ?? []).map(f => `${chart}/${withTokens(f)}`);
    const setValues = [
      ...ctx.artifacts.flatMap(a => a._type.helmTemplateValues?.() ?? []),
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
        outPath: clusterManifests(),
        valuesFiles: nonEmpty([...required, ...optional.length > 0 ? [optionalValuesFile()] : []]),
        buildDependencies: ctx.artifacts.some(a => a._type.helmUpdateChart !== undefined) ? true : undefined,
        // helm-template renders client-only (kargo v1.11.2 `helm_template_runner.go`
        // `newInstallAction`): without these, .Capabilities are Helm's defaults and crds/ is dropped
        kubeVersion: textVariable('kubeVersion'),
        // expr-lang's split() makes the comma-separated variable the list helm-template takes
        apiVersions: ctx.clusterApiVersions ? expr(`split(vars.${API_VERSIONS_VARIABLE}, ',')`) : nonEmpty(this.apiVersionsOf(undefined)),
        includeCRDs: true,
        setValues,
      },
    });
    return steps;
  }

  /** The chart artifacts' versions go into the umbrella chart's dependencies. */
  public updateSteps(ctx: RenderContext): any[] {
    const charts = ctx.artifacts.flatMap(a => a._type.helmUpdateChart ? [a._type.helmUpdateChart()] : []);
    if (charts.length === 0) return [];
    return [{
      uses: 'helm-update-chart',
      as: 'update-charts',
      config: { path: `${SRC}/${this.options.path}`, charts },
    }];
  }

  /** What helm-template puts in `.Capabilities.APIVersions` beyond the built-ins: the app's and the cluster's. */
  private apiVersionsOf(cluster: RenderedCluster | undefined): string[] {
    return [...new Set([...this.options.apiVersions ?? [], ...cluster?.apiVersions ?? []])].sort();
  }
}

/** Where the render task merges a cluster's optional values files. */
function optionalValuesFile(): string {
  return `${WORK}/${variable('cluster')}/optional-values.yaml`;
}
