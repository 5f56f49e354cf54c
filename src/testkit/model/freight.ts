import { ExprError, ExprFunctions, GoStruct } from './expr';
import { digitsOnly, normalizeGitUrl, shortHash } from './git-world';

/**
 * Simulated Freight: one version of every artifact a Warehouse subscribes to. `generation` picks
 * the version (1 = older, 2 = newer) per artifact, so a run can promote new Freight, the same
 * Freight again, older Freight (a rollback), or Freight where a single artifact moved. The
 * `imageFrom`/`chartFrom`/`commitFrom` functions follow Kargo v1.11.2
 * `pkg/expressions/function/functions.go` (`getImageFromFreight`, `getChartFromFreight`,
 * `getCommitFromFreight`): they return the artifact's struct, and fail when the Freight has none.
 */

export type ArtifactKind = 'image' | 'chart' | 'git';

export interface SubscribedArtifact {
  readonly kind: ArtifactKind;
  readonly repoURL: string;
  /** The chart name of a classic (http) chart repository. */
  readonly name?: string;
  /** JSON pointer to the subscription in its Warehouse. */
  readonly path: string;
  /** The git branch subscribed to. */
  readonly branch?: string;
}

/** The artifacts a Warehouse subscribes to, in order. */
export function warehouseArtifacts(warehouse: any): SubscribedArtifact[] {
  const subs: unknown[] = Array.isArray(warehouse?.spec?.subscriptions) ? warehouse.spec.subscriptions : [];
  const artifacts: SubscribedArtifact[] = [];
  subs.forEach((sub: any, i) => {
    for (const kind of ['image', 'chart', 'git'] as ArtifactKind[]) {
      const body = sub?.[kind];
      if (body && typeof body.repoURL === 'string') {
        artifacts.push({ kind, repoURL: body.repoURL, name: body.name || undefined, path: `/spec/subscriptions/${i}/${kind}`, branch: body.branch });
      }
    }
  });
  return artifacts;
}

export function artifactKey(a: SubscribedArtifact): string {
  return `${a.kind}:${a.repoURL}${a.name ? '#' + a.name : ''}`;
}

export class SimulatedFreight {
  /** Freight where every artifact is at `generation`, except those listed in `overrides`. */
  public static of(warehouse: any, generation: number, overrides: Record<string, number> = {}): SimulatedFreight {
    return new SimulatedFreight(warehouse?.metadata?.name ?? '', warehouseArtifacts(warehouse), overrides, generation);
  }

  public readonly name: string;
  /** The Freight's alias (`ctx.targetFreight.alias`; Kargo names each Freight like `wiggly-dog`). */
  public alias = '';

  constructor(
    public readonly warehouse: string,
    public readonly artifacts: SubscribedArtifact[],
    private readonly generations: Record<string, number>,
    private readonly defaultGeneration: number,
    /**
     * Versions that read as numbers, as real ones can: image tags `1.10`, chart versions `4.2`
     * (Helm accepts two-part versions) and a commit of digits only.
     */
    private readonly numericVersions = false,
  ) {
    this.name = shortHash(warehouse, artifacts.map((a) => [artifactKey(a), this.generation(a)]));
  }

  public generation(a: SubscribedArtifact): number {
    return this.generations[artifactKey(a)] ?? this.defaultGeneration;
  }

  /** The expression functions that read this Freight. */
  public functions(): ExprFunctions {
    return {
      imageFrom: (repo) => this.image(String(repo)),
      chartFrom: (repo, name) => this.chart(String(repo), name === null || name === undefined ? undefined : String(name)),
      commitFrom: (repo) => this.commit(String(repo)),
      warehouse: (name) => ({ kind: 'Warehouse', name }),
    };
  }

  private find(kind: ArtifactKind, match: (a: SubscribedArtifact) => boolean, what: string): SubscribedArtifact {
    const found = this.artifacts.find((a) => a.kind === kind && match(a));
    if (!found) throw new ExprError(`${what} not found in referenced Freight`);
    return found;
  }

  private image(repo: string): GoStruct {
    const a = this.find('image', (x) => x.repoURL === repo, `image ${repo}`);
    const gen = this.generation(a);
    return new GoStruct('v1alpha1.Image', { RepoURL: a.repoURL, Tag: this.numericVersions ? `1.${gen}0` : `1.${gen}.0`, Digest: `sha256:${shortHash(a.repoURL, gen)}${shortHash(gen, a.repoURL).slice(0, 24)}`, Annotations: {} });
  }

  private chart(repo: string, name: string | undefined): GoStruct {
    const a = this.find('chart', (x) => x.repoURL === repo && (name === undefined || x.name === name), `chart ${repo}${name ? ' ' + name : ''}`);
    const gen = this.generation(a);
    return new GoStruct('v1alpha1.Chart', { RepoURL: a.repoURL, Name: a.name ?? '', Version: this.numericVersions ? `4.${gen}` : `4.${gen}.0` });
  }

  private commit(repo: string): GoStruct {
    const a = this.find('git', (x) => normalizeGitUrl(x.repoURL) === normalizeGitUrl(repo), `commit from ${repo}`);
    const gen = this.generation(a);
    return new GoStruct('v1alpha1.GitCommit', { RepoURL: a.repoURL, ID: this.numericVersions ? digitsOnly(shortHash(a.repoURL, gen)) : shortHash(a.repoURL, gen), Branch: a.branch ?? '', Tag: '', Message: `change ${gen}` });
  }
}
