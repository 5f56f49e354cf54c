import { ArgoCdTransition, argoCdTransition } from './argocd-transition';
import { canonicalJson, compare, FLEET_GROUP, ManifestObject, ManifestSet } from './manifest-set';
import { describeFieldChange, fieldChanges } from './object-fields';
import { AppModel, ArtifactModel, ModelOptions, readModels, StageModel, WaveModel } from './release-model';
import { PlatformLabels } from '../contracts/labels';
import { modelApplications } from '../testkit/model/argocd-applications';

/** Objects added, changed (deep-unequal) and removed, by key (`[cluster] apiVersion kind ns/name`), sorted. */
export interface ObjectChanges {
  readonly added: string[];
  readonly changed: string[];
  readonly removed: string[];
}

/** A value before and after the change. */
export interface Before<T> {
  readonly before: T;
  readonly after: T;
}

/** What changed in one wave (matched by name). */
export interface WaveChange {
  readonly wave: string;
  readonly status: 'added' | 'removed' | 'changed';
  readonly before?: WaveModel;
  readonly after?: WaveModel;
  readonly clustersAdded: string[];
  readonly clustersRemoved: string[];
}

/** What changed in one pipeline stage (matched by name). */
export interface StageChange {
  readonly stage: string;
  readonly status: 'added' | 'removed' | 'changed';
  /** Whether the stage is production before or after the change. */
  readonly production: boolean;
  readonly waveCount: Before<number>;
  /**
   * Waves added, removed or changed, in promotion order (after, then removed ones). Waves match by
   * name; a wave whose name is new matches the unmatched old wave at the same position (renamed).
   */
  readonly waves: WaveChange[];
  readonly gates?: Before<string[]>;
  readonly soak?: Before<string[]>;
  readonly checks?: Before<string[]>;
  readonly releaseBranchesAdded: string[];
  readonly releaseBranchesRemoved: string[];
}

/** What changed in one app. */
export interface AppChange {
  readonly app: string;
  /** `added` / `removed`: the whole app is new or gone. */
  readonly status: 'added' | 'removed' | 'changed';
  readonly before?: AppModel;
  readonly after?: AppModel;
  readonly stages: StageChange[];
  /** Clusters the app deploys to after but not before, and the reverse. */
  readonly clustersAdded: string[];
  readonly clustersRemoved: string[];
  readonly artifactsAdded: ArtifactModel[];
  readonly artifactsRemoved: ArtifactModel[];
  readonly artifactsChanged: Array<{ id: string } & Before<string>>;
  readonly objects: ObjectChanges;
  /** The subset of `objects` that belongs to a production stage or a production cluster. */
  readonly productionObjects: ObjectChanges;
  /** What the central Argo CD's ApplicationSet controller does with the change. */
  readonly argoCd: ArgoCdTransition;
  /** The lead time before and after, when the change alters it (`unknown` where a side records none). */
  readonly leadTime?: Before<string>;
}

/** What changed in the fleet (cluster Secrets and `fleet*.k8s.yaml`). */
export interface FleetChange {
  readonly clustersAdded: string[];
  readonly clustersRemoved: string[];
  readonly clustersChanged: string[];
  /** Per changed cluster: `<JSON pointer>: <before> → <after>` for each changed leaf field (`(redacted)` for the Secret's data). */
  readonly clusterFieldChanges: Record<string, string[]>;
  readonly objects: ObjectChanges;
}

/** The whole change between two synthesized trees. */
export interface PlanChange {
  readonly base: ManifestSet;
  readonly head: ManifestSet;
  readonly baseModels: Map<string, AppModel>;
  readonly headModels: Map<string, AppModel>;
  /** Affected apps, sorted by name. */
  readonly apps: AppChange[];
  /** Apps whose objects are identical, sorted. */
  readonly unaffected: string[];
  /** Undefined when the fleet did not change. */
  readonly fleet?: FleetChange;
}

const setDiff = (a: string[], b: string[]): string[] => a.filter((x) => !b.includes(x));
const sameList = (a: string[], b: string[]): boolean => a.length === b.length && a.every((x, i) => x === b[i]);
const uniqueSorted = (values: Iterable<string>): string[] => [...new Set(values)].sort(compare);

/** Compares two synthesized trees. */
export function diffTrees(base: ManifestSet, head: ManifestSet, options: ModelOptions = {}): PlanChange {
  const baseModels = readModels(base, options);
  const headModels = readModels(head, options);
  const groups = uniqueSorted([...base.groups(), ...head.groups()]).filter((g) => g !== FLEET_GROUP);
  const apps: AppChange[] = [];
  const unaffected: string[] = [];
  for (const group of groups) {
    const objects = diffObjects(base.ofGroup(group), head.ofGroup(group));
    if (objects.added.length + objects.changed.length + objects.removed.length === 0) {
      unaffected.push(group);
      continue;
    }
    const argoCd = argoCdTransition([...base.ofGroup(FLEET_GROUP), ...base.ofGroup(group)], [...head.ofGroup(FLEET_GROUP), ...head.ofGroup(group)],
      options.applicationSetPolicy);
    apps.push(diffApp(group, baseModels.get(group), headModels.get(group), objects, base.ofGroup(group), head.ofGroup(group), argoCd,
      { before: base.ofGroup(FLEET_GROUP), after: head.ofGroup(FLEET_GROUP) }));
  }
  return { base, head, baseModels, headModels, apps, unaffected, fleet: diffFleet(base, head) };
}

