import { PlatformAppProps } from './platform-app-props';
import { sourceSubscription } from '../artifact/manifest-source';
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
  const subscribed = new Set((props.artifacts ?? []).map(a => a._type.freightIdentity));
  if (props.source) subscribed.add(sourceSubscription(props.source).freightIdentity);
  const reported = new Set<string>();
  for (const [stage, list] of checks) {
    for (const check of list) {
      for (const [name, arg] of Object.entries(check._args)) {
        const reads = arg?._reads;
        if (!reads || subscribed.has(reads.freightIdentity)) continue;
        const field = `check ${show(check.name)} (stage ${show(stage)}) args.${name}`;
        if (reported.has(`${check.name}/${name}`)) continue;
        reported.add(`${check.name}/${name}`);
        problems.add(describe(field, reads.repoUrl, `reads the ${reads.freightNoun} of the Freight being verified, but the app does not subscribe to it, so Kargo's `
          + `${reads.freightFunction} fails and every verification errors`,
        'add it to the app\'s artifacts, or pass another arg'));
      }
    }
  }
}
