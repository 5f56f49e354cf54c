import { controllerFindingUpstream } from '../src/testkit';

/**
 * The upstream column of a model finding: `model: test kit model of <upstream>`. Every label says
 * `model:` so a reader never takes a model finding for a verdict of Argo CD, Kargo or Argo
 * Rollouts. Where upstream decides each code is written once, beside the code, in the test kit
 * (src/testkit/model/controller-finding.ts); a code it does not know says so.
 */
export function modelUpstream(code: string): string {
  const of = controllerFindingUpstream(code);
  return `model: test kit model of ${of ?? code} (${code}${of ? '' : '; no upstream function listed in src/testkit/model/controller-finding.ts'})`;
}
