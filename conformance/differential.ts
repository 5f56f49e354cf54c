import * as fs from 'fs';
import * as path from 'path';
import fc from 'fast-check';
import * as YAML from 'yaml';
import {
  buildModules, ConformanceFinding, findModules, GoModule, inPool, PARALLEL, progress, ROOT, runCommandsAndModel, SuiteError,
} from './suite';
import { build, scratch } from '../test/property/build';
import { worldArb } from '../test/property/defects';
import { editArb, edited, FleetEdit } from '../test/property/fleet-edits';

/*
 * npx tsx conformance/differential.ts
 *
 * The test kit's model of the controllers against the upstream Go code, on the same inputs, for
 * every behaviour both judge: Argo CD's project permissions, clusters and generated Application
 * names (conformance/controllers argocd, every case), fleet changes through the ApplicationSet
 * controller (argocd --before), and Kargo's promotions and Freight over time (kargo). Inputs:
 * every file of manifests/ alone, each app's files with the fleet's, all of manifests/ together,
 * the files of two apps broken by one mutation each (see MUTATIONS), worlds drawn by the property
 * tests' generators (test/property/) and synthesized the way those tests do, and fleet changes
 * (property worlds synthesized before and after a fleet edit, both ways, and the known break
 * wave-swap). For
 * each behaviour, the objects the model flags must be the objects the Go code flags; where they
 * disagree, upstream is right and the model is fixed. Kargo runs on manifests/ together, on the
 * mutations of Kargo's objects (KARGO_MUTATIONS) and on the first CONFORMANCE_KARGO_WORLDS worlds.
 * Exit 1 on a disagreement, 0 on none, 2 when the suite cannot run.
 * CONFORMANCE_WORLDS=<n> property worlds (default 25); CONFORMANCE_KARGO_WORLDS=<n> (default: all);
 * CONFORMANCE_FLEET_CHANGES=<n> fleet edits drawn (default 6); CONFORMANCE_SEED=<n>;
 * CONFORMANCE_CASES=<regex>: only the cases whose name matches.
 */

/**
 * What each side's codes stand for: the same behaviour of the same controller, one name each.
 * A code of neither map is not compared.
 */
const MODEL_BEHAVIOUR: Record<string, string> = {
  'project-not-found': 'project-not-found',
  'namespace-not-permitted': 'namespace-not-permitted',
  'destination-not-permitted': 'destination-not-permitted',
  'source-repo-not-permitted': 'source-repo-not-permitted',
  'cluster-not-found': 'cluster-not-found',
  'application-name-conflict': 'application-name-conflict',
  'applicationset-ownership-conflict': 'applicationset-ownership-conflict',
  'applicationset-application-outdated': 'applicationset-application-outdated',
  'promotion-failed': 'promotion-fails',
  'expression-error': 'promotion-fails',
  'step-config-invalid': 'promotion-fails',
  'step-error': 'promotion-fails',
  'pr-closed': 'promotion-fails',
  'argocd-app-not-found': 'promotion-fails',
  'argocd-source-mismatch': 'promotion-fails',
  'git-branch-missing': 'promotion-fails',
  'open-pr-target-missing': 'promotion-fails',
  'step-output-missing': 'promotion-fails',
  'helm-dependency-not-found': 'promotion-fails',
  'freight-never-available': 'freight-never-available',
  'soak-not-enforced': 'soak-not-enforced',
};
const UPSTREAM_BEHAVIOUR: Record<string, string> = {
  ...Object.fromEntries(['project-not-found', 'namespace-not-permitted', 'destination-not-permitted', 'source-repo-not-permitted', 'cluster-not-found',
    'application-name-conflict', 'applicationset-ownership-conflict', 'applicationset-application-outdated', 'freight-never-available', 'soak-not-enforced'].map(c => [c, c])),
  'promotion-failed': 'promotion-fails',
  'promotion-refused': 'promotion-fails',
  'argocd-update-syncs-nothing': 'promotion-fails',
};
/** The behaviours only kargo judges (compared where kargo runs). */
const KARGO_BEHAVIOURS = new Set(['promotion-fails', 'freight-never-available', 'soak-not-enforced']);

