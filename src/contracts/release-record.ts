import { chartVersionOf, commitIdOf, expr, imageTagOf, literal } from './expressions';

// The release record: what each promotion's commit on `rendered/<app>/<stage>` says about the
// release it rendered, written by the Stage's `git-commit` step (kargo/promotion-steps.ts) and
// read back by `cdk8s-gitops-platform status`. Both sides use this file only.
//
// The record is a block of Git trailers (`Key: value` lines, as `git interpret-trailers` reads
// them) at the end of the message, under the one-line subject people read in `git log`. Kargo
// v1.11.2 evaluates the `${{ }}` expressions of the step's `message` before the step runs
// (`pkg/promotion/runner/builtin/git_commiter.go` takes `cfg.Message` evaluated; the `ctx`
// fields are `pkg/promotion/evaluator.go` `BuildCtxMap`: `stage`, `promotion`,
// `targetFreight.name`, `targetFreight.alias`; `imageFrom`, `chartFrom`, `commitFrom` are
// `pkg/expressions/function/functions.go`) and commits it with `git commit -m`
// (`pkg/controller/git/work_tree.go` `Commit`), whose default cleanup only trims whitespace.

/** Trailer keys of the release record. @internal */
export const RecordTrailers = {
  FREIGHT: 'Kargo-Freight',
  FREIGHT_ALIAS: 'Kargo-Freight-Alias',
  STAGE: 'Kargo-Stage',
  PROMOTION: 'Kargo-Promotion',
  IMAGE: 'Freight-Image',
  CHART: 'Freight-Chart',
  COMMIT: 'Freight-Commit',
} as const;

/** The kinds of artifact a Freight holds. @internal */
export type RecordedKind = 'image' | 'chart' | 'git';

/** One artifact's version in a release record. @internal */
export interface RecordedArtifact {
  readonly kind: RecordedKind;
  readonly repoUrl: string;
  /** The chart's name in a classic (http) chart repository. */
  readonly name?: string;
  /** The image tag, the chart version or the commit id. */
  readonly version: string;
  /** The image digest. */
  readonly digest?: string;
}

/** What one promotion's commit records. @internal */
export interface ReleaseRecord {
  readonly freight: string;
  readonly freightAlias?: string;
  readonly stage?: string;
  readonly promotion?: string;
  readonly artifacts: RecordedArtifact[];
  /** `trailers`: this format; `legacy`: the message of library versions before the trailers. */
  readonly format: 'trailers' | 'legacy';
}

/** The trailer line recording an image's tag and digest. @internal */
export function imageTrailer(repoUrl: string): string {
  return `${RecordTrailers.IMAGE}: ${repoUrl} ${expr(imageTagOf(repoUrl))} ${expr(`imageFrom(${literal(repoUrl)}).Digest`)}`;
}

/** The trailer line recording a chart's version (`name` for a classic repository). @internal */
export function chartTrailer(repoUrl: string, name: string | undefined): string {
  return `${RecordTrailers.CHART}: ${repoUrl}${name ? ` ${name}` : ''} ${expr(chartVersionOf(repoUrl, name))}`;
}

/** The trailer line recording a Git repository's commit. @internal */
export function commitTrailer(repoUrl: string): string {
  return `${RecordTrailers.COMMIT}: ${repoUrl} ${expr(commitIdOf(repoUrl))}`;
}

/**
 * The message of a promotion's commit: the subject, then the trailers of the Freight and of each
 * artifact (`artifactTrailers`, from the functions above).
 * @internal
 */
export function releaseCommitMessage(app: string, kargoStage: string, artifactTrailers: string[]): string {
  return `render ${app} for ${kargoStage} (Freight ${expr('ctx.targetFreight.name')})\n\n${releaseTrailerBlock(kargoStage, artifactTrailers)}`;
}

