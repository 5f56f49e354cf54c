import { Duration } from 'cdk8s';
import { DiscoveryMode, DiscoveryPlan } from './lead-time';
import { Artifact } from '../artifact/artifact';
import { ManifestSource, warehouseArtifacts } from '../artifact/manifest-source';
import { WebhookReceiver } from '../fleet/webhook-receiver';
import { parseGoDuration, toGoDuration } from '../util/duration';

/**
 * Kargo's default Warehouse interval (api/v1alpha1/warehouse_types.go, `WarehouseSpec.Interval`,
 * `+kubebuilder:default="5m0s"`): the Warehouse controller requeues each Warehouse that long
 * after it reconciled (pkg/controller/warehouses/warehouses.go, `Reconcile`, `RequeueAfter:
 * warehouse.GetInterval(...)`), and each reconcile lists every subscribed repository.
 * @internal
 */
export const POLL_INTERVAL = '5m0s';

/**
 * How often a Warehouse a webhook refreshes still polls, in case a push is lost (a receiver
 * down, a webhook not registered): an hour cuts the registry and Git traffic twelvefold.
 * @internal
 */
export const DEFAULT_FALLBACK_INTERVAL = Duration.hours(1);

/** The receivers that can refresh one app's Warehouse: the platform's and the app's own. @internal */
export interface DiscoveryInput {
  readonly artifacts: Artifact[];
  readonly source: ManifestSource;
  readonly project: string;
  /** The platform's receivers (the ClusterConfig's). */
  readonly platformReceivers: WebhookReceiver[];
  /** The app's own receivers (its ProjectConfig's). */
  readonly projectReceivers: WebhookReceiver[];
  /** How often a Warehouse webhooks refresh still polls. */
  readonly fallbackInterval?: Duration;
}

/**
 * How an app's Warehouse discovers artifacts: by webhook when a ready receiver covers every repository
 * it subscribes to (a receiver refreshes the whole Warehouse: pkg/webhook/external/refresh.go,
 * `refreshWarehouses`), then polling only as a slow fallback; otherwise Kargo's 5-minute polling.
 * @internal
 */
export function planDiscovery(input: DiscoveryInput): DiscoveryPlan {
  // what the Warehouse subscribes to, as each kind spells its repository
  const repos = warehouseArtifacts(input.source, input.artifacts).map(t => t.repoUrl);
  const receivers = new Set<string>();
  const notReady = new Set<string>();
  const polled: string[] = [];
  const named = (r: WebhookReceiver, own: boolean) => (own ? `${input.project}/${r.name}` : r.name);
  for (const repo of repos) {
    // an app's own receiver first: Kargo asks both, and the team chose it for this repository.
    // Only a receiver declared ready counts: one whose Secret is missing (or whose URL is not
    // registered upstream) refreshes nothing, and the Warehouse must not stop polling for it.
    const own = input.projectReceivers.filter(r => r.covers(repo));
    const platform = input.platformReceivers.filter(r => r.covers(repo));
    const ready = own.find(r => r.ready) ?? platform.find(r => r.ready);
    if (ready) {
      receivers.add(named(ready, own.includes(ready)));
    } else {
      polled.push(repo);
      own.forEach(r => notReady.add(named(r, true)));
      platform.forEach(r => notReady.add(named(r, false)));
    }
  }
  if (polled.length > 0 || repos.length === 0) {
    return {
      mode: DiscoveryMode.POLLING,
      interval: POLL_INTERVAL,
      waitSeconds: parseGoDuration(POLL_INTERVAL) / 1000,
      receivers: [...receivers].sort(),
      polled: [...new Set(polled)],
      notReady: [...notReady].sort(),
    };
  }
  const fallback = input.fallbackInterval ?? DEFAULT_FALLBACK_INTERVAL;
  const webhook = { mode: DiscoveryMode.WEBHOOK, interval: toGoDuration(fallback), waitSeconds: 0 };
  return { ...webhook, receivers: [...receivers].sort(), polled: [], notReady: [] };
}
