import { k8s } from 'cdk8s-plus-28';
import * as argocd from '../../imports/argocd-argoproj.io';
import * as kargo from '../../imports/kargo-kargo.akuity.io';
import * as rollouts from '../../imports/rollouts-argoproj.io';
import { registerGeneratedClasses } from '../synth-app/fast-to-json';

let registered = false;

/**
 * Lets `PlatformSynthApp` render the objects of the generated classes the emitters use (Kargo,
 * Argo CD and Rollouts CRDs, cdk8s-plus's Kubernetes kinds) in one walk instead of cdk8s's
 * resolve, sanitize and convert (`synth-app/fast-to-json.ts`): at 100 clusters × 1000 apps that
 * is most of the rendering time. The output is the same either way; once per process.
 * @internal
 */
export function registerFastRenderedClasses(): void {
  if (registered) return;
  registered = true;
  for (const module of [argocd, kargo, rollouts, k8s]) registerGeneratedClasses(module as unknown as Record<string, unknown>);
}
