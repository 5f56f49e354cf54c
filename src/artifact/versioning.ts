import { describe } from '../util/errors';
import { goProblem } from '../util/go-parsers';

/**
 * How Kargo picks the newest image from a repository (`imageSelectionStrategy`).
 */
export enum ImageSelectionStrategy {
  /** The highest semantic version tag within a constraint. */
  SEMVER = 'SemVer',
  /** The current digest of one mutable tag (e.g. `latest`). */
  DIGEST = 'Digest',
  /** The lexically greatest tag (e.g. date-stamped tags). */
  LEXICAL = 'Lexical',
  /** The most recently built image. */
  NEWEST_BUILD = 'NewestBuild',
}

/**
 * The versioning rule of an image artifact: which new versions become Freight.
 *
 * @see https://docs.kargo.io/user-guide/reference-docs/warehouses
 *
 * @example
 * Artifact.image('ghcr.io/acme/api', { versioning: Versioning.semver('~1.4.0') });
 */
export class Versioning {
  /**
   * The highest semantic version within a constraint, in Masterminds/semver syntax as Kargo
   * reads it (`^2.0.0`, `~1.4`, `>=1.2, <2.0`, `!=1.2.3`, `1.2.x`, `^1 || ^2`, `1.0 - 2.0`).
   * @param constraint the constraint; empty accepts every semantic version
   * @param strict require full `MAJOR.MINOR.PATCH` tags (Kargo `strictSemvers`)
   */
  public static semver(constraint: string = '', strict: boolean = true): Versioning {
    const problem = semverConstraintProblem(constraint);
    return new Versioning(ImageSelectionStrategy.SEMVER, constraint || undefined, strict, problem
      ? [describe('semver constraint', constraint, problem, 'use a range such as "^1.2.0" or ">=1.2.0, <2.0.0"')]
      : []);
  }

  /**
   * The digest a mutable tag currently points at (e.g. `latest`).
   */
  public static digest(tag: string): Versioning {
    const ok = /^[\w][\w.-]{0,127}$/.test(tag ?? '');
    return new Versioning(ImageSelectionStrategy.DIGEST, tag, undefined, ok
      ? []
      : [describe('digest versioning', tag, 'needs the mutable tag to track', 'use a tag such as "latest"')]);
  }

  /** The lexically greatest tag; pair with an allow-tags regex. */
  public static lexical(): Versioning {
    return new Versioning(ImageSelectionStrategy.LEXICAL, undefined, undefined, []);
  }

  /** The most recently built image; pair with an allow-tags regex (every tag's metadata is fetched). */
  public static newestBuild(): Versioning {
    return new Versioning(ImageSelectionStrategy.NEWEST_BUILD, undefined, undefined, []);
  }

  private constructor(
    /** The Kargo image selection strategy. */
    public readonly strategy: ImageSelectionStrategy,
    /** The SemVer constraint, or the tracked tag for `Digest`. */
    public readonly constraint: string | undefined,
    /** Whether only full `MAJOR.MINOR.PATCH` tags count (SemVer only). */
    public readonly strict: boolean | undefined,
    /** @internal */
    public readonly _problems: string[]) {}

  /** Whether this rule follows a tag that can move (`Digest`). */
  public get mutable(): boolean {
    return this.strategy === ImageSelectionStrategy.DIGEST;
  }
}

/**
 * Returns why a SemVer constraint is one Kargo refuses, or undefined: Masterminds/semver v3.4.0
 * (Kargo's go.mod) `NewConstraint` itself, run by the Go parsers shipped with the library
 * (src/util/go-parsers.ts), as Kargo's webhook (`pkg/validation/validation.go`
 * `SemverConstraint`) and its image, chart and Git selectors call it. Kargo accepts an empty
 * constraint (every version).
 * @internal
 */
export function semverConstraintProblem(constraint: string): string | undefined {
  if (constraint === '') return undefined;
  const error = goProblem('semver', constraint);
  return error === undefined ? undefined : `is refused by Masterminds/semver v3.4.0, Kargo's SemVer library (${error})`;
}