const WORLDS = Number(process.env.CONFORMANCE_WORLDS ?? 25);
const KARGO_WORLDS = Number(process.env.CONFORMANCE_KARGO_WORLDS ?? WORLDS);
const FLEET_CHANGES = Number(process.env.CONFORMANCE_FLEET_CHANGES ?? 6);
/** Only the cases whose name matches (a regular expression), to rerun one kind of case. */
const ONLY = process.env.CONFORMANCE_CASES === undefined ? undefined : new RegExp(process.env.CONFORMANCE_CASES);
const SEED = Number(process.env.CONFORMANCE_SEED ?? 20261201);

interface Case {
  readonly name: string;
  readonly dir: string;
  /** The platform before a fleet change. */
  readonly before?: string;
  /** Whether kargo runs on it (promotions and releases compared). */
  readonly kargo?: boolean;
}

interface Tally {
  cases: number;
  objects: number;
  compared: number;
  disagreements: string[];
  codesSeen: Map<string, number>;
}

/** What a finding is about, for comparison: the object and the behaviour (paths and messages differ by design). */
function keyOf(f: ConformanceFinding, dir: string, behaviour: string): string {
  return [path.relative(dir, f.source), f.kind, f.namespace || '', f.name, behaviour].join(' ');
}

function emptyTally(): Tally {
  return { cases: 0, objects: 0, compared: 0, disagreements: [], codesSeen: new Map() };
}

function addTally(into: Tally, t: Tally): void {
  into.cases += t.cases;
  into.objects += t.objects;
  into.compared += t.compared;
  into.disagreements.push(...t.disagreements);
  for (const [b, n] of t.codesSeen) into.codesSeen.set(b, (into.codesSeen.get(b) ?? 0) + n);
}

async function compare(c: Case, modules: GoModule[]): Promise<Tally> {
  const commands = modules.filter((m) => m.name === 'argocd' || (c.kargo && m.name === 'kargo'));
  const options = { all: true, ...(c.before !== undefined ? { before: c.before } : {}) };
  const { commands: reports, model } = await runCommandsAndModel(commands, c.dir, options);
  const tally = emptyTally();
  tally.cases++;
  tally.objects += countObjects(c.dir);
  const judged = (behaviour: string | undefined): behaviour is string => behaviour !== undefined && (c.kargo || !KARGO_BEHAVIOURS.has(behaviour));
  const go = new Map<string, ConformanceFinding>();
  for (const f of reports.flatMap((r) => r.findings)) {
    const b = UPSTREAM_BEHAVIOUR[f.code];
    if (judged(b)) go.set(keyOf(f, c.dir, b), f);
  }
  const modelled = new Map<string, ConformanceFinding>();
  for (const f of model.findings) {
    const b = MODEL_BEHAVIOUR[f.code];
    if (judged(b)) modelled.set(keyOf(f, c.dir, b), f);
  }
  for (const key of new Set([...go.keys(), ...modelled.keys()])) {
    tally.compared++;
    const g = go.get(key);
    const m = modelled.get(key);
    const behaviour = key.slice(key.lastIndexOf(' ') + 1);
    tally.codesSeen.set(behaviour, (tally.codesSeen.get(behaviour) ?? 0) + 1);
    if (g && m) continue;
    const f = (g ?? m)!;
    tally.disagreements.push(`${c.name}: ${g ? 'only the Go code' : 'only the test kit model'} flags ${key}: ${f.message} (upstream: ${f.upstream})`);
  }
  return tally;
}

