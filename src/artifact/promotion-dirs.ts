import { variable } from '../contracts/expressions';

// The working directories of a promotion, shared by the steps the emitter writes and the
// fragments the artifact and source kinds contribute.

/** Where the source repository is checked out at the Freight's commit. @internal */
export const SRC = './src';
/** Where the wave's release branch is checked out, cleared and rendered into. @internal */
export const OUT = './out';
/** Scratch files of a render, outside ./out so they are never committed. @internal */
export const WORK = './work';

/** A source path whose `{token}`s become the render task's variables. @internal */
export function withTokens(path: string): string {
  return path.replace(/\{(\w+)\}/g, (_, token) => variable(token));
}

/** Where the render task writes one cluster's manifests. @internal */
export function clusterManifests(): string {
  return `${OUT}/${variable('cluster')}/manifests.yaml`;
}
