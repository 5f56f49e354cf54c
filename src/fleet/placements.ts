import { IClusterFleet } from './cluster-fleet';

// Which clusters each app was placed on, per fleet: the fleet needs it at synth time to balance
// controller shards by the number of Applications each cluster carries.
const placements = new WeakMap<IClusterFleet, Map<string, string[]>>();
const versions = new WeakMap<IClusterFleet, number>();

/**
 * Records that an app deploys to these clusters of a fleet.
 * @internal
 */
export function recordPlacement(fleet: IClusterFleet, app: string, clusters: string[]): void {
  let byApp = placements.get(fleet);
  if (!byApp) {
    byApp = new Map();
    placements.set(fleet, byApp);
  }
  byApp.set(app, [...clusters]);
  versions.set(fleet, (versions.get(fleet) ?? 0) + 1);
}

/**
 * Changes whenever a placement is recorded, so derived results can be cached.
 * @internal
 */
export function placementVersion(fleet: IClusterFleet): number {
  return versions.get(fleet) ?? 0;
}

/**
 * How many Applications each cluster of a fleet carries, over every app recorded so far.
 * @internal
 */
export function applicationsPerCluster(fleet: IClusterFleet): Map<string, number> {
  const counts = new Map<string, number>();
  for (const clusters of placements.get(fleet)?.values() ?? []) {
    for (const c of clusters) counts.set(c, (counts.get(c) ?? 0) + 1);
  }
  return counts;
}