/** The trailer block alone (a pull request's description carries it too, for squash merges). @internal */
export function releaseTrailerBlock(kargoStage: string, artifactTrailers: string[]): string {
  return [
    ...artifactTrailers,
    `${RecordTrailers.FREIGHT}: ${expr('ctx.targetFreight.name')}`,
    `${RecordTrailers.FREIGHT_ALIAS}: ${expr('ctx.targetFreight.alias')}`,
    `${RecordTrailers.STAGE}: ${kargoStage}`,
    `${RecordTrailers.PROMOTION}: ${expr('ctx.promotion')}`,
  ].join('\n');
}

const TRAILER = /^([A-Za-z][A-Za-z0-9-]*):[ \t]*(.*?)[ \t]*$/;

/**
 * The release record of a commit message: the last paragraph holding a `Kargo-Freight` trailer,
 * else the message this library wrote before it had trailers (see `parseLegacyRecord`).
 * @internal
 */
export function parseReleaseRecord(message: string, legacyArtifacts: LegacyArtifact[] = []): ReleaseRecord | undefined {
  const paragraphs = message.split(/\n[ \t]*\n/);
  for (let i = paragraphs.length - 1; i >= 0; i--) {
    const trailers = paragraphs[i].split('\n').map((l) => TRAILER.exec(l)).filter((m): m is RegExpExecArray => m !== null);
    const freight = trailers.find(([, key]) => key === RecordTrailers.FREIGHT)?.[2];
    if (!freight) continue;
    const one = (key: string) => trailers.find(([, k]) => k === key)?.[2] || undefined;
    return {
      freight,
      freightAlias: one(RecordTrailers.FREIGHT_ALIAS),
      stage: one(RecordTrailers.STAGE),
      promotion: one(RecordTrailers.PROMOTION),
      // fields are separated by one space: an empty tag stays an empty field
      artifacts: trailers.flatMap(([, key, value]) => artifactOf(key, value.split(' '))),
      format: 'trailers',
    };
  }
  return parseLegacyRecord(message, legacyArtifacts);
}

function artifactOf(key: string, fields: string[]): RecordedArtifact[] {
  if (key === RecordTrailers.IMAGE && fields.length >= 2) {
    return [{ kind: 'image', repoUrl: fields[0], version: fields[1], digest: fields[2] || undefined }];
  }
  if (key === RecordTrailers.CHART && fields.length >= 2) {
    return [fields.length >= 3
      ? { kind: 'chart', repoUrl: fields[0], name: fields[1], version: fields[2] }
      : { kind: 'chart', repoUrl: fields[0], version: fields[1] }];
  }
  if (key === RecordTrailers.COMMIT && fields.length >= 2) return [{ kind: 'git', repoUrl: fields[0], version: fields[1] }];
  return [];
}

/** An artifact the app subscribes to, to recognise its line in a message without trailers. @internal */
export interface LegacyArtifact {
  readonly kind: RecordedKind;
  readonly repoUrl: string;
  readonly name?: string;
}

const LEGACY_SUBJECT = /^render \S+ for \S+ \(Freight ([^)\s]+)\)\s*$/;

/**
 * The message of library versions before the trailers: `render <app> for <stage> (Freight <name>)`,
 * then one line per artifact, `<image repo>:<tag>`, `<git repo>@<commit>` or `<chart repo>@<version>`.
 * @internal
 */
export function parseLegacyRecord(message: string, artifacts: LegacyArtifact[]): ReleaseRecord | undefined {
  const [subject, ...body] = message.split('\n');
  const freight = LEGACY_SUBJECT.exec(subject)?.[1];
  if (!freight) return undefined;
  const recorded: RecordedArtifact[] = [];
  for (const line of body.map((l) => l.trim())) {
    // the longest repository first: one URL may be the prefix of another
    const known = [...artifacts].sort((a, b) => b.repoUrl.length - a.repoUrl.length)
      .find((a) => line.startsWith(`${a.repoUrl}${a.kind === 'image' ? ':' : '@'}`));
    if (!known) continue;
    const version = line.slice(known.repoUrl.length + 1);
    if (version) recorded.push({ kind: known.kind, repoUrl: known.repoUrl, name: known.name, version });
  }
  return { freight, artifacts: recorded, format: 'legacy' };
}
