import { SourceReach } from './artifact-type';
import { ManifestSourceKind, ManifestSourceOptions } from './manifest-source-kind';
import { clusterManifests, SRC, withTokens } from './promotion-dirs';
import { checkPath, checkRepo, RenderContext, RenderedCluster, SourceType } from './source-type';
import { clusterVariables, RELEASE_VARIABLES } from '../contracts/cluster-variables';
import { field, prop } from '../util/code-hint';

/**
 * Options for `ManifestSource.kustomize()`.
 *
 * Paths may use the tokens `{stage}`, `{cluster}`, `{region}`, `{provider}`, `{accelerator}`
 * and `{tier}`, which are filled in per stage and cluster.
 */
export interface KustomizeSourceOptions extends ManifestSourceOptions {
  /** The directory whose `kustomization.yaml` lists the images, e.g. `deploy/base`. */
  readonly basePath: string;
  /** The overlay rendered for each cluster, e.g. `deploy/stages/{stage}`. */
  readonly overlayPath: string;
}

/**
 * The Kustomize source `options`, validated.
 * @internal
 */
export function kustomizeSource(options: KustomizeSourceOptions): SourceType<KustomizeSourceOptions> {
  const problems: string[] = [];
  checkRepo(problems, options);
  checkPath(problems, field('kustomize', prop('basePath')), options.basePath, false);
  checkPath(problems, field('kustomize', prop('overlayPath')), options.overlayPath, true);
  return new KustomizeSource(options, problems);
}

class KustomizeSource implements SourceType<KustomizeSourceOptions> {
  public readonly kind = ManifestSourceKind.KUSTOMIZE;
  public readonly repoUrl: string;
  public readonly branch: string;
  /** kustomize build knows nothing of the cluster it renders for. */
  public readonly needsKubernetesVersion = false;

  constructor(public readonly options: KustomizeSourceOptions, public readonly problems: string[]) {
    this.repoUrl = `${options.repoUrl}`.replace(/\/+$/, '');
    this.branch = options.branch ?? 'main';
  }

  public get reach(): SourceReach {
    return {
      sourceKind: this.kind,
      updatesChartDependencies: false,
      sourceDirs: this.watchedPaths,
      checkoutBase: 'config',
      // a kustomization references a checkout as a directory, wherever it lies
      checkoutProblem: () => undefined,
    };
  }

  /** The base, and the overlays' common directory (the path up to its first token). */
  public get watchedPaths(): string[] {
    // validation reads them too, before a missing path (from JavaScript) is reported
    const overlayRoot = `${this.options.overlayPath ?? ''}`.split('/').filter(s => !s.includes('{')).join('/');
    return [...new Set([this.options.basePath ?? '', overlayRoot].filter(p => p.length > 0))];
  }

  public checkAppName(): void {}

  public renderVarNames(): string[] {
    return RELEASE_VARIABLES;
  }

  public renderVariables(_options: unknown, cluster: RenderedCluster): Record<string, string> {
    return clusterVariables(cluster.variables);
  }

  public renderTaskSteps(): any[] {
    return [{
      uses: 'kustomize-build',
      as: 'render',
      config: { path: `${SRC}/${withTokens(this.options.overlayPath)}`, outPath: clusterManifests() },
    }];
  }

  /** The image artifacts' versions are set in the base. */
  public updateSteps(ctx: RenderContext): any[] {
    const images = ctx.artifacts.flatMap(a => a._type.kustomizeSetImage ? [a._type.kustomizeSetImage()] : []);
    if (images.length === 0) return [];
    return [{
      uses: 'kustomize-set-image',
      as: 'set-images',
      config: { path: `${SRC}/${this.options.basePath}`, images },
    }];
  }
}