function countObjects(dir: string): number {
  let n = 0;
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) n += countObjects(p);
    else if (/\.ya?ml$/.test(e.name)) n += YAML.parseAllDocuments(fs.readFileSync(p, 'utf8')).filter((d) => d.contents !== null).length;
  }
  return n;
}

/** manifests/ alone, each app with the fleet, and every file on its own. */
function manifestCases(work: string): Case[] {
  const manifests = path.join(ROOT, 'manifests');
  const files = fs.readdirSync(manifests).filter((f) => /\.ya?ml$/.test(f)).sort();
  const apps = [...new Set(files.map((f) => f.replace(/(--.*)?\.k8s\.yaml$/, '')))].filter((a) => a !== 'fleet');
  const cases: Case[] = [{ name: 'manifests/', dir: manifests, kargo: true }];
  const copy = (name: string, chosen: string[]) => {
    const dir = path.join(work, name.replace(/[^\w.-]+/g, '_'));
    fs.mkdirSync(dir, { recursive: true });
    for (const f of chosen) fs.copyFileSync(path.join(manifests, f), path.join(dir, f));
    cases.push({ name, dir });
  };
  for (const app of apps) copy(`manifests/${app}*.k8s.yaml with manifests/fleet.k8s.yaml`, ['fleet.k8s.yaml', ...files.filter((f) => f.startsWith(`${app}.`) || f.startsWith(`${app}--`))]);
  for (const f of files) copy(`manifests/${f} alone`, [f]);
  return cases;
}

/**
 * Valid output flags nothing on either side, which proves little: each mutation breaks the objects
 * of one app (its files and the fleet's) the way one compared behaviour catches, so both sides must
 * flag the same objects. Applied to every object it fits.
 */
const MUTATIONS: Record<string, (o: any) => boolean> = {
  'Application names an AppProject that does not exist': (o) => o.kind === 'Application' && set(o.spec, 'project', 'no-such-project'),
  'AppProject sourceRepos emptied': (o) => o.kind === 'AppProject' && set(o.spec, 'sourceRepos', []),
  'AppProject destinations on another server': (o) => o.kind === 'AppProject'
    && set(o.spec, 'destinations', [{ server: 'https://elsewhere.example.com', namespace: '*' }]),
  'AppProject clusterResourceWhitelist emptied': (o) => o.kind === 'AppProject' && set(o.spec, 'clusterResourceWhitelist', []),
  'Application destination names a cluster without a Secret': (o) => o.kind === 'Application' && o.spec?.destination !== undefined
    && set(o.spec, 'destination', { name: 'no-such-cluster', namespace: o.spec.destination.namespace }),
  'ApplicationSet template names every Application alike': (o) => o.kind === 'ApplicationSet' && o.spec?.template?.metadata !== undefined
    && set(o.spec.template.metadata, 'name', `${o.metadata?.name}-all`),
  // the break a hub judged in the wrong namespace hid: argocd-update finds no Application to sync
  'Stage argocd-update selects no Application': (o) => o.kind === 'Stage' && argocdUpdateApps(o)
    .map((a) => (a.selector !== undefined ? set(a, 'selector', { matchLabels: { 'gitops-platform.io/stage': 'no-such-stage' } }) : set(a, 'name', 'no-such-application')))
    .includes(true),
};
/** The mutations of Kargo's objects: kargo runs on their cases. */
const KARGO_MUTATIONS = new Set(['Stage argocd-update selects no Application']);

/** The Applications a Stage's argocd-update steps name (`config.apps`). */
function argocdUpdateApps(stage: any): any[] {
  const steps: any[] = stage.spec?.promotionTemplate?.spec?.steps ?? [];
  return steps.filter((s) => s?.uses === 'argocd-update').flatMap((s) => s.config?.apps ?? []);
}
const MUTATED_APPS = ['inference-gateway', 'telemetry-agent'];
// Not mutated: the names of written Applications (one written twice is one object applied twice,
// not a conflict); names the ApplicationSets generate twice are: see MUTATIONS' last entry.


