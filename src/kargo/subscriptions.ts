import { Artifact } from '../artifact/artifact';
import { ManifestSource, warehouseArtifacts } from '../artifact/manifest-source';

/**
 * The Warehouse subscriptions for an app: one per artifact, plus the manifest source's Git
 * repository (so a values change becomes Freight like a new image) unless an artifact already
 * subscribes to it. Each artifact kind writes its own, following Kargo's subscription JSON
 * Schemas (v1.11), in the form Kargo's defaulting webhook leaves it (see `withKargoDefaults`).
 * @internal
 */
export function warehouseSubscriptions(artifacts: Artifact[], source: ManifestSource): any[] {
  return warehouseArtifacts(source, artifacts).map(a => withKargoDefaults(a.subscription()));
}

/** Kargo v1.11.2's `defaultDiscoveryLimit` and each subscriber's own (the same 20). */
const DISCOVERY_LIMIT = 20;

/**
 * A subscription with the values Kargo v1.11.2's Warehouse defaulting webhook fills in
 * (`pkg/webhook/kubernetes/warehouse/webhook.go` `Default`, which calls each subscriber's
 * `ApplySubscriptionDefaults` in `pkg/subscription/image.go`, `git.go`, `chart.go`):
 * image: `imageSelectionStrategy` SemVer, `strictSemvers` true, `discoveryLimit` 20;
 * git: `commitSelectionStrategy` NewestFromBranch, `strictSemvers` true, `discoveryLimit` 20;
 * chart: `discoveryLimit` 20. Every other field of the subscription types is `omitempty`
 * (`api/v1alpha1/zz_subscription_types.go`), so the webhook's re-encoding adds nothing else.
 * Written out, the Warehouse in Git is the one the API server stores: Argo CD's diff of a
 * server-side applied object sees no difference, instead of re-syncing it forever.
 */
function withKargoDefaults(subscription: any): any {
  const { image, git, chart } = subscription;
  if (image) return { image: withSelectionDefaults(image, 'imageSelectionStrategy', 'SemVer') };
  if (git) return { git: withSelectionDefaults(git, 'commitSelectionStrategy', 'NewestFromBranch') };
  return { chart: { ...chart, discoveryLimit: chart.discoveryLimit ?? DISCOVERY_LIMIT } };
}

/** An image or git subscription with its selection strategy, `strictSemvers` and `discoveryLimit` defaulted. */
function withSelectionDefaults(sub: any, strategyField: string, strategy: string): any {
  return {
    ...sub,
    [strategyField]: sub[strategyField] ?? strategy,
    strictSemvers: sub.strictSemvers ?? true,
    discoveryLimit: sub.discoveryLimit ?? DISCOVERY_LIMIT,
  };
}
