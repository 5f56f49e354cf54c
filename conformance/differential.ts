import * as fs from 'fs';
import * as path from 'path';
import fc from 'fast-check';
import * as YAML from 'yaml';
import {
  buildModules, ConformanceFinding, findModules, GoModule, ModuleReport, ROOT, runModel, runModulesOnManifests, SuiteError,
} from './suite';
import { build, scratch } from '../test/property/build';
import { worldArb } from '../test/property/defects';

/*
 * npx tsx conformance/differential.ts
 *
 * The test kit's model of the controllers against the upstream Go code, on the same inputs: every
 * file of manifests/ alone, each app's files with the fleet's, all of manifests/ together, and
 * the files of two apps broken by one mutation each (see MUTATIONS), and worlds drawn by the
 * property tests' generators (test/property/) and synthesized the way those tests do. Only behaviours both judge are compared (the codes below): for each, the objects the
 * model flags must be the objects the Go code flags. Every disagreement is printed.
 * Exit 1 on a disagreement, 0 on none, 2 when the suite cannot run.
 * CONFORMANCE_WORLDS=<n> property worlds (default 25); CONFORMANCE_SEED=<n>.
 */

/** Codes the test kit model and a Go module both report, for the same behaviour of the same controller. */
const SHARED_CODES = [
  'project-not-found', 'namespace-not-permitted', 'destination-not-permitted', 'source-repo-not-permitted', 'cluster-not-found', 'application-name-conflict',
];
/** The module that reports them (the other modules judge nothing the model judges too, so they are not run). */
const COMPARED_MODULE = 'argocd';

const WORLDS = Number(process.env.CONFORMANCE_WORLDS ?? 25);
const SEED = Number(process.env.CONFORMANCE_SEED ?? 20261201);

interface Case {
  readonly name: string;
  readonly dir: string;
}

interface Tally {
  cases: number;
  objects: number;
  compared: number;
  disagreements: string[];
  /** Model findings on ApplicationSets while no module generates them. */
  notCompared: number;
  codesSeen: Map<string, number>;
}

/** What a finding is about, for comparison: the object and the behaviour (paths and messages differ by design). */
function keyOf(f: ConformanceFinding, dir: string): string {
  return [path.relative(dir, f.source), f.kind, f.namespace || '', f.name, f.code].join(' ');
}

function compare(c: Case, modules: GoModule[], tally: Tally): void {
  const reports: ModuleReport[] = runModulesOnManifests(modules, c.dir);
  const model = runModel(c.dir);
  tally.cases++;
  tally.objects += countObjects(c.dir);
  const shared = (f: ConformanceFinding) => SHARED_CODES.includes(f.code);
  const go = new Map(reports.flatMap((r) => r.findings.filter(shared).map((f) => [keyOf(f, c.dir), f] as const)));
  // conformance/argocd cannot build Argo CD's ApplicationSet generators (README, Conformance): what
  // the model finds through generated Applications has nothing to be compared with
  const generates = !reports.some((r) => (r.counted.applicationSetsNotGenerated ?? 0) > 0);
  const comparable = (f: ConformanceFinding) => shared(f) && (generates || f.kind !== 'ApplicationSet');
  tally.notCompared += model.findings.filter((f) => shared(f) && !comparable(f)).length;
  const modelled = new Map(model.findings.filter(comparable).map((f) => [keyOf(f, c.dir), f] as const));
  for (const key of new Set([...go.keys(), ...modelled.keys()])) {
    tally.compared++;
    const g = go.get(key);
    const m = modelled.get(key);
    const code = (g ?? m)!.code;
    tally.codesSeen.set(code, (tally.codesSeen.get(code) ?? 0) + 1);
    if (g && m) continue;
    const f = (g ?? m)!;
    tally.disagreements.push(`${c.name}: ${g ? 'only the Go code' : 'only the test kit model'} flags ${key}: ${f.message} (upstream: ${f.upstream})`);
  }
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
  const cases: Case[] = [{ name: 'manifests/', dir: manifests }];
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
};
const MUTATED_APPS = ['inference-gateway', 'telemetry-agent'];
// Not mutated: Application names. The model judges name conflicts among the Applications
// ApplicationSets generate, which conformance/argocd cannot generate; a written Application that
// appears twice is one object applied twice, not a conflict either side should flag.


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
      if (changed > 0) cases.push({ name: `manifests/${app}*.k8s.yaml with fleet, ${name} (${changed} objects)`, dir });
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
        cases.push({ name: `property world ${i} (seed ${SEED})`, dir });
      } catch {
        refused++;
      }
    });
  } finally {
    console.warn = warn;
  }
  return { cases, refused };
}

function main(): number {
  // inside the project (gitignored): a module may look for the project's files above its input
  // (conformance/apiserver reads imports/schema-bundle.json)
  fs.mkdirSync(path.join(ROOT, '.conformance'), { recursive: true });
  const work = fs.mkdtempSync(path.join(ROOT, '.conformance', 'differential-'));
  try {
    const modules = findModules().filter((m) => m.name === COMPARED_MODULE);
    if (modules.length === 0) throw new SuiteError(`no conformance/${COMPARED_MODULE} module to compare the test kit model with`);
    buildModules(modules);
    const tally: Tally = { cases: 0, objects: 0, compared: 0, disagreements: [], notCompared: 0, codesSeen: new Map() };
    const manifestsCases = manifestCases(work);
    const mutated = mutatedCases(manifestsCases, work);
    const worlds = worldCases(work);
    for (const c of [...manifestsCases, ...mutated, ...worlds.cases]) compare(c, modules, tally);
    for (const d of tally.disagreements) console.log(d);
    const seen = SHARED_CODES.map((c) => `${c} ${tally.codesSeen.get(c) ?? 0}`).join(', ');
    console.log(`${tally.cases} cases (${manifestsCases.length} from manifests/, ${mutated.length} mutated from them, `
      + `${worlds.cases.length} property worlds; ${worlds.refused} more refused by the library), `
      + `${tally.objects} objects, ${tally.compared} flagged objects compared, ${tally.disagreements.length} disagreements`);
    console.log(`flagged objects compared, by behaviour: ${seen}`);
    if (tally.notCompared > 0) console.log(`not compared: ${tally.notCompared} model findings on ApplicationSets (no module generates their Applications)`);
    console.log(`compared: the test kit model with ${modules.map((m) => `conformance/${m.name}`).join(', ')}`);
    return tally.disagreements.length > 0 ? 1 : 0;
  } catch (e) {
    console.error(`conformance: ${e instanceof SuiteError ? e.message : (e as Error)?.message ?? String(e)}`);
    return 2;
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

process.exitCode = main();