function set(target: any, key: string, value: unknown): boolean {
  if (target === null || typeof target !== 'object') return false;
  target[key] = value;
  return true;
}

function mutatedCases(base: Case[], work: string): Case[] {
  const cases: Case[] = [];
  for (const app of MUTATED_APPS) {
    const from = base.find((c) => c.name.startsWith(`manifests/${app}*`));
    if (!from) continue;
    for (const [name, mutate] of Object.entries(MUTATIONS)) {
      const dir = path.join(work, `${app}-${name.replace(/\W+/g, '-')}`);
      fs.mkdirSync(dir, { recursive: true });
      let changed = 0;
      for (const f of fs.readdirSync(from.dir)) {
        const docs = YAML.parseAllDocuments(fs.readFileSync(path.join(from.dir, f), 'utf8')).map((d) => d.toJS()).filter((o) => o !== null);
        changed += docs.filter(mutate).length;
        fs.writeFileSync(path.join(dir, f), docs.map((o) => YAML.stringify(o)).join('---\n'));
      }
      if (changed > 0) cases.push({ name: `manifests/${app}*.k8s.yaml with fleet, ${name} (${changed} objects)`, dir, kargo: KARGO_MUTATIONS.has(name) });
    }
  }
  return cases;
}

/** Worlds of the property tests, synthesized; those the library refuses are counted, not compared. */
function worldCases(work: string): { cases: Case[]; refused: number } {
  const cases: Case[] = [];
  let refused = 0;
  const warn = console.warn;
  console.warn = () => {};
  try {
    fc.sample(worldArb, { numRuns: WORLDS, seed: SEED }).forEach((spec, i) => {
      const dir = path.join(work, `world-${i}`);
      try {
        build(spec, dir, `${dir}.tfoutput.json`).app.synth();
        cases.push({ name: `property world ${i} (seed ${SEED})`, dir, kargo: i < KARGO_WORLDS });
      } catch {
        refused++;
      }
    });
  } finally {
    console.warn = warn;
  }
  return { cases, refused };
}

/**
 * Fleet changes: the known break wave-swap, and property worlds synthesized before and after one
 * fleet edit each (test/property/fleet-edits.ts: clusters swapping waves, zones or regions, a
 * cluster's ring set or removed, a cluster changing stage, a cluster leaving), compared both ways
 * (the way back: a cluster joining, clusters moving back). The library's ApplicationSets select
 * clusters by name, so a fleet change is a new synthesis of the apps, not an edit of the cluster
 * Secrets alone.
 */
function fleetChanges(work: string): Case[] {
  const cases: Case[] = [];
  const swap = path.join(ROOT, 'conformance', 'testdata', 'known-breaks', 'wave-swap');
  cases.push({ name: 'known break wave-swap', dir: path.join(swap, 'after'), before: path.join(swap, 'before') });
  const warn = console.warn;
  console.warn = () => {};
  try {
    const changes = worldArb.filter((w) => w.defect === undefined).chain((spec) => fc.tuple(fc.constant(spec), editArb(spec.fleet.clusters.length)));
    fc.sample(changes, { numRuns: FLEET_CHANGES, seed: SEED }).forEach(([spec, edit], i) => {
      const before = path.join(work, `change-${i}`, 'before');
      const after = path.join(work, `change-${i}`, 'after');
      try {
        build(spec, before, `${before}.tfoutput.json`).app.synth();
        build(edited(spec, edit), after, `${after}.tfoutput.json`).app.synth();
      } catch {
        return; // the library refuses the world before or after: nothing to compare
      }
      const what = describeEdit(edit);
      cases.push({ name: `fleet change ${i} (seed ${SEED}): ${what}`, dir: after, before });
      cases.push({ name: `fleet change ${i} (seed ${SEED}) undone: ${what}, back`, dir: before, before: after });
    });
  } finally {
    console.warn = warn;
  }
  return cases;
}

