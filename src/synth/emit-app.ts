import { Chart } from 'cdk8s';
import { defineArgoCdRelease } from '../argocd/argocd-release';
import { PlatformLabels } from '../contracts/labels';
import { defineReceiverSecret } from '../fleet/webhook-config';
import { defineCredentialSecrets } from '../kargo/credential-secrets';
import { defineKargoRelease } from '../kargo/kargo-release';
import { definePromoterRbac } from '../kargo/promoter-rbac';
import { AppRelease } from '../plan/app-release';

/**
 * The one synthesis step of an app: turns its resolved release into Kargo and Argo CD objects in
 * `chart`, plus a sibling chart (hence its own output file) per cluster that runs its own Argo CD.
 * Reads nothing but the release; call it once per app.
 * @internal
 */
export function emitApp(chart: Chart, release: AppRelease): void {
  defineKargoRelease(chart, release);
  definePromoterRbac(chart, release.plan);
  defineCredentialSecrets(chart, release.plan.app, release.plan.project, release.accesses);
  for (const r of release.webhookReceivers) defineReceiverSecret(chart, r, release.plan.project, { [PlatformLabels.APP]: release.plan.app });

  // the plan places each such cluster once (AppRelease.perClusterArgoCd): one chart each
  defineArgoCdRelease(chart, release, (perCluster) => new Chart(chart.node.scope ?? chart, perCluster.chartId, { disableResourceNameHashes: true }));
}
