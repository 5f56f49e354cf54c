import { ArtifactKind, ArtifactOptions } from './artifact-kind';
import { ArtifactType, checkDiscoveryLimit, CREDENTIALS_IN_URL, insecureHttp, normalizedRepoUrl, ReachContext } from './artifact-type';
import { semverConstraintProblem } from './versioning';
import { chartVersion } from '../contracts/expressions';
import { chartTrailer } from '../contracts/release-record';
import { call, field, fieldText, hint, placeholder, prop, shorthand, struct } from '../util/code-hint';
import { describe, ProblemList, show } from '../util/errors';
import { urlDefect } from '../util/urls';

/**
 * Options for `Artifact.helmChart()`.
 */
export interface HelmChartArtifactOptions extends ArtifactOptions {
  /**
   * The chart's name: required for `https://` repositories, must be omitted for `oci://`
   * ones (the name is part of the URL).
   * @default - none (OCI)
   */
  readonly name?: string;
  /**
   * Which chart versions become Freight (Masterminds SemVer constraint).
   * @default - every version
   */
  readonly semver?: string;
  /**
   * The name under which the source's umbrella chart depends on this chart; the promotion
   * updates that dependency's version (`helm-update-chart`).
   * @default - the chart's name (last path segment for OCI)
   */
  readonly dependencyName?: string;
}

/**
 * The Helm chart artifact `repoUrl` with `options`, validated.
 * @internal
 */
export function chartArtifact(repoUrl: string, options: HelmChartArtifactOptions): ArtifactType<HelmChartArtifactOptions> {
  const problems: string[] = [];
  let url: URL | undefined;
  try {
    url = new URL(repoUrl);
  } catch {
    url = undefined;
  }
  const oci = url?.protocol === 'oci:';
  const defect = urlDefect(`${repoUrl}`, { schemes: options.allowInsecureHttp ? ['https:', 'http:', 'oci:'] : ['https:', 'oci:'] });
  if (defect === 'credentials') {
    problems.push(describe(field('helm chart', prop('repoUrl')), repoUrl, CREDENTIALS_IN_URL,
      hint`remove them from the URL and pass ${shorthand('HelmChartArtifactOptions', 'credentials')}`));
  } else if (url?.protocol === 'http:' && defect === 'scheme') {
    problems.push(describe(field('helm chart', prop('repoUrl')), repoUrl, insecureHttp(), 'use the https:// URL of the chart repository'));
  } else if (!url || defect !== undefined) {
    problems.push(describe(field('helm chart', prop('repoUrl')), repoUrl, 'must start with https:// (chart repository) or oci:// (OCI registry)',
      hint`use e.g. "https://charts.example.com" with ${shorthand('HelmChartArtifactOptions', 'name')} or "oci://ghcr.io/acme/charts/app"`));
  } else if (oci && options.name !== undefined) {
    problems.push(describe(field('helm chart', prop('name')), options.name, `must be omitted for oci:// repositories (the chart is the last path segment of ${show(repoUrl)})`,
      hint`remove ${shorthand('HelmChartArtifactOptions', 'name')}`));
  } else if (!oci && !options.name) {
    problems.push(describe(field('helm chart', prop('name')), undefined, `is required for ${url.protocol}// repositories such as ${show(repoUrl)}`,
      hint`pass ${struct('HelmChartArtifactOptions', { name: placeholder('chart') })}`));
  }
  const semverProblem = semverConstraintProblem(options.semver ?? '');
  if (semverProblem) problems.push(describe(field('helm chart', prop('semver')), options.semver, semverProblem, 'use a range such as "^1.2.0"'));
  checkDiscoveryLimit(problems, options.discoveryLimit);
  problems.push(...options.credentials?._problems ?? []);
  const chartName = options.name ?? `${repoUrl}`.replace(/\/+$/, '').split('/').pop()!;
  return new ChartArtifact(repoUrl, { ...options, dependencyName: options.dependencyName ?? chartName }, problems);
}

/**
 * The `repository` of the Chart.yaml dependency a chart artifact updates. An OCI dependency names
 * its registry path without the chart, which is the dependency's `name` (kargo v1.11.2
 * `pkg/helm/dependency_manager.go` matches name and repository exactly; docs
 * `helm-update-chart.md`, "OCI Chart Repository"); the Freight keeps the full URL (`chartFrom`).
 * @internal
 */
export function chartDependencyRepository(repoUrl: string): string {
  return repoUrl.startsWith('oci://') ? repoUrl.replace(/\/+$/, '').replace(/\/[^/]+$/, '') : repoUrl;
}

class ChartArtifact implements ArtifactType<HelmChartArtifactOptions> {
  public readonly kind = ArtifactKind.HELM_CHART;
  public readonly credentialType = 'helm';
  public readonly freightNoun = 'chart';
  public readonly freightFunction = 'chartFrom()';

  constructor(public readonly repoUrl: string, public readonly options: HelmChartArtifactOptions, public readonly problems: string[]) {}

  /** Kargo tells the charts of a classic (https) Helm repository apart by name. */
  public get subscriptionIdentity(): string {
    const url = normalizedRepoUrl(this.repoUrl, false);
    return url.startsWith('oci://') ? `chart:${url}` : `chart:${url}#${this.options.name ?? ''}`;
  }

  public get freightIdentity(): string {
    return `chart:${this.repoUrl}#${this.options.name ?? ''}`;
  }

  public subscription(): any {
    const o = this.options;
    return {
      chart: {
        repoURL: this.repoUrl,
        name: o.name,
        semverConstraint: o.semver || undefined,
        discoveryLimit: o.discoveryLimit,
      },
    };
  }

  public commitTrailer(): string {
    return chartTrailer(this.repoUrl, this.options.name);
  }

  public isSourceRepository(): boolean {
    return false;
  }

  /**
   * A chart reaches the render only through `helm-update-chart` on a Helm source, which sets the
   * version of the Chart.yaml dependency with the chart's `dependencyName` and repository (kargo
   * `pkg/helm/dependency_manager.go`): two chart artifacts with the same pair update one
   * dependency, and the first one's versions reach nothing.
   */
  public checkReach(problems: ProblemList, index: number, ctx: ReachContext): void {
    if (!ctx.updatesChartDependencies) {
      problems.add(describe(field(prop('artifacts', index), `(helm chart ${this.repoUrl})`), ctx.sourceKind,
        `is never read: a chart version reaches a release only as a dependency of a Helm source (helm-update-chart), and this source is rendered by ${ctx.sourceKind}`,
        hint`drop the chart artifact, or render a Helm umbrella chart with ${call('ManifestSource', 'helm')}`));
    }
    if (this.problems.length > 0) return;
    const o = this.options;
    const artifact = fieldText(field(prop('artifacts', index), `(helm chart ${this.repoUrl}${o.name ? ` ${o.name}` : ''})`));
    const key = `${o.dependencyName}@${chartDependencyRepository(this.repoUrl)}`;
    const other = ctx.dependencies.get(key);
    if (other !== undefined) {
      problems.add(describe(field(artifact, prop('dependencyName')), o.dependencyName, `names the same Chart.yaml dependency as ${other} (one name and repository take one version)`,
        hint`give each chart artifact the ${prop('dependencyName')} of its own dependency in Chart.yaml`));
    }
    ctx.dependencies.set(key, artifact);
  }

  public helmUpdateChart(): any {
    return {
      repository: chartDependencyRepository(this.repoUrl),
      name: this.options.dependencyName!,
      version: chartVersion(this.repoUrl, this.options.name),
    };
  }
}