/** Diffs two lists of objects by key. */
export function diffObjects(before: ManifestObject[], after: ManifestObject[]): ObjectChanges {
  const b = new Map(before.map((o) => [o.key, o]));
  const a = new Map(after.map((o) => [o.key, o]));
  return {
    added: [...a.keys()].filter((k) => !b.has(k)).sort(compare),
    removed: [...b.keys()].filter((k) => !a.has(k)).sort(compare),
    // the two sides share the objects of a byte-identical file (see loadPair): equal without a look
    changed: [...a.keys()].filter((k) => b.has(k) && b.get(k)!.obj !== a.get(k)!.obj && canonicalJson(b.get(k)!.obj) !== canonicalJson(a.get(k)!.obj))
      .sort(compare),
  };
}

function diffApp(app: string, before: AppModel | undefined, after: AppModel | undefined, objects: ObjectChanges,
  baseObjects: ManifestObject[], headObjects: ManifestObject[], argoCd: ArgoCdTransition, fleets: Before<ManifestObject[]>): AppChange {
  const stageNames = uniqueSorted([...(before?.stages ?? []), ...(after?.stages ?? [])].map((s) => s.name));
  const order = (name: string) => {
    const i = after?.stages.findIndex((s) => s.name === name) ?? -1;
    return i >= 0 ? i : 1000 + (before?.stages.findIndex((s) => s.name === name) ?? 0);
  };
  const stages = stageNames.sort((x, y) => order(x) - order(y) || compare(x, y))
    .map((name) => diffStage(name, before?.stages.find((s) => s.name === name), after?.stages.find((s) => s.name === name)))
    .filter((s): s is StageChange => s !== undefined);

  const artifactsBefore = new Map((before?.artifacts ?? []).map((x) => [x.id, x]));
  const artifactsAfter = new Map((after?.artifacts ?? []).map((x) => [x.id, x]));

  // production: labelled with a production stage, or in a per-cluster file of a production cluster
  const productionStages = new Set([...(before?.stages ?? []), ...(after?.stages ?? [])].filter((s) => s.production).map((s) => s.name));
  const productionClusters = new Set([...(before?.stages ?? []), ...(after?.stages ?? [])]
    .filter((s) => s.production).flatMap((s) => s.waves.flatMap((w) => w.clusters)));
  const byKey = new Map([...baseObjects, ...headObjects].map((o) => [o.key, o]));
  const isProduction = (key: string) => {
    const o = byKey.get(key)!;
    const stage = o.obj?.metadata?.labels?.[PlatformLabels.PIPELINE_STAGE];
    if (typeof stage === 'string') return productionStages.has(stage);
    if (o.obj?.kind === 'ApplicationSet') return changesProductionApplications(key, fleets, baseObjects, headObjects, productionStages);
    return o.cluster !== '' && productionClusters.has(o.cluster);
  };

  return {
    app,
    status: !before && baseObjects.length === 0 ? 'added' : !after && headObjects.length === 0 ? 'removed' : 'changed',
    before,
    after,
    stages,
    clustersAdded: setDiff(after?.clusters ?? [], before?.clusters ?? []),
    clustersRemoved: setDiff(before?.clusters ?? [], after?.clusters ?? []),
    artifactsAdded: [...artifactsAfter.values()].filter((x) => !artifactsBefore.has(x.id)),
    artifactsRemoved: [...artifactsBefore.values()].filter((x) => !artifactsAfter.has(x.id)),
    artifactsChanged: [...artifactsAfter.values()]
      .filter((x) => artifactsBefore.has(x.id) && artifactsBefore.get(x.id)!.versioning !== x.versioning)
      .map((x) => ({ id: x.id, before: artifactsBefore.get(x.id)!.versioning, after: x.versioning })),
    objects,
    productionObjects: {
      added: objects.added.filter(isProduction),
      changed: objects.changed.filter(isProduction),
      removed: objects.removed.filter(isProduction),
    },
    argoCd,
    leadTime: before && after && before.leadTime !== after.leadTime
      ? { before: before.leadTime ?? 'unknown', after: after.leadTime ?? 'unknown' } : undefined,
  };
}

/**
 * Whether an ApplicationSet that serves several pipeline stages (its generators carry each wave)
 * changes what it generates for a production stage: its Applications of those stages, as the
 * test kit's model generates them from the fleet before and after, differ.
 */
