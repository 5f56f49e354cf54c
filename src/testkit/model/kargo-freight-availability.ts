/**
 * Which Freight a Kargo v1.11.2 Stage may take, over simulated time (seconds since the release).
 * Two functions decide it upstream, and they disagree:
 * - `pkg/api/stage.go` `ListFreightAvailableToStage` → `pkg/api/warehouse.go`
 *   `ListFreightFromWarehouse`: what auto-promotion (`regular_stages.go` `autoPromoteFreight`),
 *   control-flow Stages (`control_flow_stages.go` `reconcile`) and the UI's Freight list
 *   (`pkg/server/query_freights_v1alpha1.go`) see;
 * - `api/v1alpha1/stage_types.go` `Stage.IsFreightAvailable`: what the Promotion webhook
 *   (`pkg/webhook/kubernetes/promotion/webhook.go` `ValidateCreate`) and the Promotion
 *   controller (`pkg/controller/promotions/promotions.go`) accept.
 */

/** A Freight's status, as `api/v1alpha1/freight_types.go` keeps it. */
export interface ModelFreight {
  readonly name: string;
  readonly warehouse: string;
  /** `status.verifiedIn`: Stage → when it was verified there. */
  readonly verifiedIn: Map<string, number>;
  /** `status.currentlyIn`: Stage → since when the Freight is in use there. */
  readonly currentlyIn: Map<string, number>;
  /** `status.approvedFor`: Stages a person approved the Freight for. */
  readonly approvedFor: Set<string>;
}

/** The part of a Stage's `spec.requestedFreight[]` availability depends on. */
export interface FreightRequest {
  readonly warehouse: string;
  readonly direct: boolean;
  readonly stages: string[];
  /** `availabilityStrategy`: `All`, `OneOf` or unset (OneOf). */
  readonly strategy?: string;
  /** `requiredSoakTime`, in seconds. */
  readonly soakSeconds?: number;
}

/**
 * `Freight.GetLongestSoak`: 0 unless verified in the Stage; else the longer of the longest
 * completed soak and the time since the Freight entered the Stage, if it is there now. Freight is
 * never current in a control-flow Stage, so its soak there is always 0 (akuity/kargo#6360). The
 * model releases one Freight, which never leaves a Stage: no completed soaks.
 */
export function longestSoak(f: ModelFreight, stage: string, now: number): number {
  if (!f.verifiedIn.has(stage)) return 0;
  const since = f.currentlyIn.get(stage);
  return since === undefined ? 0 : now - since;
}

/** `Freight.HasSoakedIn`: no required soak always passes. */
function hasSoakedIn(f: ModelFreight, stage: string, soakSeconds: number | undefined, now: number): boolean {
  return soakSeconds === undefined || longestSoak(f, stage, now) >= soakSeconds;
}

/**
 * `ListFreightFromWarehouse` as written at v1.11.2: the Freight approved for the Stage, plus the
 * Freight verified in every (All) or any (OneOf) upstream; then, with a soak, each one is kept
 * if approved, else by the set of EVERY Stage it has soaked in: equal to the upstreams (All,
 * so a Freight that soaked in an earlier stage too is dropped) or not empty (OneOf, so a soak
 * in any earlier stage counts).
 */
export function listFreightFromWarehouse(freight: ModelFreight[], stage: string, req: FreightRequest, now: number): ModelFreight[] {
  const own = freight.filter(f => f.warehouse === req.warehouse);
  if (req.direct) return own;
  const all = req.strategy === 'All';
  const listed = own.filter(f => f.approvedFor.has(stage)
    || (all ? req.stages.every(s => f.verifiedIn.has(s)) : req.stages.some(s => f.verifiedIn.has(s))));
  if (req.stages.length === 0 || req.soakSeconds === undefined) return listed;
  return listed.filter(f => {
    if (f.approvedFor.has(stage)) return true;
    const soaked = [...f.verifiedIn.keys()].filter(s => hasSoakedIn(f, s, req.soakSeconds, now));
    if (all) return soaked.length === new Set(req.stages).size && req.stages.every(s => soaked.includes(s));
    return soaked.length > 0;
  });
}

/** `ListFreightAvailableToStage`: the union over the Stage's requests, by name. */
export function listFreightAvailableToStage(freight: ModelFreight[], stage: string, requests: FreightRequest[], now: number): ModelFreight[] {
  const byName = new Map<string, ModelFreight>();
  for (const req of requests) {
    for (const f of listFreightFromWarehouse(freight, stage, req, now)) byName.set(f.name, f);
  }
  return [...byName.values()].sort((a, b) => a.name.localeCompare(b.name));
}

/**
 * `Stage.IsFreightAvailable`: approved, direct, or verified and soaked in every (All) or one
 * (otherwise) upstream — each upstream judged on its own soak, unlike the list.
 */
export function isFreightAvailable(f: ModelFreight, stage: string, requests: FreightRequest[], now: number): boolean {
  for (const req of requests.filter(r => r.warehouse === f.warehouse)) {
    if (f.approvedFor.has(stage) || req.direct) return true;
    const ok = (s: string) => f.verifiedIn.has(s) && hasSoakedIn(f, s, req.soakSeconds, now);
    // All answers for the first request of the Freight's origin; OneOf looks on
    if (req.strategy === 'All') return req.stages.every(ok);
    if (req.stages.some(ok)) return true;
  }
  return false;
}
