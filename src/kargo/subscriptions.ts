import { Artifact } from '../artifact/artifact';
import { ManifestSource, warehouseArtifacts } from '../artifact/manifest-source';

/**
 * The Warehouse subscriptions for an app: one per artifact, plus the manifest source's Git
 * repository (so a values change becomes Freight like a new image) unless an artifact already
 * subscribes to it. Each artifact kind writes its own, following Kargo's subscription JSON
 * Schemas (v1.11).
 * @internal
 */
export function warehouseSubscriptions(artifacts: Artifact[], source: ManifestSource): any[] {
  return warehouseArtifacts(source, artifacts).map(a => a.subscription());
}
