import { PlatformAppProps } from './platform-app-props';
import { ArtifactKind, chartDependencyRepository } from '../artifact/artifact';
import { ManifestSource, sourceArtifact } from '../artifact/manifest-source';
import { describe, ProblemList, show } from '../util/errors';
import { pathWithin } from '../util/repo-paths';

/**
 * Every artifact must reach the render, or Freight made by its new versions changes nothing live
 * (the controller model's `artifact-unused`), so it fails here instead. A chart reaches it only
 * through `helm-update-chart` on a Helm source; the source repository is checked out whole; any
 * other git repository only where `checkoutPath` puts it.
 * @internal
 */
export function checkArtifactsReachRender(problems: ProblemList, props: PlatformAppProps): void {
  const source = props.source;
  if (!source) return;
  if (!source.helmOptions) {
    (props.artifacts ?? []).forEach((a, i) => {
      if (a.kind !== ArtifactKind.HELM_CHART) return;
      problems.add(describe(`artifacts[${i}] (helm chart ${a.repoUrl})`, source.kind,
        'is never read: a chart version reaches a release only as a dependency of a Helm source (helm-update-chart), and this source is rendered by kustomize',
        'drop the chart artifact, or render a Helm umbrella chart with ManifestSource.helm()'));
    });
  }
  checkChartDependencies(problems, props);
  checkGitCheckouts(problems, props, source);
}

/**
 * helm-update-chart sets the version of the Chart.yaml dependency with the chart's
 * `dependencyName` and repository (kargo `pkg/helm/dependency_manager.go`): two chart artifacts
 * with the same pair update one dependency, and the first one's versions reach nothing.
 */
function checkChartDependencies(problems: ProblemList, props: PlatformAppProps): void {
  const seen = new Map<string, string>();
  (props.artifacts ?? []).forEach((a, i) => {
    if (a.kind !== ArtifactKind.HELM_CHART || a._problems.length > 0) return;
    const artifact = `artifacts[${i}] (helm chart ${a.repoUrl}${a.chartOptions.name ? ` ${a.chartOptions.name}` : ''})`;
    const key = `${a.chartOptions.dependencyName}@${chartDependencyRepository(a.repoUrl)}`;
    const other = seen.get(key);
    if (other !== undefined) {
      problems.add(describe(`${artifact} dependencyName`, a.chartOptions.dependencyName, `names the same Chart.yaml dependency as ${other} (one name and repository take one version)`,
        'give each chart artifact the dependencyName of its own dependency in Chart.yaml'));
    }
    seen.set(key, artifact);
  });
}

function checkGitCheckouts(problems: ProblemList, props: PlatformAppProps, source: ManifestSource): void {
  const own = sourceArtifact(source, props.artifacts ?? []);
  const sourceDirs = source.helmOptions ? [source.helmOptions.path] : source.watchedPaths;
  const chartDir = source.helmOptions?.path;
  const placed: Array<{ field: string; path: string }> = [];
  (props.artifacts ?? []).forEach((a, i) => {
    if (a.kind !== ArtifactKind.GIT || a._problems.length > 0) return;
    const field = `artifacts[${i}] (git ${a.repoUrl}) checkoutPath`;
    const path = a.gitOptions.checkoutPath;
    if (a === own) {
      if (path !== undefined) {
        problems.add(describe(field, path, 'is set on the source repository, which every render checks out whole', 'remove checkoutPath'));
      }
      return;
    }
    const example = `${chartDir ?? 'config'}/${a.repoUrl.split('/').pop()!.replace(/\.git$/, '')}`;
    if (path === undefined) {
      problems.add(describe(field, path, 'is required: no render reads this repository, so Freight made by its new commits would change nothing',
        `set checkoutPath to the directory of the source repository the render reads it from (e.g. ${show(example)}), or drop the artifact`));
      return;
    }
    if (chartDir !== undefined && !(pathWithin(path, chartDir) && path !== chartDir)) {
      problems.add(describe(field, path, `lies outside the chart directory ${show(chartDir)}, the only directory helm-template reads`,
        `use a directory inside it, e.g. ${show(example)}`));
    }
    const covered = sourceDirs.filter(d => pathWithin(d, path));
    if (covered.length > 0) {
      problems.add(describe(field, path, `would replace the source's own directory ${show(covered[0])}`, 'check it out into a new directory below it'));
    }
    for (const other of placed) {
      if (pathWithin(path, other.path) || pathWithin(other.path, path)) {
        problems.add(describe(field, path, `overlaps ${other.field} ${show(other.path)}`, 'give each git artifact its own directory'));
      }
    }
    placed.push({ field, path });
  });
}
