import { ControllerLoadLimits } from './controller-load-limits';
import { ControllerLoad } from '../load/controller-load';
import { describe, show } from '../util/errors';

/** One broken load limit. @internal */
export interface LoadViolation {
  readonly ruleId: string;
  readonly message: string;
}

/** The ids the load limits report under (what `severities` may name besides the rules). @internal */
export const LOAD_RULE_IDS = ['max-applicationsets-per-argocd', 'max-applications-per-shard', 'max-stages-per-kargo-shard',
  'max-registry-requests-per-hour', 'max-git-requests-per-hour'];

const POLLING_FIX = 'lengthen the Warehouses\' interval, or refresh them with webhook receivers and poll less';

/** Checks the limits that are set; the subject of each message is the figure and where it is. @internal */
export function loadViolations(load: ControllerLoad, limits: ControllerLoadLimits): LoadViolation[] {
  const out: LoadViolation[] = [];
  const check = (ruleId: string, limit: number | undefined, value: number, field: string, fix: string) => {
    if (limit !== undefined && value > limit) out.push({ ruleId, message: describe(field, value, `must be at most ${limit}`, fix) });
  };
  for (const a of load.argoCds) {
    check('max-applicationsets-per-argocd', limits.maxApplicationSetsPerArgoCd, a.applicationSets, `ApplicationSets on Argo CD ${a.instance}`,
      'split the platform over more Argo CD instances (ArgoCdTopology.perCluster()) or give apps fewer ApplicationSets');
    if (a.applicationSets === 0) continue; // an Argo CD of its own on a cluster has one controller and one cluster
    for (const s of a.shards) {
      check('max-applications-per-shard', limits.maxApplicationsPerShard, s.applications, `Applications on application-controller shard ${show(s.shard)} of Argo CD ${a.instance}`,
        'raise applicationControllerShards on the ClusterFleet (and the controller\'s replicas)');
    }
  }
  for (const k of load.kargoShards) {
    check('max-stages-per-kargo-shard', limits.maxStagesPerKargoShard, k.stages, `Stages on Kargo shard ${show(k.shard === '' ? '(default)' : k.shard)}`,
      'route clusters to more Kargo shards (ArgoCdTopology.perCluster({ kargoShard })) or split stages into fewer waves');
  }
  for (const h of load.hosts) {
    if (h.kind === 'registry') {
      check('max-registry-requests-per-hour', limits.maxRegistryRequestsPerHour, h.listingsPerHour + h.manifestGetsPerHour, `requests per hour to registry ${show(h.host)}`, POLLING_FIX);
    } else if (h.kind === 'git') {
      check('max-git-requests-per-hour', limits.maxGitRequestsPerHour, h.listingsPerHour, `ls-remotes per hour to Git host ${show(h.host)}`, POLLING_FIX);
    }
  }
  return out;
}

/** What is wrong with one limit's value, if anything. @internal */
export function limitProblem(value: unknown): string | undefined {
  return value === undefined || (Number.isInteger(value) && (value as number) >= 1) ? undefined : 'must be a whole number >= 1';
}
