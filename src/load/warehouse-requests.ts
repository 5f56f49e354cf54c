import { parseGoDuration } from '../util/duration';

/**
 * The requests the Warehouses of a platform make to one registry or Git host per hour, when
 * nothing changes (the steady state of polling). From Kargo v1.11.2:
 * - a Warehouse is reconciled every `spec.interval` (default `5m0s`; `pkg/controller/warehouses/warehouses.go`
 *   `Reconcile`: `RequeueAfter: warehouse.GetInterval(...)`), each reconcile discovering every subscription;
 * - an image subscription (`pkg/subscription/image.go` `DiscoverArtifacts`, `pkg/image/*_selector.go` `Select`):
 *   `SemVer` and `Lexical` list the tags (`repositoryClient.getTags`) and then fetch the manifest of each matching
 *   tag, newest first, until `discoveryLimit` (default 20, `ApplySubscriptionDefaults`) are found
 *   (`tagBasedSelector.getImagesByTags`; `getImageByTag` GETs the manifest unless `cacheByTag`);
 *   `NewestBuild` fetches the manifest of every matching tag; `Digest` fetches the one tag's manifest, no listing;
 * - a Git subscription runs one `ls-remote` and clones only when the ref moved
 *   (`pkg/subscription/git.go` `DiscoverArtifacts`, `ListRefs`, `gitRefsEqual`);
 * - a chart subscription reads the repository's `index.yaml` or lists the OCI tags once (`pkg/helm/chart/http_selector.go`, `oci_selector.go` `Select`).
 * All registry requests of one Kargo controller go through one rate limiter per registry, 20 requests/s by
 * default (`pkg/image/registry.go`, `IMAGE_REGISTRY_RATE_LIMIT`).
 * @internal
 */
export interface HostLoad {
  readonly host: string;
  /** `registry` (images), `git` or `chart` */
  readonly kind: string;
  readonly warehouses: number;
  readonly subscriptions: number;
  /** Polls of subscriptions on this host per hour. */
  readonly pollsPerHour: number;
  /** Tag listings (images), `ls-remote`s (Git) or index reads (charts) per hour. */
  readonly listingsPerHour: number;
  /** Manifest GETs per hour at most (images; 0 for Git and charts). */
  readonly manifestGetsPerHour: number;
  /** Whether a `NewestBuild` subscription fetches every matching tag, so the manifest figure is a lower bound. */
  readonly unbounded: boolean;
}

/** Kargo's default discovery limit of an image subscription. */
const DISCOVERY_LIMIT = 20;
/** The Warehouse CRD's default interval. */
const DEFAULT_INTERVAL = '5m0s';

/** @internal */
export function measureWarehouseHosts(objects: any[]): HostLoad[] {
  const hosts = new Map<string, HostTotals>();
  for (const w of objects.filter(o => o?.kind === 'Warehouse')) {
    const pollsPerHour = 3_600_000 / intervalMs(w.spec?.interval);
    for (const sub of w.spec?.subscriptions ?? []) {
      const r = subscriptionRequests(sub);
      if (!r) continue;
      const key = `${r.kind} ${r.host}`;
      const h = hosts.get(key) ?? { kind: r.kind, warehouses: new Set(), subscriptions: 0, polls: 0, listings: 0, manifests: 0, unbounded: false };
      h.warehouses.add(w);
      h.subscriptions++;
      h.polls += pollsPerHour;
      h.listings += pollsPerHour * r.listings;
      h.manifests += pollsPerHour * r.manifests;
      h.unbounded ||= r.unbounded;
      hosts.set(key, h);
    }
  }
  return [...hosts.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([key, h]) => ({
    host: key.slice(h.kind.length + 1),
    kind: h.kind,
    warehouses: h.warehouses.size,
    subscriptions: h.subscriptions,
    pollsPerHour: Math.round(h.polls),
    listingsPerHour: Math.round(h.listings),
    manifestGetsPerHour: Math.round(h.manifests),
    unbounded: h.unbounded,
  }));
}

interface HostTotals {
  readonly kind: string;
  readonly warehouses: Set<any>;
  subscriptions: number;
  polls: number;
  listings: number;
  manifests: number;
  unbounded: boolean;
}

function intervalMs(interval: string | undefined): number {
  try {
    return Math.max(parseGoDuration(interval ?? DEFAULT_INTERVAL), 1_000);
  } catch {
    return parseGoDuration(DEFAULT_INTERVAL);
  }
}

function subscriptionRequests(sub: any): { kind: string; host: string; listings: number; manifests: number; unbounded: boolean } | undefined {
  if (sub?.image) {
    const image = sub.image;
    const strategy = image.imageSelectionStrategy ?? 'SemVer';
    const limit = image.discoveryLimit || DISCOVERY_LIMIT;
    const host = registryHost(String(image.repoURL ?? ''));
    if (strategy === 'Digest') return { kind: 'registry', host, listings: 0, manifests: image.cacheByTag ? 0 : 1, unbounded: false };
    return { kind: 'registry', host, listings: 1, manifests: image.cacheByTag ? 0 : limit, unbounded: strategy === 'NewestBuild' && !image.cacheByTag };
  }
  if (sub?.git) return { kind: 'git', host: urlHost(String(sub.git.repoURL ?? '')), listings: 1, manifests: 0, unbounded: false };
  if (sub?.chart) return { kind: 'chart', host: urlHost(String(sub.chart.repoURL ?? '')), listings: 1, manifests: 0, unbounded: false };
  return undefined;
}

/**
 * The registry of an image repository as go-containerregistry's `name.ParseReference` reads it
 * (Kargo keys its rate limiters by it): the first path segment when it has a `.` or `:` or is
 * `localhost`, else Docker Hub.
 */
function registryHost(repoURL: string): string {
  const first = repoURL.split('/')[0];
  return repoURL.includes('/') && (first.includes('.') || first.includes(':') || first === 'localhost') ? first : 'index.docker.io';
}

function urlHost(url: string): string {
  const scp = /^[\w.-]+@([^:/]+):/.exec(url);
  if (scp) return scp[1];
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}