function describeEdit(edit: FleetEdit): string {
  return [
    ...edit.swaps.map(([a, b, key]) => `${key} swapped (${a}, ${b})`),
    ...edit.rings.map(({ at, ring }) => `cluster ${at} ring ${ring ?? 'removed'}`),
    ...edit.tiers.map(({ at, tier }) => `cluster ${at} tier ${tier}`),
    ...(edit.leaves !== null ? [`cluster ${edit.leaves} leaves`] : []),
  ].join(', ');
}

async function main(): Promise<number> {
  // inside the project (gitignored): a module may look for the project's files above its input
  // (conformance/apiserver reads imports/schema-bundle.json)
  fs.mkdirSync(path.join(ROOT, '.conformance'), { recursive: true });
  const work = fs.mkdtempSync(path.join(ROOT, '.conformance', 'differential-'));
  try {
    const modules = findModules().filter((m) => m.name === 'argocd' || m.name === 'kargo');
    if (modules.length !== 2) throw new SuiteError('conformance/controllers has no argocd and kargo commands to compare the test kit model with');
    buildModules(modules);
    const manifestsCases = manifestCases(work);
    const mutated = mutatedCases(manifestsCases, work);
    const worlds = worldCases(work);
    const changes = fleetChanges(work);
    const all = [...manifestsCases, ...mutated, ...worlds.cases, ...changes].filter((c) => ONLY === undefined || ONLY.test(c.name));
    // cases run PARALLEL at a time, those kargo runs on (the longest) first, so that no long case
    // starts when the others are done; they are tallied in their order, so the output does not
    // depend on which ends first
    const longestFirst = [...all.keys()].sort((a, b) => Number(all[b].kargo === true) - Number(all[a].kargo === true));
    const started = await inPool(longestFirst, PARALLEL, async (i, n) => {
      const c = all[i];
      progress(`differential ${n + 1}/${all.length}: ${c.name}`);
      const start = Date.now();
      return { index: i, name: c.name, tally: await compare(c, modules), seconds: (Date.now() - start) / 1000 };
    });
    const runs = started.sort((a, b) => a.index - b.index);
    const tally = emptyTally();
    for (const r of runs) addTally(tally, r.tally);
    for (const d of tally.disagreements) console.log(d);
    const behaviours = [...new Set([...Object.values(MODEL_BEHAVIOUR), ...Object.values(UPSTREAM_BEHAVIOUR)])].sort();
    const seen = behaviours.map((b) => `${b} ${tally.codesSeen.get(b) ?? 0}`).join(', ');
    console.log(`${tally.cases} cases (${manifestsCases.length} from manifests/, ${mutated.length} mutated from them, `
      + `${worlds.cases.length} property worlds, ${worlds.refused} more refused by the library; ${changes.length} fleet changes; `
      + `kargo on ${all.filter((c) => c.kargo).length}), ${tally.objects} objects, ${tally.compared} flagged objects compared, `
      + `${tally.disagreements.length} disagreements`);
    console.log(`flagged objects compared, by behaviour: ${seen}`);
    const slowest = [...runs].sort((a, b) => b.seconds - a.seconds).slice(0, 5);
    console.log(`slowest cases (wall, ${PARALLEL} at a time): ${slowest.map((r) => `${r.name} ${r.seconds.toFixed(1)} s`).join('; ')}`);
    if (ONLY !== undefined) console.log(`only the cases matching CONFORMANCE_CASES=${ONLY.source} ran`);
    console.log(`compared: the test kit model with ${modules.map((m) => m.name).join(', ')} (conformance/controllers)`);
    return tally.disagreements.length > 0 ? 1 : 0;
  } catch (e) {
    console.error(`conformance: ${e instanceof SuiteError ? e.message : (e as Error)?.message ?? String(e)}`);
    return 2;
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

void main().then((code) => { process.exitCode = code; });
