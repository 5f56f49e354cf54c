import { PlatformAppProps } from './platform-app-props';
import { ArtifactKind, normalizedRepoUrl } from '../artifact/artifact';
import { describe, ProblemList, show } from '../util/errors';
import { Verification } from '../verification/verification';

/**
 * A verification arg that reads an artifact of the Freight (`VerificationArg.imageTag()`,
 * `commit()`) must name one the app subscribes to: Kargo evaluates it with the Freight being
 * verified, and `imageFrom()`/`commitFrom()` fail when the Freight has no such artifact
 * (kargo v1.11.2 `pkg/expressions/function/functions.go`), so every verification would error
 * before any check runs. Images match exactly, git URLs as `urls.NormalizeGit` compares them
 * (kargo `pkg/controller/freight/finder.go` `FindImage`, `FindCommit`).
 * @internal
 */
export function checkArgArtifacts(problems: ProblemList, props: PlatformAppProps, checks: Map<string, Verification[]>): void {
  const key = (kind: ArtifactKind, url: string) => `${kind}:${kind === ArtifactKind.GIT ? normalizedRepoUrl(url, true) : url}`;
  const subscribed = new Set((props.artifacts ?? []).map(a => key(a.kind, a.repoUrl)));
  if (props.source) subscribed.add(key(ArtifactKind.GIT, props.source.repoUrl));
  const reported = new Set<string>();
  for (const [stage, list] of checks) {
    for (const check of list) {
      for (const [name, arg] of Object.entries(check._args)) {
        const reads = arg?._reads;
        if (!reads || subscribed.has(key(reads.kind, reads.repoUrl))) continue;
        const field = `check ${show(check.name)} (stage ${show(stage)}) args.${name}`;
        if (reported.has(`${check.name}/${name}`)) continue;
        reported.add(`${check.name}/${name}`);
        const what = reads.kind === ArtifactKind.IMAGE ? 'image' : 'git repository';
        problems.add(describe(field, reads.repoUrl, `reads the ${what} of the Freight being verified, but the app does not subscribe to it, so Kargo's `
          + `${reads.kind === ArtifactKind.IMAGE ? 'imageFrom()' : 'commitFrom()'} fails and every verification errors`,
        'add it to the app\'s artifacts, or pass another arg'));
      }
    }
  }
}
