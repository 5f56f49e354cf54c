import { Artifact, ArtifactKind, GitCommitSelection } from '../artifact/artifact';
import { ManifestSource, sourceArtifact } from '../artifact/manifest-source';
import { ImageSelectionStrategy } from '../artifact/versioning';

/**
 * The Warehouse subscriptions for an app: one per artifact, plus the manifest source's Git
 * repository (so a values change becomes Freight like a new image) unless an artifact already
 * subscribes to it. Field names follow Kargo's subscription JSON Schemas (v1.11); removed
 * fields (`allowTags`, `ignoreTags`, image `semverConstraint`) are never written.
 * @internal
 */
export function warehouseSubscriptions(artifacts: Artifact[], source: ManifestSource): any[] {
  const subscriptions = artifacts.map(subscriptionFor);
  if (!sourceArtifact(source, artifacts)) {
    subscriptions.push({
      git: {
        repoURL: source.repoUrl,
        commitSelectionStrategy: GitCommitSelection.NEWEST_FROM_BRANCH,
        branch: source.branch,
        includePaths: source.watchedPaths,
      },
    });
  }
  return subscriptions;
}

function subscriptionFor(artifact: Artifact): any {
  switch (artifact.kind) {
    case ArtifactKind.IMAGE: {
      const o = artifact.imageOptions;
      const v = o.versioning!;
      return {
        image: {
          repoURL: artifact.repoUrl,
          imageSelectionStrategy: v.strategy,
          constraint: v.constraint,
          strictSemvers: v.strategy === ImageSelectionStrategy.SEMVER && v.strict === false ? false : undefined,
          allowTagsRegexes: nonEmpty(o.allowTags),
          ignoreTagsRegexes: nonEmpty(o.ignoreTags),
          platform: o.platform,
          discoveryLimit: o.discoveryLimit,
        },
      };
    }
    case ArtifactKind.HELM_CHART: {
      const o = artifact.chartOptions;
      return {
        chart: {
          repoURL: artifact.repoUrl,
          name: o.name,
          semverConstraint: o.semver || undefined,
          discoveryLimit: o.discoveryLimit,
        },
      };
    }
    case ArtifactKind.GIT: {
      const o = artifact.gitOptions;
      return {
        git: {
          repoURL: artifact.repoUrl,
          commitSelectionStrategy: o.selection,
          branch: o.branch,
          semverConstraint: o.semver || undefined,
          allowTagsRegexes: nonEmpty(o.allowTags),
          ignoreTagsRegexes: nonEmpty(o.ignoreTags),
          includePaths: nonEmpty(o.includePaths),
          excludePaths: nonEmpty(o.excludePaths),
          discoveryLimit: o.discoveryLimit,
        },
      };
    }
  }
}

function nonEmpty(values: string[] | undefined): string[] | undefined {
  return values && values.length > 0 ? [...values] : undefined;
}