function changesProductionApplications(key: string, fleets: Before<ManifestObject[]>, baseObjects: ManifestObject[], headObjects: ManifestObject[],
  productionStages: Set<string>): boolean {
  const generated = (fleet: ManifestObject[], objects: ManifestObject[]) => {
    const appSet = objects.find((o) => o.key === key);
    if (!appSet) return [];
    return modelApplications([...fleet.map((o) => o.obj), appSet.obj])
      .filter((a) => productionStages.has(a.labels[PlatformLabels.PIPELINE_STAGE] ?? ''))
      .map(({ origin: _origin, ...a }) => canonicalJson(a)).sort(compare);
  };
  return !sameList(generated(fleets.before, baseObjects), generated(fleets.after, headObjects));
}

function diffStage(stage: string, before: StageModel | undefined, after: StageModel | undefined): StageChange | undefined {
  const wavesBefore = before?.waves ?? [];
  const wavesAfter = after?.waves ?? [];
  // waves match by name; a renamed wave matches the unmatched wave at the same position
  const pairs: Array<[WaveModel | undefined, WaveModel | undefined]> = [];
  const unmatchedBefore = wavesBefore.filter((b) => !wavesAfter.some((a) => a.name === b.name));
  wavesAfter.forEach((a, i) => {
    const byName = wavesBefore.find((b) => b.name === a.name);
    const candidate = wavesBefore[i];
    const b = byName ?? (candidate && unmatchedBefore.includes(candidate) ? candidate : undefined);
    if (b && unmatchedBefore.includes(b)) unmatchedBefore.splice(unmatchedBefore.indexOf(b), 1);
    pairs.push([b, a]);
  });
  unmatchedBefore.forEach((b) => pairs.push([b, undefined]));
  const waves: WaveChange[] = [];
  for (const [b, a] of pairs) {
    const change: WaveChange = {
      wave: (a ?? b)!.name,
      status: !b ? 'added' : !a ? 'removed' : 'changed',
      before: b,
      after: a,
      clustersAdded: setDiff(a?.clusters ?? [], b?.clusters ?? []),
      clustersRemoved: setDiff(b?.clusters ?? [], a?.clusters ?? []),
    };
    if (!a || !b || canonicalJson({ ...a, targets: [], releases: [] }) !== canonicalJson({ ...b, targets: [], releases: [] })) waves.push(change);
  }
  const all = (m: StageModel | undefined, f: (w: WaveModel) => string[]) => uniqueSorted((m?.waves ?? []).flatMap(f));
  const compareField = (f: (w: WaveModel) => string[]): Before<string[]> | undefined => {
    const [x, y] = [all(before, f), all(after, f)];
    return before && after && !sameList(x, y) ? { before: x, after: y } : undefined;
  };
  const branchesBefore = all(before, (w) => w.releaseBranches);
  const branchesAfter = all(after, (w) => w.releaseBranches);
  const result: StageChange = {
    stage,
    status: !before ? 'added' : !after ? 'removed' : 'changed',
    production: Boolean(before?.production || after?.production),
    waveCount: { before: wavesBefore.length, after: wavesAfter.length },
    waves,
    gates: compareField((w) => w.gates),
    soak: compareField((w) => w.soak),
    checks: compareField((w) => w.checks),
    releaseBranchesAdded: setDiff(branchesAfter, branchesBefore),
    releaseBranchesRemoved: setDiff(branchesBefore, branchesAfter),
  };
  const changed = result.status !== 'changed' || waves.length > 0 || result.gates || result.soak || result.checks
    || result.releaseBranchesAdded.length > 0 || result.releaseBranchesRemoved.length > 0
    || before?.production !== after?.production;
  return changed ? result : undefined;
}

function diffFleet(base: ManifestSet, head: ManifestSet): FleetChange | undefined {
  const before = base.ofGroup(FLEET_GROUP);
  const after = head.ofGroup(FLEET_GROUP);
  const objects = diffObjects(before, after);
  if (objects.added.length + objects.changed.length + objects.removed.length === 0) return undefined;
  const clusterOf = (list: ManifestObject[]) => new Map(list
    .filter((o) => o.obj?.kind === 'Secret' && o.obj?.metadata?.labels?.['argocd.argoproj.io/secret-type'] === 'cluster')
    .map((o) => [String(o.obj.metadata?.labels?.[PlatformLabels.CLUSTER] ?? o.obj.stringData?.name ?? o.obj.metadata?.name), o.key]));
  const b = clusterOf(before);
  const a = clusterOf(after);
  const objectOf = (list: ManifestObject[], key: string) => list.find((o) => o.key === key)!.obj;
  const clusterFieldChanges: Record<string, string[]> = {};
  for (const [c, key] of a.entries()) {
    if (!b.has(c) || !objects.changed.includes(key)) continue;
    clusterFieldChanges[c] = fieldChanges(objectOf(before, b.get(c)!), objectOf(after, key)).map((f) => describeFieldChange(f));
  }
  return {
    clusterFieldChanges,
    clustersAdded: [...a.keys()].filter((c) => !b.has(c)).sort(compare),
    clustersRemoved: [...b.keys()].filter((c) => !a.has(c)).sort(compare),
    clustersChanged: [...a.entries()].filter(([c, key]) => b.has(c) && objects.changed.includes(key)).map(([c]) => c).sort(compare),
    objects,
  };
}
