import { PlatformAppProps } from './platform-app-props';
import { sourceArtifact } from '../artifact/manifest-source';
import { ProblemList } from '../util/errors';

/**
 * Every artifact must reach the render, or Freight made by its new versions changes nothing live
 * (the controller model's `artifact-unused`), so it fails here instead. Each artifact kind knows
 * how it reaches the render (a chart through `helm-update-chart` on a Helm source, a git
 * repository where `checkoutPath` puts it, the source repository whole); the source says what
 * its render reads.
 * @internal
 */
export function checkArtifactsReachRender(problems: ProblemList, props: PlatformAppProps): void {
  const source = props.source;
  if (!source) return;
  const artifacts = props.artifacts ?? [];
  const ctx = { ...source._type.reach, own: sourceArtifact(source, artifacts)?._type, dependencies: new Map<string, string>(), checkouts: [] };
  artifacts.forEach((a, i) => a._type.checkReach(problems, i, ctx));
}
