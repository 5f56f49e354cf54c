import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { Duration, Testing, Yaml } from 'cdk8s';
import fc from 'fast-check';
import { afterAll, describe, expect, test, vi } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { argoCdInstances, releaseConsistencyProblems, selectorMatches } from './argocd-simulation';
import {
  Accelerator, Approval, ArgoCdTopology, Artifact, ClusterAuth, ClusterFleet, ClusterOptions, ClusterSelector, CloudProvider,
  Comparison, GitCommitSelection, HttpMethod, ManifestSource, PlatformApp, PlatformLabels, PlatformStandards, PromotionPipeline,
  RepositoryCredentials, Requirement, RuleSeverity, SelectorOperator, Tier, Verification, VerificationArg, Versioning, Waves,
} from '../src';
import { KNOWN_CONTROLLER_PROBLEMS, modelInput, unexpectedFindings } from './known-controller-problems';
import { formatIssues, ManifestValidator, simulateControllers } from '../src/testkit';

/*
 * Property-based tests of the whole library: random fleets, pipelines and apps, built into a cdk8s
 * app and synthesized. Each case either
 *  - fails with one of the library's validation errors (never a TypeError, a construct-id clash or
 *    a message without the library's context), or
 *  - succeeds with output that passes the pinned schemas, round-trips through YAML, matches the
 *    plan (waves, upstreams, Applications, Stages, ProjectConfig, RBAC, verification) and is
 *    byte-identical when the same input is synthesized again.
 *
 * The generators produce plain data (a `WorldSpec`): valid definitions by construction (stages
 * that partition the fleet, targets and requirements every stage can meet, ...), of which a third
 * get one defect (`DEFECTS`). `build()` turns the data into constructs, so a counterexample prints
 * as readable data and the same input can be built twice.
 *
 * PROPERTY_RUNS=5000 runs more cases; PROPERTY_DEBUG=1 lists every rejection's message.
 */

const validator = ManifestValidator.load();

// ---------------------------------------------------------------------------------------------
// The input model
// ---------------------------------------------------------------------------------------------

type SelSpec =
  | { k: 'all' }
  | { k: 'tier' | 'provider' | 'accelerator' | 'region' | 'names'; v: string[] }
  | { k: 'labels'; v: Record<string, string> }
  | { k: 'expr'; key: string; op: string; values?: string[] }
  | { k: 'and'; of: SelSpec[] };

type AuthSpec =
  | { k: 'exec'; command: string; args?: string[]; env?: Record<string, string> }
  | { k: 'eks'; roleArn?: string }
  | { k: 'gke' }
  | { k: 'aks' };

type TopologySpec = { k: 'central' } | { k: 'per-cluster'; kargoShard?: string; namespace?: string };

interface ClusterSpec {
  name: string;
  server: string;
  provider: string;
  region: string;
  tier: string;
  accelerator?: string;
  acceleratorCount?: number;
  kubernetesVersion?: string;
  labels?: Record<string, string>;
  auth?: AuthSpec;
  caData?: string;
  argoCd?: TopologySpec;
  shard?: number;
}

interface FleetSpec {
  fromTerraform: boolean;
  fleetName?: string;
  argoCdNamespace?: string;
  topology?: TopologySpec;
  shards?: number;
  clusters: ClusterSpec[];
  /** added after the apps: synth must refuse the stale plans */
  late?: ClusterSpec;
}

type ApprovalSpec = { k: 'automatic' } | { k: 'manual'; promoters?: string[] } | { k: 'pr'; promoters?: string[]; labels?: string[]; open?: boolean };
type WavesSpec = { k: 'single' } | { k: 'label'; key: string; values: string[] } | { k: 'count'; n: number } | { k: 'pct'; p: number[] };
interface BudgetSpec { maxClusters?: number; maxPercent?: number }

interface StageSpec {
  name: string;
  sel: SelSpec;
  approval?: ApprovalSpec;
  waves?: WavesSpec;
  soakMs?: number;
  production?: boolean;
  budget?: BudgetSpec;
  checks?: CheckSpec[];
}

interface PipelineSpec { id: string; stages: StageSpec[]; budget?: BudgetSpec }

type ArgSpec = { k: 'value'; text: string } | { k: 'secret'; name: string; key: string } | { k: 'expr'; text: string } | { k: 'imageTag'; repo: string } | { k: 'commit'; url: string };

type CheckSpec =
  | {
    k: 'http';
    name?: string;
    url: string;
    method?: string;
    body?: string;
    headers?: Record<string, string>;
    jsonPath?: string;
    condition?: string;
    count?: number;
    failureLimit?: number;
    intervalMs?: number;
    timeoutMs?: number;
    dryRun?: boolean;
    args?: Record<string, ArgSpec>;
  }
  | {
    k: 'prometheus';
    name?: string;
    address: string;
    query: string;
    threshold?: number;
    comparison?: string;
    condition?: string;
    count?: number;
    failureLimit?: number;
    args?: Record<string, ArgSpec>;
  }
  | { k: 'job'; name?: string; image: string; command?: string[]; containerArgs?: string[]; env?: Record<string, string>; args?: Record<string, ArgSpec> }
  | { k: 'template'; name: string; clusterScoped?: boolean; args?: Record<string, ArgSpec> };

type CredSpec = { k: 'wi' } | { k: 'managed'; source: string };

type ArtifactSpec =
  | {
    k: 'image';
    repo: string;
    versioning?: { k: 'semver'; range?: string; strict?: boolean } | { k: 'digest'; tag: string } | { k: 'lexical' } | { k: 'newest' };
    allowTags?: string[];
    ignoreTags?: string[];
    platform?: string;
    helmValuesKey?: string;
    discoveryLimit?: number;
    creds?: CredSpec;
  }
  | { k: 'chart'; repo: string; name?: string; semver?: string; dependencyName?: string; creds?: CredSpec }
  | {
    k: 'git';
    repo: string;
    selection?: string;
    branch?: string;
    semver?: string;
    allowTags?: string[];
    includePaths?: string[];
    excludePaths?: string[];
    creds?: CredSpec;
  };

type SourceSpec =
  | { k: 'helm'; repo: string; branch?: string; path: string; valuesFiles?: string[]; optionalValuesFiles?: string[]; releaseName?: string; creds?: CredSpec }
  | { k: 'kustomize'; repo: string; branch?: string; basePath: string; overlayPath: string };

type ReqSpec = { k: 'k8s'; v: string } | { k: 'minAcc'; n: number } | { k: 'acc'; v: string[] } | { k: 'labels'; sel: SelSpec };

interface AppSpec {
  id: string;
  appName?: string;
  pipeline: number;
  owner: { team: string; contact: string; groups?: string[] };
  artifacts: ArtifactSpec[];
  source: SourceSpec;
  releaseRepo: string;
  releaseCreds?: CredSpec;
  targets?: SelSpec;
  requires?: ReqSpec[];
  namespace?: string;
  checks?: CheckSpec[];
  stageChecks?: Record<string, CheckSpec[]>;
  exemptions?: { ruleId: string; justification: string }[];
  clusterResources?: { group: string; kind: string }[];
}

interface StandardsSpec { maxWavePercent?: number; disabledRules?: string[]; warnings: boolean; allowedRegistries?: string[] }

interface WorldSpec {
  /** the defect injected, if any */
  defect?: string;
  fleet: FleetSpec;
  pipelines: PipelineSpec[];
  standards?: StandardsSpec;
  apps: AppSpec[];
}

// ---------------------------------------------------------------------------------------------
// Building the cdk8s app from the model
// ---------------------------------------------------------------------------------------------

const PRODUCTION_TIERS = new Set(['prod', 'edge']);

function tierOf(name: string): Tier {
  return Tier.of(name, PRODUCTION_TIERS.has(name));
}

function toSelector(s: SelSpec): ClusterSelector {
  switch (s.k) {
    case 'all': return ClusterSelector.all();
    case 'tier': return ClusterSelector.tier(...s.v.map(tierOf));
    case 'provider': return ClusterSelector.provider(...s.v as CloudProvider[]);
    case 'accelerator': return ClusterSelector.accelerator(...s.v.map(a => Accelerator.of(a)));
    case 'region': return ClusterSelector.region(...s.v);
    case 'names': return ClusterSelector.names(...s.v);
    case 'labels': return ClusterSelector.matchLabels(s.v);
    case 'expr': return ClusterSelector.expression(s.key, s.op as SelectorOperator, s.values);
    case 'and': return s.of.map(toSelector).reduce((a, b) => a.and(b));
  }
}

function toAuth(c: ClusterSpec): ClusterAuth | undefined {
  const tls = c.caData === undefined ? {} : { caData: c.caData };
  // a CA certificate without auth goes with the provider's default (as from Terraform)
  const a = c.auth ?? (c.caData === undefined ? undefined : ({ aws: { k: 'eks' }, gcp: { k: 'gke' }, azure: { k: 'aks' } } as Record<string, AuthSpec>)[c.provider]);
  if (!a) return undefined;
  switch (a.k) {
    case 'exec': return ClusterAuth.exec({ command: a.command, args: a.args, env: a.env }, tls);
    case 'eks': return ClusterAuth.eks({ roleArn: a.roleArn }, tls);
    case 'gke': return ClusterAuth.gke(tls);
    case 'aks': return ClusterAuth.aks({}, tls);
  }
}

function toTopology(t: TopologySpec | undefined): ArgoCdTopology | undefined {
  if (!t) return undefined;
  return t.k === 'central' ? ArgoCdTopology.central() : ArgoCdTopology.perCluster({ kargoShard: t.kargoShard, namespace: t.namespace });
}

function clusterOptions(c: ClusterSpec): ClusterOptions {
  return {
    name: c.name,
    server: c.server,
    provider: c.provider as CloudProvider,
    region: c.region,
    tier: tierOf(c.tier),
    accelerator: c.accelerator === undefined ? undefined : Accelerator.of(c.accelerator),
    acceleratorCount: c.acceleratorCount,
    kubernetesVersion: c.kubernetesVersion,
    labels: c.labels,
    auth: toAuth(c),
    argoCd: toTopology(c.argoCd),
    shard: c.shard,
  };
}

/** The cluster as Terraform would output it (`ClusterFleet.fromTerraformOutput`). */
function terraformEntry(c: ClusterSpec): Record<string, unknown> {
  const a = c.auth;
  return {
    name: c.name,
    endpoint: c.server,
    provider: c.provider,
    region: c.region,
    tier: c.tier,
    production: ['dev', 'staging', 'prod'].includes(c.tier) ? null : PRODUCTION_TIERS.has(c.tier),
    accelerator: c.accelerator ?? null,
    accelerator_count: c.acceleratorCount ?? null,
    kubernetes_version: c.kubernetesVersion ?? null,
    labels: c.labels ?? null,
    ca_data: c.caData ?? null,
    auth: !a ? null
      : a.k === 'exec' ? { type: 'exec', command: a.command, args: a.args ?? null, env: a.env ?? null }
        : a.k === 'eks' ? { type: 'eks', role_arn: a.roleArn ?? null }
          : { type: a.k },
    argocd: !c.argoCd ? null
      : c.argoCd.k === 'central' ? { mode: 'central' } : { mode: 'per-cluster', kargo_shard: c.argoCd.kargoShard ?? null, namespace: c.argoCd.namespace ?? null },
    shard: c.shard ?? null,
  };
}

function toApproval(a: ApprovalSpec | undefined): Approval | undefined {
  if (!a) return undefined;
  switch (a.k) {
    case 'automatic': return Approval.automatic();
    case 'manual': return Approval.manual({ promoters: a.promoters });
    case 'pr': return Approval.pullRequest({ promoters: a.promoters, labels: a.labels, openAutomatically: a.open });
  }
}

function toWaves(w: WavesSpec | undefined): Waves | undefined {
  if (!w) return undefined;
  switch (w.k) {
    case 'single': return Waves.single();
    case 'label': return Waves.byLabel(w.key, w.values);
    case 'count': return Waves.byCount(w.n);
    case 'pct': return Waves.byPercentage(w.p);
  }
}

function toArg(a: ArgSpec): VerificationArg {
  switch (a.k) {
    case 'value': return VerificationArg.value(a.text);
    case 'secret': return VerificationArg.fromSecret(a.name, a.key);
    case 'expr': return VerificationArg.expression(a.text);
    case 'imageTag': return VerificationArg.imageTag(a.repo);
    case 'commit': return VerificationArg.commit(a.url);
  }
}

function toArgs(a: Record<string, ArgSpec> | undefined) {
  return a === undefined ? undefined : Object.fromEntries(Object.entries(a).map(([k, v]) => [k, toArg(v)]));
}

const ms = (n: number | undefined) => n === undefined ? undefined : Duration.millis(n);

function toCheck(c: CheckSpec): Verification {
  switch (c.k) {
    case 'http': return Verification.http({
      name: c.name,
      url: c.url,
      method: c.method as HttpMethod | undefined,
      body: c.body,
      headers: c.headers,
      jsonPath: c.jsonPath,
      successCondition: c.condition,
      count: c.count,
      failureLimit: c.failureLimit,
      interval: ms(c.intervalMs),
      timeout: ms(c.timeoutMs),
      dryRun: c.dryRun,
      args: toArgs(c.args),
    });
    case 'prometheus': return Verification.prometheus({
      name: c.name,
      address: c.address,
      query: c.query,
      threshold: c.threshold,
      comparison: c.comparison as Comparison | undefined,
      successCondition: c.condition,
      count: c.count,
      failureLimit: c.failureLimit,
      args: toArgs(c.args),
    });
    case 'job': return Verification.job({ name: c.name, image: c.image, command: c.command, containerArgs: c.containerArgs, env: c.env, args: toArgs(c.args) });
    case 'template': return Verification.fromTemplate(c.name, { clusterScoped: c.clusterScoped, args: toArgs(c.args) });
  }
}

function toCreds(c: CredSpec | undefined): RepositoryCredentials | undefined {
  if (!c) return undefined;
  return c.k === 'wi' ? RepositoryCredentials.workloadIdentity() : RepositoryCredentials.managedSecret({ source: c.source });
}

function toArtifact(a: ArtifactSpec): Artifact {
  switch (a.k) {
    case 'image': {
      const v = a.versioning;
      const versioning = !v ? undefined
        : v.k === 'semver' ? Versioning.semver(v.range, v.strict)
          : v.k === 'digest' ? Versioning.digest(v.tag)
            : v.k === 'lexical' ? Versioning.lexical() : Versioning.newestBuild();
      return Artifact.image(a.repo, {
        versioning,
        allowTags: a.allowTags,
        ignoreTags: a.ignoreTags,
        platform: a.platform,
        helmValuesKey: a.helmValuesKey,
        discoveryLimit: a.discoveryLimit,
        credentials: toCreds(a.creds),
      });
    }
    case 'chart': return Artifact.helmChart(a.repo, { name: a.name, semver: a.semver, dependencyName: a.dependencyName, credentials: toCreds(a.creds) });
    case 'git': return Artifact.git(a.repo, {
      selection: a.selection as GitCommitSelection | undefined,
      branch: a.branch,
      semver: a.semver,
      allowTags: a.allowTags,
      includePaths: a.includePaths,
      excludePaths: a.excludePaths,
      credentials: toCreds(a.creds),
    });
  }
}

function toSource(s: SourceSpec): ManifestSource {
  return s.k === 'helm'
    ? ManifestSource.helm({
      repoUrl: s.repo,
      branch: s.branch,
      path: s.path,
      valuesFiles: s.valuesFiles,
      optionalValuesFiles: s.optionalValuesFiles,
      releaseName: s.releaseName,
      credentials: toCreds(s.creds),
    })
    : ManifestSource.kustomize({ repoUrl: s.repo, branch: s.branch, basePath: s.basePath, overlayPath: s.overlayPath });
}

function toRequirement(r: ReqSpec): Requirement {
  switch (r.k) {
    case 'k8s': return Requirement.minKubernetesVersion(r.v);
    case 'minAcc': return Requirement.minAccelerators(r.n);
    case 'acc': return Requirement.accelerator(...r.v.map(a => Accelerator.of(a)));
    case 'labels': return Requirement.labels(toSelector(r.sel));
  }
}

interface Built {
  readonly app: ReturnType<typeof Testing.app>;
  readonly fleet: ClusterFleet;
  readonly pipelines: PromotionPipeline[];
  readonly apps: { app: PlatformApp; targets: ClusterSelector; requires: Requirement[]; pipeline: PromotionPipeline; spec: AppSpec }[];
}

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'property-test-'));

/** Builds the cdk8s app; throws whatever the library throws. */
function build(spec: WorldSpec, outdir: string, terraformFile: string): Built {
  const app = Testing.app({ outdir });
  const f = spec.fleet;
  const fleetProps = {
    fleetName: f.fleetName,
    argoCdNamespace: f.argoCdNamespace,
    topology: toTopology(f.topology),
    applicationControllerShards: f.shards,
  };
  let fleet: ClusterFleet;
  if (f.fromTerraform) {
    fs.writeFileSync(terraformFile, JSON.stringify({ clusters: { sensitive: false, type: 'dynamic', value: f.clusters.map(terraformEntry) } }));
    fleet = ClusterFleet.fromTerraformOutput(app, 'fleet', { ...fleetProps, file: terraformFile });
  } else {
    fleet = new ClusterFleet(app, 'fleet', { ...fleetProps, clusters: f.clusters.map(clusterOptions) });
  }
  const pipelines = spec.pipelines.map(p => new PromotionPipeline(app, p.id, {
    waveBudget: p.budget,
    stages: p.stages.map(s => ({
      name: s.name,
      clusters: toSelector(s.sel),
      approval: toApproval(s.approval),
      waves: toWaves(s.waves),
      soak: ms(s.soakMs),
      production: s.production,
      waveBudget: s.budget,
      verification: s.checks?.map(toCheck),
    })),
  }));
  if (spec.standards) {
    const st = spec.standards;
    const ids = ['owner-contact', 'prod-verification', 'prod-gate', 'no-mutable-tags', 'max-wave-percent', 'cluster-scoped-resources', 'name-length'];
    new PlatformStandards(app, 'standards', {
      maxWavePercent: st.maxWavePercent,
      disabledRules: st.disabledRules,
      allowedRegistries: st.allowedRegistries,
      severities: st.warnings ? Object.fromEntries(ids.map(id => [id, RuleSeverity.WARNING])) : undefined,
    });
  }
  const apps = spec.apps.map(a => {
    const targets = a.targets === undefined ? undefined : toSelector(a.targets);
    const requires = a.requires?.map(toRequirement);
    const pipeline = pipelines[a.pipeline % pipelines.length];
    const platformApp = new PlatformApp(app, a.id, {
      appName: a.appName,
      owner: a.owner,
      fleet,
      pipeline,
      artifacts: a.artifacts.map(toArtifact),
      source: toSource(a.source),
      releaseRepo: a.releaseRepo,
      releaseRepoCredentials: toCreds(a.releaseCreds),
      targets,
      requires,
      namespace: a.namespace,
      verification: a.checks?.map(toCheck),
      stageVerification: a.stageChecks && Object.fromEntries(Object.entries(a.stageChecks).map(([k, v]) => [k, v.map(toCheck)])),
      exemptions: a.exemptions,
      clusterResources: a.clusterResources,
    });
    return { app: platformApp, targets: targets ?? ClusterSelector.all(), requires: requires ?? [], pipeline, spec: a };
  });
  if (f.late) fleet.addCluster(clusterOptions(f.late));
  return { app, fleet, pipelines, apps };
}

interface ChartOutput { readonly id: string; readonly objects: any[] }

/** Every chart's objects, after cdk8s ran the constructs' validations (`app.synth()`). */
function synthesize(b: Built): ChartOutput[] {
  const charts = b.app.charts.map(c => ({ id: c.node.id, objects: c.toJson() }));
  b.app.synth();
  return charts;
}

// ---------------------------------------------------------------------------------------------
// What counts as a validation error of the library
// ---------------------------------------------------------------------------------------------

const SUBJECTS = ['PlatformApp \'', 'ClusterFleet \'', 'PromotionPipeline \'', 'PlatformStandards \'', 'cannot read clusters from terraform output'];
/** What the constructs' own validations (`node.addValidation`) say, after cdk8s's `[<path>] `. */
const VALIDATION_LINES = [...SUBJECTS, 'standards: PlatformApp \'', 'fleet \'', 'pipeline has no stages'];

/** Why an error is not one of the library's validation errors, or undefined when it is one. */
function notALibraryError(e: unknown, terraformFile?: string): string | undefined {
  if (!(e instanceof Error)) return `threw a non-Error: ${String(e)}`;
  if (e.constructor !== Error) return `threw a ${e.constructor.name}`;
  const message = e.message;
  if (/undefined/.test(message.replace(/got undefined/g, ''))) return 'the message shows "undefined"';
  if (/\[object Object\]/.test(message)) return 'the message shows [object Object]';
  const header = 'Validation failed with the following errors:\n';
  if (message.startsWith(header)) {
    for (const line of message.slice(header.length).split('\n')) {
      const m = /^ {2}\[[^\]]*\] (.*)$/.exec(line);
      if (!m) return `validation line without a construct path: ${JSON.stringify(line)}`;
      if (!VALIDATION_LINES.some(s => m[1].startsWith(s))) return `validation line without the library's context: ${JSON.stringify(line)}`;
    }
    return undefined;
  }
  if (!SUBJECTS.some(s => message.startsWith(s)) && !(terraformFile !== undefined && message.startsWith(`${terraformFile}: `))) {
    return 'the message does not start with the library\'s subject';
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// What a successful synth must satisfy
// ---------------------------------------------------------------------------------------------

function yamlOf(charts: ChartOutput[]): string[] {
  return charts.map(c => `# ${c.id}\n${Yaml.stringify(...c.objects)}`);
}

/** Every problem with the output of a successful synth; empty when it is right. */
function outputProblems(spec: WorldSpec, b: Built, charts: ChartOutput[]): string[] {
  const problems: string[] = [];

  // every object is valid against the pinned upstream schemas
  for (const chart of charts) {
    const issues = formatIssues(validator.validateObjects(chart.objects, chart.id));
    if (issues) problems.push(issues);
  }

  // the live controllers (Argo CD, Kargo promotions in every scenario, Rollouts) would find no
  // problem but the known ones of today's emitters (issue 8)
  const unexpected = unexpectedFindings(simulateControllers(modelInput(charts)));
  if (unexpected.length > 0) problems.push(`controller model (known: ${KNOWN_CONTROLLER_PROBLEMS.length}):\n${unexpected.join('\n')}`);

  // the YAML round-trips (cdk8s writes YAML 1.1, as Kubernetes tooling reads it)
  for (const chart of charts) {
    const text = Yaml.stringify(...chart.objects);
    const docs = parseAllDocuments(text, { version: '1.1' });
    const back = (Array.isArray(docs) ? docs : [docs]).map(d => d.toJS());
    try {
      expect(back).toStrictEqual(chart.objects);
    } catch (e) {
      problems.push(`chart ${chart.id} does not round-trip through YAML: ${(e as Error).message.slice(0, 2000)}`);
    }
  }

  const clusters = b.fleet.clusters;
  const secrets = charts.find(c => c.id === 'fleet')?.objects ?? [];
  const central = clusters.filter(c => c.argoCd.kind === 'central').map(c => c.name).sort();
  const secretNames = secrets.filter(s => s.kind === 'Secret').map(s => s.stringData?.name).sort();
  if (JSON.stringify(secretNames) !== JSON.stringify(central)) {
    problems.push(`fleet has cluster Secrets for ${secretNames.join(',')}, expected the central clusters ${central.join(',')}`);
  }
  for (const s of secrets) {
    if (s.metadata.labels?.['argocd.argoproj.io/secret-type'] !== 'cluster') problems.push(`Secret ${s.metadata.name} is not a cluster Secret`);
    const shard = s.stringData?.shard;
    const shards = b.fleet.applicationControllerShards;
    if (shard !== undefined && shards !== undefined && !(Number(shard) >= 0 && Number(shard) < shards)) {
      problems.push(`Secret ${s.metadata.name} is on controller shard ${shard}, the fleet has ${shards}`);
    }
  }

  for (const { app, targets, requires, pipeline, spec: appSpec } of b.apps) {
    const plan = app.plan;
    const where = `app ${plan.app}`;
    const stageSpecs = spec.pipelines[appSpec.pipeline % spec.pipelines.length].stages;

    // selectors have Kubernetes semantics in both forms (the one Argo CD sees and matches())
    for (const stage of pipeline.stages) {
      for (const c of clusters) {
        if (stage.clusters.matches(c.labels) !== selectorMatches(stage.clusters.toLabelSelector() as any, c.labels)) {
          problems.push(`${where}: selector ${stage.clusters} matches ${c.name} differently in Kubernetes form`);
        }
      }
    }

    // every targeted cluster of a stage is in exactly one wave of that stage and in no other stage
    const seen = new Map<string, string>();
    for (const stagePlan of plan.stages) {
      const stage = pipeline.stages.find(s => s.name === stagePlan.name)!;
      const expected = clusters
        .filter(c => stage.clusters.matches(c.labels) && targets.matches(c.labels) && requires.every(r => r.isSatisfiedBy(c)))
        .map(c => c.name).sort();
      const placed = stagePlan.waves.flatMap(w => w.clusters).sort();
      if (JSON.stringify(placed) !== JSON.stringify(expected)) {
        problems.push(`${where} stage ${stagePlan.name}: waves hold ${placed.join(',')}, the stage targets ${expected.join(',')}`);
      }
      for (const c of placed) {
        if (seen.has(c)) problems.push(`${where}: cluster ${c} is in ${seen.get(c)} and in stage ${stagePlan.name}`);
        seen.set(c, stagePlan.name);
      }
    }
    if (JSON.stringify([...seen.keys()].sort()) !== JSON.stringify(plan.clusters)) {
      problems.push(`${where}: plan.clusters ${plan.clusters.join(',')} is not the clusters of its waves`);
    }
    if (JSON.stringify(plan.stages.map(s => s.name)) !== JSON.stringify(pipeline.stages.map(s => s.name))) {
      problems.push(`${where}: plan stages ${plan.stages.map(s => s.name)} are not the pipeline's ${pipeline.stages.map(s => s.name)}`);
    }

    // waves are ordered: the first wave has no upstreams, every other wave's upstreams are the Kargo Stages of the previous wave
    const groups: { key: string; kargoStages: string[]; upstreams: string[][]; soaks: (string | undefined)[]; stage: string }[] = [];
    for (const s of plan.stages) {
      for (const w of s.waves) {
        const key = `${s.name}/${w.name}`;
        let g = groups[groups.length - 1];
        if (!g || g.key !== key) {
          g = { key, kargoStages: [], upstreams: [], soaks: [], stage: s.name };
          groups.push(g);
        }
        g.kargoStages.push(w.kargoStage);
        g.upstreams.push(w.upstreams);
        g.soaks.push(w.soak);
      }
    }
    if (new Set(groups.map(g => g.key)).size !== groups.length) problems.push(`${where}: a wave is split across the plan`);
    groups.forEach((g, i) => {
      const expected = i === 0 ? [] : [...groups[i - 1].kargoStages].sort();
      for (const u of g.upstreams) {
        if (JSON.stringify(u) !== JSON.stringify(expected)) problems.push(`${where}: wave ${g.key} has upstreams ${u}, expected ${expected}`);
      }
      const stageSpec = stageSpecs.find(s => s.name === g.stage)!;
      const soak = i === 0 || stageSpec.soakMs === undefined ? undefined : goDuration(stageSpec.soakMs / 1000);
      for (const s of g.soaks) if (s !== soak) problems.push(`${where}: wave ${g.key} soaks ${s}, expected ${soak}`);
    });

    // Kargo Stage names (hence release branches and ApplicationSets) are unique per app
    const kargoStages = plan.stages.flatMap(s => s.waves.map(w => w.kargoStage));
    if (new Set(kargoStages).size !== kargoStages.length) problems.push(`${where}: Kargo Stage names repeat: ${kargoStages.join(',')}`);

    const appObjects = charts.find(c => c.id === app.node.id)?.objects ?? [];
    const stageObjects = appObjects.filter(o => o.kind === 'Stage');
    if (JSON.stringify(stageObjects.map(o => o.metadata.name)) !== JSON.stringify(kargoStages)) {
      problems.push(`${where}: Stage objects ${stageObjects.map(o => o.metadata.name)} are not the plan's ${kargoStages}`);
    }
    for (const s of plan.stages) {
      for (const w of s.waves) {
        const o = stageObjects.find(x => x.metadata.name === w.kargoStage);
        const sources = o?.spec.requestedFreight[0].sources;
        const expected = w.upstreams.length === 0 ? { direct: true }
          : { stages: w.upstreams, ...w.upstreams.length > 1 ? { availabilityStrategy: 'All' } : {}, ...w.soak ? { requiredSoakTime: w.soak } : {} };
        if (canonical(sources) !== canonical(expected)) {
          problems.push(`${where}: Stage ${w.kargoStage} takes Freight from ${JSON.stringify(sources)}, expected ${JSON.stringify(expected)}`);
        }
      }
    }

    // the ProjectConfig auto-promotes exactly the Kargo Stages of the stages that promote by themselves
    const auto = stageSpecs
      .filter(s => s.approval?.k === 'automatic' || (s.approval?.k === 'pr' && s.approval.open !== false))
      .flatMap(s => plan.stages.find(p => p.name === s.name)?.waves.map(w => w.kargoStage) ?? []);
    const config = appObjects.find(o => o.kind === 'ProjectConfig');
    const policies = (config?.spec?.promotionPolicies ?? []) as any[];
    const autoPromoted = policies.filter(p => p.autoPromotionEnabled).map(p => p.stageSelector?.name ?? p.stage);
    if (JSON.stringify([...autoPromoted].sort()) !== JSON.stringify([...auto].sort()) || policies.length !== autoPromoted.length) {
      problems.push(`${where}: the ProjectConfig auto-promotes ${autoPromoted.join(',')}, expected ${auto.join(',')}`);
    }

    // the shared consistency check: every planned cluster gets one Application, each Stage updates exactly its wave's Applications
    // (the app's chart is named after its construct id, its per-cluster charts after the app's name)
    const own = charts.filter(c => c.id === 'fleet' || c.id === app.node.id || plan.clusters.some(cl => c.id === `${plan.app}--${cl}`))
      .map(c => ({ id: c.id === app.node.id ? plan.app : c.id, objects: c.objects }));
    problems.push(...releaseConsistencyProblems(plan, own).map(p => `${where}: ${p}`));

    // each ApplicationSet expands to exactly its wave's clusters, each Application names exactly the Stage of its wave
    const instances = argoCdInstances(plan.app, own);
    for (const w of plan.stages.flatMap(s => s.waves)) {
      const apps = w.argoCd === 'central'
        ? instances.central.filter(a => a.appSet === w.applicationSet)
        : w.clusters.flatMap(c => instances.perCluster.get(c) ?? []);
      const deployed = apps.map(a => a.destination.name ?? a.labels[PlatformLabels.CLUSTER]).sort();
      if (JSON.stringify(deployed) !== JSON.stringify(w.clusters)) problems.push(`${where}: wave ${w.kargoStage} deploys to ${deployed}, expected ${w.clusters}`);
      for (const a of apps) {
        const authorized = a.annotations['kargo.akuity.io/authorized-stage'];
        if (authorized !== `${plan.project}:${w.kargoStage}`) problems.push(`${where}: Application ${a.name} authorizes ${authorized}, expected ${plan.project}:${w.kargoStage}`);
      }
    }

    // Helm refuses release names it cannot use (chartutil.ValidateReleaseName), even for helm template
    for (const step of appObjects.find(o => o.kind === 'PromotionTask')?.spec.steps ?? []) {
      const name = step.uses === 'helm-template' ? step.config.releaseName : undefined;
      if (name !== undefined && !(name.length <= 53 && /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/.test(name))) {
        problems.push(`${where}: helm-template release name "${name}" is not one Helm accepts (at most 53 characters)`);
      }
    }

    // each Stage renders exactly its wave's clusters
    for (const w of plan.stages.flatMap(s => s.waves)) {
      const steps = stageObjects.find(o => o.metadata.name === w.kargoStage)?.spec.promotionTemplate.spec.steps ?? [];
      const rendered = steps.filter((x: any) => x.task?.name === 'render-cluster').map((x: any) => x.vars.find((v: any) => v.name === 'cluster').value);
      if (JSON.stringify(rendered) !== JSON.stringify(w.clusters)) problems.push(`${where}: Stage ${w.kargoStage} renders ${rendered}, expected ${w.clusters}`);
    }

    // the central AppProject allows exactly the app's central clusters
    const centralClusters = plan.stages.flatMap(s => s.waves).filter(w => w.argoCd === 'central').flatMap(w => w.clusters).sort();
    const project = appObjects.find(o => o.kind === 'AppProject');
    const destinations = (project?.spec.destinations ?? []).map((d: any) => `${d.name} ${d.server} ${d.namespace}`);
    const expectedDestinations = centralClusters.map(c => `${c} ${b.fleet.findCluster(c)!.server} ${plan.destinationNamespace}`);
    if (JSON.stringify(destinations) !== JSON.stringify(expectedDestinations)) {
      problems.push(`${where}: the AppProject allows ${destinations.join(', ')}, expected ${expectedDestinations.join(', ')}`);
    }

    // promoters may promote into exactly the Kargo Stages of each gated stage
    for (const s of plan.stages) {
      const role = appObjects.find(o => o.kind === 'Role' && o.metadata.name === `promoter-${s.name}`);
      const promotable = (role?.rules ?? []).filter((r: any) => r.verbs.includes('promote')).flatMap((r: any) => r.resourceNames ?? ['*']).sort();
      const expected = s.approval === 'automatic' ? [] : s.waves.map(w => w.kargoStage).sort();
      if (JSON.stringify(promotable) !== JSON.stringify(expected)) problems.push(`${where}: stage ${s.name} promoters may promote ${promotable}, expected ${expected}`);
    }

    // verification: every template a Stage references exists (or is an existing one), and per-cluster checks measure every cluster of the wave
    const templates = appObjects.filter(o => o.kind === 'AnalysisTemplate');
    for (const w of plan.stages.flatMap(s => s.waves)) {
      const stageObject = stageObjects.find(o => o.metadata.name === w.kargoStage);
      for (const ref of stageObject?.spec.verification?.analysisTemplates ?? []) {
        const template = templates.find(t => t.metadata.name === ref.name);
        if (!template) {
          if (!isExistingTemplate(spec, ref.name)) problems.push(`${where}: Stage ${w.kargoStage} references a missing AnalysisTemplate ${ref.name}`);
          continue;
        }
        if (template.metadata.labels?.[PlatformLabels.STAGE] !== w.kargoStage) problems.push(`${where}: AnalysisTemplate ${ref.name} belongs to ${template.metadata.labels?.[PlatformLabels.STAGE]}, not ${w.kargoStage}`);
        // one metric for the Stage (named after the check), or one per cluster of the wave
        const check = ref.name.slice(w.kargoStage.length + 1);
        const metrics = JSON.stringify(template.spec.metrics.map((m: any) => m.name));
        if (metrics !== JSON.stringify([check]) && metrics !== JSON.stringify(w.clusters.map(c => `${check}-${c}`))) {
          problems.push(`${where}: AnalysisTemplate ${ref.name} has metrics ${metrics}, expected one for the Stage or one per cluster of ${w.clusters}`);
        }
      }
    }
  }
  return problems;
}

/** Whether a check of the input references an existing (not generated) template of this name. */
function isExistingTemplate(spec: WorldSpec, name: string): boolean {
  const checks = [...spec.pipelines.flatMap(p => p.stages.flatMap(s => s.checks ?? [])),
    ...spec.apps.flatMap(a => [...a.checks ?? [], ...Object.values(a.stageChecks ?? {}).flat()])];
  return checks.some(c => c.k === 'template' && c.name === name);
}

/** JSON with sorted keys, to compare objects whatever the order of their members. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_, v) => v && typeof v === 'object' && !Array.isArray(v)
    ? Object.fromEntries(Object.keys(v).sort().map(k => [k, v[k]])) : v);
}

function goDuration(seconds: number): string {
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  return `${h ? `${h}h` : ''}${m ? `${m}m` : ''}${s ? `${s}s` : ''}`;
}

// ---------------------------------------------------------------------------------------------
// Generators: valid definitions by construction, then (in a fraction of the cases) one defect
// ---------------------------------------------------------------------------------------------

/** A value one time in `freq`, else undefined. */
function maybe<T>(arb: fc.Arbitrary<T>, freq = 2): fc.Arbitrary<T | undefined> {
  return fc.oneof({ arbitrary: fc.constant(undefined), weight: freq - 1 }, { arbitrary: arb, weight: 1 });
}

/** Undefined one time in `freq`, else a value. */
function often<T>(arb: fc.Arbitrary<T>, freq = 2): fc.Arbitrary<T | undefined> {
  return fc.option(arb, { nil: undefined, freq });
}

/** Drops the undefined members, so counterexamples print compactly. */
function clean<T>(value: T): T {
  return JSON.parse(JSON.stringify(value));
}

const PROVIDERS = ['aws', 'gcp', 'azure', 'oci', 'on-prem'];
const REGIONS = ['us-east-1', 'us-central1', 'europe-west4', 'eastus', 'ap-tokyo-1', 'dc1'];
const TIERS = ['dev', 'qa', 'staging', 'prod', 'edge'];
const ACCELERATORS = ['none', 'nvidia-h100', 'nvidia-h200', 'amd-mi300x', 'google-tpu', 'nvidia-b200'];
const RINGS = ['canary', 'early', 'broad'];

const clusterName = fc.oneof(
  { arbitrary: fc.stringMatching(/^[a-z][a-z0-9]{0,5}(-[a-z0-9]{1,6}){0,3}$/), weight: 200 },
  // valid DNS labels that YAML or Kargo expressions could take for something else
  { arbitrary: fc.constantFrom('y', 'n', 'on', 'off', 'yes', 'no', 'true', 'null', '1e3', '0755', '123', '0x1f', '1-2', 'nan', 'inf', '0o17', '2024-01-01'), weight: 8 },
  // names with double dashes, which per-cluster chart ids (<app>--<cluster>) contain too
  { arbitrary: fc.stringMatching(/^[a-z]{1,4}--[a-z0-9]{1,4}$/), weight: 4 },
  { arbitrary: fc.stringMatching(/^[a-z][a-z0-9-]{40,61}[a-z0-9]$/), weight: 1 },
);

/** A cluster before `finishClusters`; `server` picks the form of its URL. */
type RawCluster = Omit<ClusterSpec, 'server'> & { server: number };

const clusterArb: fc.Arbitrary<RawCluster> = fc.record({
  name: clusterName,
  provider: fc.constantFrom(...PROVIDERS),
  region: fc.constantFrom(...REGIONS),
  tier: fc.constantFrom(...TIERS),
  accelerator: maybe(fc.constantFrom(...ACCELERATORS), 3),
  acceleratorCount: maybe(fc.integer({ min: 1, max: 64 })),
  kubernetesVersion: often(fc.constantFrom('1.29', '1.30', '1.31', '1.32', 'v1.31.4', '1.30.2-eks'), 4),
  labels: maybe(fc.record({
    'ring': often(fc.constantFrom(...RINGS), 3),
    'zone': maybe(fc.constantFrom('a', 'b'), 3),
    'team.example.com/owner': maybe(fc.constantFrom('platform', 'ml'), 4),
  }, { requiredKeys: [] }), 2),
  auth: maybe(fc.oneof(
    fc.record({
      k: fc.constant('exec' as const),
      command: fc.constantFrom('oci-auth', 'kubelogin'),
      args: maybe(fc.constant<string[]>(['get-token'])),
      env: maybe(fc.constant<Record<string, string>>({ REGION: 'x' })),
    }, { requiredKeys: ['k', 'command'] }),
    fc.record({ k: fc.constant('eks' as const), roleArn: maybe(fc.constant('arn:aws:iam::123456789012:role/argocd')) }, { requiredKeys: ['k'] }),
    fc.constant({ k: 'gke' as const }),
    fc.constant({ k: 'aks' as const }),
  ), 4),
  caData: maybe(fc.constant('LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0t'), 8),
  argoCd: maybe(fc.oneof(
    { arbitrary: fc.constant({ k: 'central' as const }), weight: 1 },
    {
      arbitrary: fc.record({
        k: fc.constant('per-cluster' as const),
        kargoShard: maybe(fc.constantFrom('edge-shard', 'kargo-a'), 3),
        namespace: maybe(fc.constantFrom('argocd', 'argo-cd'), 3),
      }, { requiredKeys: ['k'] }),
      weight: 2,
    }), 5),
  shard: maybe(fc.integer({ min: 0, max: 3 }), 12),
  server: fc.constantFrom(0, 0, 0, 1, 1, 2, 3), // host name, IP address, path (Rancher-style), IPv6
}, { requiredKeys: ['name', 'provider', 'region', 'tier', 'server'] });

/** Unique servers and Kargo shards, counts only with accelerators, auth where the provider needs it. */
function finishClusters(raw: RawCluster[], fleetPerCluster: boolean, shards: number | undefined): ClusterSpec[] {
  return raw.map(({ server, ...c }, i) => {
    const accelerated = c.accelerator !== undefined && c.accelerator !== 'none';
    const cluster: ClusterSpec = {
      ...c,
      server: [`https://${c.name}.k8s.example.com`, `https://10.0.${Math.floor(i / 200)}.${(i % 200) + 1}`, `https://api.example.com:6443/k8s/clusters/c-${i}`,
        `https://[2001:db8::${(i + 1).toString(16)}]:6443`][server % 4],
      acceleratorCount: accelerated ? c.acceleratorCount ?? 8 : undefined,
    };
    const central = c.argoCd ? c.argoCd.k === 'central' : !fleetPerCluster;
    if ((c.provider === 'oci' || c.provider === 'on-prem') && central && c.auth?.k !== 'exec') cluster.auth = { k: 'exec', command: `${c.provider}-auth` };
    if (c.shard !== undefined && (!central || shards === undefined || c.shard >= shards)) delete cluster.shard;
    if (c.argoCd?.k === 'per-cluster' && c.argoCd.kargoShard !== undefined) cluster.argoCd = { ...c.argoCd, kargoShard: `${c.argoCd.kargoShard}-${i}` };
    return clean(cluster);
  });
}

const fleetArb: fc.Arbitrary<FleetSpec> = fc.record({
  fromTerraform: fc.integer({ min: 0, max: 5 }).map(n => n === 0),
  perCluster: fc.integer({ min: 0, max: 9 }).map(n => n === 0),
  shards: maybe(fc.integer({ min: 1, max: 4 }), 4),
  fleetName: maybe(fc.constantFrom('prod-fleet', 'edge'), 6),
  argoCdNamespace: maybe(fc.constant('gitops'), 8),
  clusters: fc.uniqueArray(clusterArb, { minLength: 1, maxLength: 30, selector: c => c.name }),
}).map(f => clean({
  fromTerraform: f.fromTerraform,
  fleetName: f.fleetName,
  argoCdNamespace: f.argoCdNamespace,
  topology: f.perCluster ? { k: 'per-cluster' } : undefined,
  shards: f.shards,
  clusters: finishClusters(f.clusters, f.perCluster, f.shards),
}));

// ----- pipelines, derived from the fleet: each stage selects a slice of the clusters

const STAGE_NAMES = ['dev', 'test', 'qa', 'staging', 'preprod', 'prod', 'prod-eu', 'canary', 'edge', 'dr'];
/** Stage names that look like the Kargo Stages of another stage's waves. */
const LOOKALIKE_STAGE_NAMES = ['prod-w1', 'prod-w2', 'prod-canary', 'prod-broad', 'dev-w1', 'staging-early'];

interface Member { readonly index: number; readonly c: ClusterSpec }

type PartitionKey = 'tier' | 'provider' | 'accelerator' | 'region' | 'ring' | 'names';

function valueOf(key: PartitionKey, c: ClusterSpec): string {
  switch (key) {
    case 'tier': return c.tier;
    case 'provider': return c.provider;
    case 'accelerator': return c.accelerator ?? 'none';
    case 'region': return c.region;
    case 'ring': return c.labels?.ring ?? '';
    case 'names': return c.name;
  }
}

function sortValues(key: PartitionKey, values: string[]): string[] {
  const order = key === 'tier' ? TIERS : key === 'ring' ? RINGS : [];
  return [...values].sort((a, b) => {
    const ia = order.indexOf(a);
    const ib = order.indexOf(b);
    return ia !== ib ? (ia < 0 ? 99 : ia) - (ib < 0 ? 99 : ib) : a.localeCompare(b);
  });
}

const PARTITION_LABELS: Record<string, string> = {
  tier: PlatformLabels.TIER, provider: PlatformLabels.PROVIDER, accelerator: PlatformLabels.ACCELERATOR, region: PlatformLabels.REGION,
};

/** A selector of exactly the clusters whose partition value is in `group`, in one of several equivalent forms. */
function groupSelector(key: PartitionKey, group: string[], all: string[], style: number): SelSpec {
  if (group.length === all.length) return style % 2 === 0 ? { k: 'all' } : { k: 'expr', key: PlatformLabels.CLUSTER, op: 'Exists' };
  const others = all.filter(v => !group.includes(v));
  switch (key) {
    case 'ring': {
      // '' stands for the clusters without a ring label
      if (group.includes('')) {
        return group.length === 1 && style % 2 === 1 ? { k: 'expr', key: 'ring', op: 'DoesNotExist' } : { k: 'expr', key: 'ring', op: 'NotIn', values: others };
      }
      if (style % 3 === 0 && !others.includes('')) return { k: 'expr', key: 'ring', op: 'NotIn', values: others };
      return group.length === 1 ? { k: 'labels', v: { ring: group[0] } } : { k: 'expr', key: 'ring', op: 'In', values: group };
    }
    case 'names':
      return { k: 'names', v: group };
    default: {
      const label = PARTITION_LABELS[key];
      if (style % 5 === 1) return { k: 'expr', key: label, op: 'NotIn', values: others };
      if (style % 5 === 2) return { k: 'and', of: [{ k: key, v: group }, { k: 'expr', key: PlatformLabels.TOPOLOGY, op: 'Exists' }] };
      if (style % 5 === 3 && group.length === 1) return { k: 'labels', v: { [label]: group[0] } };
      // the same label twice: .and() keeps one matchLabels entry
      if (style % 5 === 4 && group.length === 1) return { k: 'and', of: [{ k: 'labels', v: { [label]: group[0] } }, { k: key, v: group }, { k: 'labels', v: { [label]: group[0] } }] };
      return { k: key, v: group } as SelSpec;
    }
  }
}

/** Selectors picked at random: they may overlap, select nothing, or be malformed. */
const randomSelector: fc.Arbitrary<SelSpec> = fc.oneof(
  fc.constant({ k: 'all' } as SelSpec),
  fc.record({ k: fc.constant('tier' as const), v: fc.subarray(TIERS, { minLength: 1 }) }),
  fc.record({ k: fc.constant('provider' as const), v: fc.subarray(PROVIDERS, { minLength: 1 }) }),
  fc.record({ k: fc.constant('accelerator' as const), v: fc.subarray(ACCELERATORS, { minLength: 1 }) }),
  fc.record({ k: fc.constant('labels' as const), v: fc.constantFrom<Record<string, string>>({ ring: 'canary' }, { zone: 'a' }, { ring: 'broad', zone: 'b' }) }),
  fc.record({
    key: fc.constantFrom('ring', 'zone', PlatformLabels.TIER, PlatformLabels.ACCELERATOR),
    op: fc.constantFrom('In', 'NotIn', 'Exists', 'DoesNotExist'),
    values: fc.subarray(['canary', 'broad', 'a', 'prod', 'nvidia-h100'], { minLength: 1 }),
  }).map(e => clean({ k: 'expr' as const, ...e, values: e.op === 'In' || e.op === 'NotIn' ? e.values : undefined })),
);

const randomSelectorAnd: fc.Arbitrary<SelSpec> = fc.oneof(
  { arbitrary: randomSelector, weight: 3 },
  { arbitrary: fc.array(randomSelector, { minLength: 2, maxLength: 3 }).map(of => ({ k: 'and', of }) as SelSpec), weight: 1 },
);

const approvalArb: fc.Arbitrary<ApprovalSpec> = fc.oneof(
  { arbitrary: fc.constant({ k: 'automatic' as const }), weight: 4 },
  { arbitrary: fc.record({ k: fc.constant('manual' as const), promoters: maybe(fc.constant<string[]>(['sre', 'release-managers']), 3) }, { requiredKeys: ['k'] }), weight: 4 },
  {
    arbitrary: fc.record({
      k: fc.constant('pr' as const),
      promoters: maybe(fc.constant<string[]>(['sre'])),
      labels: maybe(fc.constant<string[]>(['release', 'kargo'])),
      open: maybe(fc.boolean()),
    }, { requiredKeys: ['k'] }),
    weight: 2,
  },
);

const budgetArb: fc.Arbitrary<BudgetSpec> = fc.record({
  maxClusters: maybe(fc.integer({ min: 1, max: 12 })),
  maxPercent: maybe(fc.integer({ min: 10, max: 100 })),
}, { requiredKeys: [] });

// ----- verification checks (valid; defects are injected later)

const argValueArb: fc.Arbitrary<ArgSpec> = fc.oneof(
  { arbitrary: fc.constantFrom('{stage}', 'v1', 'gateway').map(text => ({ k: 'value' as const, text })), weight: 4 },
  { arbitrary: fc.constant({ k: 'expr' as const, text: 'ctx.stage' }), weight: 2 },
  { arbitrary: fc.constant({ k: 'imageTag' as const, repo: 'ghcr.io/acme/api' }), weight: 1 },
  { arbitrary: fc.constant({ k: 'commit' as const, url: 'https://github.com/acme/api.git' }), weight: 1 },
);

// some are named like a wave plus a check, so generated template and metric names can collide
const CHECK_NAMES = ['health', 'errors', 'smoke', 'latency', 'ready', 'slo', 'w1-health', 'canary-health', 'broad-smoke'];
const checkNameArb = maybe(fc.constantFrom(...CHECK_NAMES), 6);

const httpCheckArb: fc.Arbitrary<CheckSpec> = fc.record({
  name: checkNameArb,
  url: fc.constantFrom(
    'https://api.{cluster}.example.com/healthz',
    'https://{region}.status.example.com/{stage}/{tier}',
    'http://gateway.example.com/health',
    'https://{provider}.example.com/{accelerator}?app={{args.app}}',
  ),
  method: maybe(fc.constantFrom('GET', 'POST', 'PUT'), 4),
  headers: maybe(fc.constantFrom<Record<string, string>>({ 'X-Cluster': '{cluster}' }, { Authorization: 'Bearer {{args.token}}' })),
  jsonPath: fc.boolean(),
  condition: maybe(fc.constantFrom('result == \'UP\'', 'true'), 3),
  count: fc.integer({ min: 1, max: 6 }),
  failureLimit: fc.nat(),
  intervalMs: maybe(fc.constantFrom(10_000, 60_000), 4),
  timeoutMs: maybe(fc.constant(5000), 4),
  dryRun: maybe(fc.boolean(), 4),
}, { requiredKeys: ['url', 'jsonPath', 'count', 'failureLimit'] }).map(c => {
  const args: Record<string, ArgSpec> = {};
  if (c.url.includes('{{args.app}}')) args.app = { k: 'value', text: 'gateway' };
  if (c.headers?.Authorization) args.token = { k: 'secret', name: 'probe-token', key: 'token' };
  return clean({
    k: 'http' as const,
    ...c,
    jsonPath: c.jsonPath && c.condition ? '{$.status}' : undefined,
    body: c.method && c.method !== 'GET' ? '{"cluster": "{cluster}"}' : undefined,
    failureLimit: c.failureLimit % c.count,
    args: Object.keys(args).length > 0 ? args : undefined,
  });
});

const promCheckArb: fc.Arbitrary<CheckSpec> = fc.record({
  name: checkNameArb,
  address: fc.constantFrom('http://prometheus.{region}.example.com:9090', 'https://thanos.example.com'),
  query: fc.constantFrom(
    'sum(rate(http_requests_total{cluster="{cluster}",code=~"5.."}[5m])) / sum(rate(http_requests_total{cluster="{cluster}"}[5m]))',
    'up{job="gateway",stage="{stage}"}',
    'sum(rate(errors{app="{{args.app}}"}[5m]))',
  ),
  condition: fc.boolean(),
  threshold: fc.constantFrom(0.01, 1, 0),
  comparison: fc.constantFrom(...Object.values(Comparison)),
  count: maybe(fc.integer({ min: 2, max: 5 }), 3),
}, { requiredKeys: ['address', 'query', 'condition', 'threshold', 'comparison'] }).map(c => clean({
  k: 'prometheus' as const,
  name: c.name,
  address: c.address,
  query: c.query,
  count: c.count,
  ...c.condition ? { condition: 'len(result) > 0 && result[0] < 0.05' } : { threshold: c.threshold, comparison: c.comparison },
  args: c.query.includes('{{args.app}}') ? { app: { k: 'value' as const, text: 'gateway' } } : undefined,
}));

const jobCheckArb: fc.Arbitrary<CheckSpec> = fc.record({
  name: checkNameArb,
  image: fc.constantFrom('ghcr.io/acme/smoke:1.4.0', 'ghcr.io/acme/smoke:{{args.version}}'),
  command: maybe(fc.constant<string[]>(['/bin/smoke'])),
  containerArgs: maybe(fc.constantFrom<string[]>(['--target', 'https://api.{cluster}.example.com'], ['--stage', '{stage}'])),
  env: maybe(fc.constantFrom<Record<string, string>>({ REGION: '{region}' }, { API_TOKEN: '{{args.token}}' })),
}, { requiredKeys: ['image'] }).map(c => {
  const args: Record<string, ArgSpec> = {};
  if (c.image.includes('{{args.version}}')) args.version = { k: 'imageTag', repo: 'ghcr.io/acme/api' };
  if (c.env?.API_TOKEN) args.token = { k: 'secret', name: 'smoke', key: 'token' };
  return clean({ k: 'job' as const, ...c, args: Object.keys(args).length > 0 ? args : undefined });
});

const templateCheckArb: fc.Arbitrary<CheckSpec> = fc.record({
  name: fc.constantFrom('shared-smoke', 'org.slo-check'),
  clusterScoped: maybe(fc.boolean()),
  args: maybe(fc.record({ service: argValueArb })),
}, { requiredKeys: ['name'] }).map(c => clean({ k: 'template' as const, ...c }));

const checkArb: fc.Arbitrary<CheckSpec> = fc.oneof(
  { arbitrary: httpCheckArb, weight: 4 },
  { arbitrary: promCheckArb, weight: 2 },
  { arbitrary: jobCheckArb, weight: 2 },
  { arbitrary: templateCheckArb, weight: 1 },
);

function checkName(c: CheckSpec): string {
  return c.name ?? c.k;
}

/** 1 to `max` checks with distinct names, each name tagged so lists of different owners do not clash. */
function checksArb(max: number, tag: string): fc.Arbitrary<CheckSpec[]> {
  return fc.uniqueArray(checkArb, { minLength: 1, maxLength: max, selector: checkName })
    .map(list => list.map(c => ({ ...c, name: `${checkName(c)}${tag}` })));
}

/** A pipeline whose stages partition the fleet by one attribute, with the clusters of each stage. */
function pipelineArb(clusters: ClusterSpec[], id: string, tag: string): fc.Arbitrary<{ pipeline: PipelineSpec; members: Member[][] }> {
  const members: Member[] = clusters.map((c, index) => ({ index, c }));
  return fc.record({
    key: fc.constantFrom<PartitionKey>('tier', 'tier', 'provider', 'accelerator', 'region', 'ring', 'names'),
    stageCount: fc.integer({ min: 1, max: 4 }),
    style: fc.nat(),
    names: fc.shuffledSubarray(STAGE_NAMES, { minLength: 4, maxLength: 4 }),
    lookalike: fc.integer({ min: 0, max: 9 }),
    stageOptions: fc.tuple(...Array.from({ length: 4 }, () => fc.record({
      approval: often(approvalArb, 6),
      wavesKind: fc.constantFrom('none', 'single', 'label', 'label', 'count', 'pct'),
      count: fc.integer({ min: 1, max: 5 }),
      pct: fc.subarray([1, 5, 10, 20, 25, 33, 50, 75, 90]).map(p => [...p, 100]),
      extraRing: fc.boolean(),
      soakMs: maybe(fc.constantFrom(30, 60, 90, 3600, 5400).map(s => s * 1000), 2),
      production: maybe(fc.boolean(), 5),
      budget: fc.integer({ min: 0, max: 3 }),
      randomBudget: maybe(budgetArb, 80),
      checks: maybe(checksArb(2, `-${tag}`), 5),
    }))),
    budget: maybe(fc.constantFrom<BudgetSpec>({ maxPercent: 100 }, { maxClusters: 30 }), 6),
    random: fc.integer({ min: 0, max: 11 }),
    randomSelectors: fc.array(randomSelectorAnd, { minLength: 4, maxLength: 4 }),
  }).map(g => {
    const values = sortValues(g.key, [...new Set(members.map(m => valueOf(g.key, m.c)))]);
    const count = Math.min(g.stageCount, values.length);
    // consecutive chunks of the sorted values, one per stage
    const chunks: string[][] = [];
    for (let i = 0; i < count; i++) chunks.push(values.slice(Math.floor((i * values.length) / count), Math.floor(((i + 1) * values.length) / count)));
    const stageMembers = chunks.map(chunk => members.filter(m => chunk.includes(valueOf(g.key, m.c))));
    const names = [...g.names];
    // a stage named like another stage's wave (prod-w1, prod-canary, ...)
    if (g.lookalike === 0 && count >= 2) {
      // the second stage is named like a wave of the first (prod-w1 after prod), which may or may not have that wave
      const lookalike = LOOKALIKE_STAGE_NAMES[g.style % LOOKALIKE_STAGE_NAMES.length];
      names[0] = lookalike.slice(0, lookalike.lastIndexOf('-'));
      names[1] = lookalike;
      for (let i = 2; i < names.length; i++) if (names[i] === names[0]) names[i] = 'other';
    }
    const stages: StageSpec[] = chunks.map((chunk, i) => {
      const o = g.stageOptions[i];
      const inStage = stageMembers[i].map(m => m.c);
      const rings = sortValues('ring', [...new Set(inStage.map(c => c.labels?.ring).filter((r): r is string => r !== undefined))]);
      const allRinged = inStage.every(c => c.labels?.ring !== undefined);
      let wavesSpec: WavesSpec | undefined;
      switch (o.wavesKind) {
        case 'single': wavesSpec = { k: 'single' }; break;
        case 'label': {
          // by ring when every cluster of the stage has one, else by a label every cluster carries or by zone
          const key = allRinged ? 'ring' : [PlatformLabels.PROVIDER, PlatformLabels.REGION, PlatformLabels.ACCELERATOR, 'zone'][g.style % 4];
          const labelOf = (c: ClusterSpec) => key === 'ring' ? c.labels?.ring : key === 'zone' ? c.labels?.zone
            : key === PlatformLabels.PROVIDER ? c.provider : key === PlatformLabels.REGION ? c.region : c.accelerator ?? 'none';
          const present = [...new Set(inStage.map(labelOf))];
          wavesSpec = present.includes(undefined) ? { k: 'count', n: o.count }
            : { k: 'label', key, values: key === 'ring' ? (o.extraRing ? RINGS : rings) : (present as string[]).sort() };
          break;
        }
        case 'count': wavesSpec = { k: 'count', n: o.count }; break;
        case 'pct': wavesSpec = { k: 'pct', p: o.pct }; break;
      }
      // a budget that count waves meet (the first wave may grow, never beyond it), or one at random
      const budget = wavesSpec?.k === 'count' && o.budget > 0
        ? { maxClusters: Math.ceil(inStage.length / wavesSpec.n) + o.budget - 1 }
        : o.randomBudget;
      return clean({
        name: names[i],
        sel: g.random === 0 ? g.randomSelectors[i] : groupSelector(g.key, chunk, values, g.style + i),
        approval: o.approval,
        waves: wavesSpec,
        soakMs: o.soakMs,
        production: o.production,
        budget,
        checks: o.checks,
      });
    });
    return { pipeline: clean({ id, stages, budget: g.budget }), members: stageMembers };
  });
}

// ----- apps

const APP_NAMES = ['api', 'gateway', 'checkout', 'inference-gateway', 'search', 'billing-worker'];
const LONG_APP_NAMES = ['a-rather-long-application-name-for-the-limits', 'an-application-name-longer-than-the-fifty-three-helm-allows'];
const SOURCE_REPOS = ['https://github.com/acme/api.git', 'https://github.com/acme/deploy', 'https://gitlab.example.com/team/app.git/'];

const credsArb: fc.Arbitrary<CredSpec> = fc.oneof(fc.constant({ k: 'wi' as const }), fc.constant({ k: 'managed' as const, source: 'vault:kv/kargo/github' }));

const imageArb: fc.Arbitrary<ArtifactSpec> = fc.record({
  repo: fc.constantFrom('ghcr.io/acme/api', 'ghcr.io/acme/worker', 'nginx', 'docker.io/library/redis', 'registry.example.com:5000/team/app',
    '123456789012.dkr.ecr.us-east-1.amazonaws.com/app'),
  versioning: maybe(fc.oneof(
    {
      arbitrary: fc.record({
        k: fc.constant('semver' as const),
        range: maybe(fc.constantFrom('^1.0.0', '~1.4', '>=1.2, <2.0', '1.x', '>=1.0.0 <2.0.0 || >=3.0.0', '>= 2.0.0', '')),
        strict: maybe(fc.boolean()),
      }, { requiredKeys: ['k'] }),
      weight: 4,
    },
    { arbitrary: fc.record({ k: fc.constant('digest' as const), tag: fc.constantFrom('latest', 'stable') }), weight: 1 },
    { arbitrary: fc.constant({ k: 'lexical' as const }), weight: 1 },
    { arbitrary: fc.constant({ k: 'newest' as const }), weight: 1 },
  ), 4),
  allowTags: maybe(fc.subarray(['^v\\d+\\.\\d+\\.\\d+$', '^\\d{8}-[a-f0-9]{7}$', '^release-.*'], { minLength: 1 }), 3),
  ignoreTags: maybe(fc.constant<string[]>(['-rc\\d*$']), 4),
  platform: maybe(fc.constant('linux/amd64'), 4),
  helmValuesKey: maybe(fc.constantFrom('gateway.image', 'worker.image'), 3),
  discoveryLimit: maybe(fc.integer({ min: 1, max: 100 }), 5),
  creds: maybe(credsArb, 6),
}, { requiredKeys: ['repo'] }).map(a => clean({ k: 'image' as const, ...a }));

const chartArb: fc.Arbitrary<ArtifactSpec> = fc.oneof(
  fc.record({
    repo: fc.constantFrom('https://charts.example.com', 'https://charts.bitnami.com/bitnami'),
    name: fc.constantFrom('redis', 'postgresql'),
    semver: maybe(fc.constantFrom('^18.0.0', '>=1.0.0')),
    dependencyName: maybe(fc.constant('cache'), 4),
    creds: maybe(credsArb, 6),
  }, { requiredKeys: ['repo', 'name'] }),
  fc.record({
    repo: fc.constantFrom('oci://ghcr.io/acme/charts/redis', 'oci://registry.example.com/charts/common'),
    semver: maybe(fc.constantFrom('^1.0.0', '~2.1')),
  }, { requiredKeys: ['repo'] }),
).map(a => clean({ k: 'chart' as const, ...a }));

const gitArb: fc.Arbitrary<ArtifactSpec> = fc.record({
  repo: fc.constantFrom('https://github.com/acme/config.git', 'https://github.com/acme/config', ...SOURCE_REPOS),
  selection: maybe(fc.constantFrom(...Object.values(GitCommitSelection)), 2),
  branch: maybe(fc.constantFrom('main', 'release/v1'), 3),
  semver: maybe(fc.constantFrom('^1.0.0', '>=2.0.0'), 3),
  allowTags: maybe(fc.constant<string[]>(['^v\\d+']), 4),
  includePaths: maybe(fc.constantFrom<string[]>(['config/'], ['glob:*.yaml'], ['regex:^env/.*$']), 3),
  excludePaths: maybe(fc.constant<string[]>(['docs/']), 4),
  creds: maybe(credsArb, 6),
}, { requiredKeys: ['repo'] }).map(a => {
  // options only where the selection uses them
  const fromBranch = (a.selection ?? GitCommitSelection.NEWEST_FROM_BRANCH) === GitCommitSelection.NEWEST_FROM_BRANCH;
  return clean({
    k: 'git' as const,
    ...a,
    branch: fromBranch ? a.branch : undefined,
    semver: a.selection === GitCommitSelection.SEMVER ? a.semver : undefined,
    allowTags: fromBranch ? undefined : a.allowTags,
  });
});

const sourceArb: fc.Arbitrary<SourceSpec> = fc.oneof(
  {
    arbitrary: fc.record({
      repo: fc.constantFrom(...SOURCE_REPOS),
      branch: maybe(fc.constantFrom('main', 'release/2024'), 4),
      path: fc.constantFrom('chart', 'charts/api', 'deploy/helm/gateway'),
      valuesFiles: maybe(fc.subarray(['values-{stage}.yaml', 'tiers/{tier}.yaml', 'values-prod.yaml'])),
      optionalValuesFiles: maybe(fc.constantFrom<string[]>(['clusters/{cluster}.yaml'], ['regions/{region}/{provider}.yaml', 'accelerators/{accelerator}.yaml']), 3),
      releaseName: maybe(fc.constant('gateway'), 4),
      creds: maybe(credsArb, 6),
    }, { requiredKeys: ['repo', 'path'] }).map(s => clean({ k: 'helm' as const, ...s })),
    weight: 3,
  },
  {
    arbitrary: fc.record({
      repo: fc.constantFrom(...SOURCE_REPOS),
      branch: maybe(fc.constant('main'), 4),
      basePath: fc.constantFrom('deploy/base', 'base'),
      overlayPath: fc.constantFrom('deploy/stages/{stage}', 'deploy/overlays/{tier}/{cluster}', '{stage}'),
    }, { requiredKeys: ['repo', 'basePath', 'overlayPath'] }).map(s => clean({ k: 'kustomize' as const, ...s })),
    weight: 1,
  },
);

/** Targets and requirements that keep at least one cluster of every stage (the picked ones), or random ones. */
function placementArb(stageMembers: Member[][]): fc.Arbitrary<{ targets?: SelSpec; requires?: ReqSpec[] }> {
  return fc.record({
    picks: fc.array(fc.nat(), { minLength: stageMembers.length, maxLength: stageMembers.length }),
    targetKind: fc.constantFrom('none', 'none', 'none', 'all', 'provider', 'accelerator', 'names', 'notin', 'none', 'provider', 'accelerator', 'names', 'notin', 'random'),
    reqKinds: fc.subarray(['k8s', 'minAcc', 'acc', 'labels', 'none', 'none', 'none', 'none', 'none', 'none', 'none', 'none', 'random'], { maxLength: 2 }),
    randomTarget: randomSelectorAnd,
    randomReq: fc.oneof(
      fc.constantFrom('1.31', '1.33').map(v => ({ k: 'k8s', v }) as ReqSpec),
      fc.integer({ min: 1, max: 100 }).map(n => ({ k: 'minAcc', n }) as ReqSpec),
      fc.subarray(ACCELERATORS, { minLength: 1 }).map(v => ({ k: 'acc', v }) as ReqSpec),
      randomSelector.map(sel => ({ k: 'labels', sel }) as ReqSpec),
    ),
  }).map(g => {
    const picked = stageMembers.map((m, i) => m[g.picks[i] % m.length].c);
    const uniq = (xs: string[]) => [...new Set(xs)].sort();
    let targets: SelSpec | undefined;
    switch (g.targetKind) {
      case 'all': targets = { k: 'all' }; break;
      case 'provider': targets = { k: 'provider', v: uniq(picked.map(c => c.provider)) }; break;
      case 'accelerator': targets = { k: 'accelerator', v: uniq(picked.map(c => c.accelerator ?? 'none')) }; break;
      case 'names': targets = { k: 'names', v: uniq(picked.map(c => c.name)) }; break;
      case 'notin': {
        const droppable = stageMembers.filter(m => m.length > 1).map(m => m.find(x => !picked.includes(x.c))!.c.name);
        targets = droppable.length > 0 ? { k: 'expr', key: PlatformLabels.CLUSTER, op: 'NotIn', values: droppable } : undefined;
        break;
      }
      case 'random': targets = g.randomTarget; break;
    }
    const requires: ReqSpec[] = [];
    for (const kind of g.reqKinds) {
      switch (kind) {
        case 'k8s': {
          const versions = picked.map(c => c.kubernetesVersion && /^v?(\d+)\.(\d+)/.exec(c.kubernetesVersion));
          if (versions.every(v => v)) requires.push({ k: 'k8s', v: `1.${Math.min(...versions.map(v => Number(v![2])))}` });
          break;
        }
        case 'minAcc': {
          const n = Math.min(...picked.map(c => c.acceleratorCount ?? 0));
          if (n >= 1) requires.push({ k: 'minAcc', n });
          break;
        }
        case 'acc': requires.push({ k: 'acc', v: uniq(picked.map(c => c.accelerator ?? 'none')) }); break;
        case 'labels': requires.push({ k: 'labels', sel: { k: 'region', v: uniq(picked.map(c => c.region)) } }); break;
        case 'random': requires.push(g.randomReq); break;
      }
    }
    return clean({ targets, requires: requires.length > 0 ? requires : undefined });
  });
}

function appArb(id: string, pipelines: { pipeline: PipelineSpec; members: Member[][] }[]): fc.Arbitrary<AppSpec> {
  return fc.nat({ max: pipelines.length - 1 }).chain(p => fc.record({
    appName: maybe(fc.constant(`${id}-app`), 12),
    owner: fc.record({
      team: fc.constantFrom('payments', 'inference', 'search'),
      contact: fc.constantFrom('#payments-oncall', 'team@example.com', 'https://oncall.example.com/team'),
      groups: maybe(fc.constantFrom<string[]>(['payments-admins'], ['payments-admins', 'sre']), 3),
    }, { requiredKeys: ['team', 'contact'] }),
    artifacts: fc.uniqueArray(fc.oneof({ arbitrary: imageArb, weight: 4 }, { arbitrary: chartArb, weight: 1 }, { arbitrary: gitArb, weight: 1 }),
      { minLength: 1, maxLength: 4, selector: a => `${a.k}:${a.repo.replace(/\/+$/, '')}#${a.k === 'chart' ? a.name : ''}` }),
    source: sourceArb,
    releaseRepo: fc.constantFrom('https://github.com/acme/releases.git', 'https://github.com/acme/releases', 'https://github.com/acme/api.git',
      'https://github.com/acme/api', 'https://github.com/acme/deploy.git', 'https://gitlab.example.com/team/app.git'),
    releaseCreds: maybe(credsArb, 4),
    // the release repository is sometimes the source repository, spelled another way
    respell: fc.integer({ min: 0, max: 11 }),
    placement: placementArb(pipelines[p].members),
    namespace: maybe(fc.constantFrom('apps', 'payments'), 5),
    checks: maybe(checksArb(3, ''), 3),
    stageChecks: maybe(fc.constantFrom(...pipelines[p].pipeline.stages.map(s => s.name)).chain(stage =>
      checksArb(2, '-extra').map(list => ({ [stage]: list }))), 4),
    exemptions: maybe(fc.constant<{ ruleId: string; justification: string }[]>([{ ruleId: 'prod-verification', justification: 'agreed with the platform team in RFC-12' }]), 5),
    clusterResources: maybe(fc.constant<{ group: string; kind: string }[]>([{ group: 'apiextensions.k8s.io', kind: 'CustomResourceDefinition' }]), 8),
  }, { requiredKeys: ['owner', 'artifacts', 'source', 'releaseRepo', 'placement', 'respell'] })
    .map(({ placement, respell, ...a }) => {
      const repo = a.source.repo.replace(/\/+$/, '');
      const releaseRepo: string = respell < 3
        ? [repo.endsWith('.git') ? repo.slice(0, -4) : `${repo}.git`, `${repo}/`, repo.replace('acme', 'Acme')][respell]
        : a.releaseRepo;
      // a git artifact for the source repository follows the source's branch
      const sourceRepo = a.source.repo.replace(/\/+$/, '');
      let artifacts = a.artifacts.map(x => x.k === 'git' && x.repo.replace(/\/+$/, '') === sourceRepo
        && (x.selection ?? GitCommitSelection.NEWEST_FROM_BRANCH) === GitCommitSelection.NEWEST_FROM_BRANCH
        ? { ...x, branch: a.source.branch ?? 'main' } : x);
      // one way to authenticate per app, so a repository used twice gets the same credentials
      const creds = [...artifacts.map(x => x.creds), a.source.k === 'helm' ? a.source.creds : undefined, a.releaseCreds].find(c => c !== undefined);
      artifacts = artifacts.map(x => x.creds ? { ...x, creds } : x);
      const source = a.source.k === 'helm' && a.source.creds ? { ...a.source, creds } : a.source;
      return clean({ id, pipeline: p, ...a, artifacts, source, releaseRepo, releaseCreds: a.releaseCreds && creds, ...placement });
    }));
}

const standardsArb: fc.Arbitrary<StandardsSpec | undefined> = maybe(fc.record({
  maxWavePercent: maybe(fc.constantFrom(50, 100)),
  disabledRules: maybe(fc.subarray(['prod-verification', 'prod-gate', 'max-wave-percent', 'name-length'])),
  warnings: fc.integer({ min: 0, max: 3 }).map(n => n > 0),
  allowedRegistries: maybe(fc.constant<string[]>(['ghcr.io', 'docker.io', 'registry.example.com:5000', '123456789012.dkr.ecr.us-east-1.amazonaws.com'])),
}, { requiredKeys: ['warnings'] }).map(clean), 6);

// ----- defects: each makes the definition invalid (or at least suspicious) in one place

/** Mutates a copy of the world; `n` picks where. */
const DEFECTS: Record<string, (w: WorldSpec, n: number) => void> = {
  'cluster name': (w, n) => { pick(w.fleet.clusters, n).name = ['Bad_Name', '', '-lead', 'a'.repeat(64), 'has.dot'][n % 5]; },
  'duplicate cluster name': (w, n) => { if (w.fleet.clusters.length > 1) pick(w.fleet.clusters, n + 1).name = w.fleet.clusters[0].name; },
  'duplicate server': (w, n) => { if (w.fleet.clusters.length > 1) pick(w.fleet.clusters.slice(1), n).server = `${w.fleet.clusters[0].server}/`; },
  'server': (w, n) => { pick(w.fleet.clusters, n).server = ['http://plain.example.com', 'https://user:pw@x.example.com', 'not a url', ''][n % 4]; },
  'region': (w, n) => { pick(w.fleet.clusters, n).region = ['us east', 'x'.repeat(64), ''][n % 3]; },
  'tier': (w, n) => { pick(w.fleet.clusters, n).tier = ['Bad Tier', ''][n % 2]; },
  'accelerator': (w, n) => { pick(w.fleet.clusters, n).accelerator = ['GPU!', ''][n % 2]; },
  'accelerator count': (w, n) => { const c = pick(w.fleet.clusters, n); c.accelerator = 'none'; c.acceleratorCount = [4, -1, 1.5][n % 3]; },
  'kubernetes version': (w, n) => { pick(w.fleet.clusters, n).kubernetesVersion = ['latest', '1', ''][n % 3]; },
  'label': (w, n) => {
    const c = pick(w.fleet.clusters, n);
    c.labels = { ...c.labels, ...[{ ring: 'not valid!' }, { 'bad key!': 'x' }, { [`${PlatformLabels.PREFIX}/tier`]: 'prod' }, { '': 'x' }][n % 4] };
  },
  'missing auth': (w, n) => { const c = pick(w.fleet.clusters, n); c.provider = 'on-prem'; delete c.auth; delete c.argoCd; delete w.fleet.topology; },
  'auth': (w, n) => {
    pick(w.fleet.clusters, n).auth = [{ k: 'exec' as const, command: '' }, { k: 'exec' as const, command: 'x', env: { API_TOKEN: 'abc' } },
      { k: 'eks' as const, roleArn: 'arn:bad' }][n % 3];
  },
  'ca data': (w, n) => { const c = pick(w.fleet.clusters, n); c.caData = 'not base64!'; c.auth = c.auth ?? { k: 'gke' }; },
  'kargo shard': (w, n) => {
    const c = pick(w.fleet.clusters, n);
    c.argoCd = { k: 'per-cluster', kargoShard: 'Bad Shard' };
    if (n % 2 === 0 && w.fleet.clusters.length > 1) { c.argoCd = { k: 'per-cluster', kargoShard: 'shared' }; pick(w.fleet.clusters, n + 1).argoCd = { k: 'per-cluster', kargoShard: 'shared' }; }
  },
  'controller shard': (w, n) => { w.fleet.shards = [0, 2, 1.5][n % 3]; const c = pick(w.fleet.clusters, n); c.argoCd = { k: 'central' }; c.shard = 7; },
  'fleet name': (w, n) => { w.fleet.fleetName = ['Fleet One', 'x'.repeat(64)][n % 2]; },
  'late cluster': w => { w.fleet.late = { ...w.fleet.clusters[0], name: 'late-cluster', server: 'https://late.k8s.example.com' }; },
  'stage name': (w, n) => { pick(pick(w.pipelines, n).stages, n).name = ['Prod_EU', '', 'x'.repeat(64)][n % 3]; },
  'duplicate stage': (w, n) => { const p = pick(w.pipelines, n); if (p.stages.length > 1) p.stages[1].name = p.stages[0].name; },
  'overlapping stages': (w, n) => { const p = pick(w.pipelines, n); if (p.stages.length > 1) pick(p.stages, n).sel = { k: 'all' }; },
  'stage without clusters': (w, n) => { pick(w.pipelines, n).stages.push({ name: 'orphan', sel: { k: 'labels', v: { role: 'nothing' } } }); },
  'no stages': (w, n) => { pick(w.pipelines, n).stages = []; },
  'waves': (w, n) => {
    pick(pick(w.pipelines, n).stages, n).waves = [{ k: 'count', n: 0 }, { k: 'count', n: 2.5 }, { k: 'pct', p: [50, 10, 100] }, { k: 'pct', p: [10, 50] },
      { k: 'pct', p: [] }, { k: 'label', key: 'ring', values: ['canary', 'canary'] }, { k: 'label', key: 'ring', values: [] },
      { k: 'label', key: 'zone', values: ['a'] }][n % 8] as WavesSpec;
  },
  'wave budget': (w, n) => {
    const p = pick(w.pipelines, n);
    const budget = [{ maxClusters: 0 }, { maxClusters: 1.5 }, { maxPercent: 0 }, { maxPercent: 150 }, { maxClusters: 1 }, { maxPercent: 10 }][n % 6];
    if (n % 2 === 0) p.budget = budget;
    else pick(p.stages, n).budget = budget;
  },
  'soak': (w, n) => { pick(pick(w.pipelines, n).stages, n).soakMs = [1500, 0, 500][n % 3]; },
  'selector': (w, n) => {
    pick(pick(w.pipelines, n).stages, n).sel = [{ k: 'expr', key: 'bad key!', op: 'Exists' }, { k: 'expr', key: 'ring', op: 'In' },
      { k: 'expr', key: 'ring', op: 'Exists', values: ['x'] }, { k: 'expr', key: 'ring', op: 'Near', values: ['x'] }, { k: 'tier', v: [] },
      { k: 'labels', v: { ring: 'bad value!' } }][n % 6] as SelSpec;
  },
  'promoters': (w, n) => { pick(pick(w.pipelines, n).stages, n).approval = { k: 'manual', promoters: [['has space'], [''], ['a,b']][n % 3] }; },
  'stage check': (w, n) => { const s = pick(pick(w.pipelines, n).stages, n); s.checks = [...s.checks ?? [], badCheck(n)]; },
  'app name': (w, n) => { pick(w.apps, n).appName = ['Bad_App', 'x'.repeat(64), ''][n % 3]; },
  'duplicate app name': w => { if (w.apps.length > 1) w.apps[1].appName = w.apps[0].appName ?? w.apps[0].id; },
  'chart id collision': (w, n) => {
    // another app whose chart id is the id of a per-cluster chart of the first app (<app>--<cluster>)
    const c = pick(w.fleet.clusters, n);
    c.argoCd = { k: 'per-cluster' };
    const first = w.apps[0];
    const second = { ...(w.apps[1] ?? first), id: `${first.appName ?? first.id}--${c.name}`, appName: n % 2 === 0 ? undefined : 'other' };
    w.apps = n % 3 === 0 ? [second, first] : [first, second];
  },
  'long app name': (w, n) => { const a = pick(w.apps, n); a.id = pick(LONG_APP_NAMES, n); delete a.appName; },
  'namespace': (w, n) => { pick(w.apps, n).namespace = ['a.b', 'Apps', ''][n % 3]; },
  'owner': (w, n) => {
    const a = pick(w.apps, n);
    a.owner = [{ ...a.owner, team: 'bad team!' }, { ...a.owner, contact: ' ' }, { ...a.owner, groups: ['has space'] }, { ...a.owner, groups: [] }][n % 4];
  },
  'no artifacts': (w, n) => { pick(w.apps, n).artifacts = []; },
  'duplicate artifact': (w, n) => { const a = pick(w.apps, n); a.artifacts = [...a.artifacts, a.artifacts[0]]; },
  'image': (w, n) => {
    const a = pick(w.apps, n);
    a.artifacts = [...a.artifacts, { k: 'image', repo: ['ghcr.io/acme/api:1.0', 'https://ghcr.io/acme/x', 'ghcr.io/Acme/y', 'ghcr.io//z', 'ghcr.io/acme/w@sha256:abc'][n % 5] }];
  },
  'image options': (w, n) => {
    const a = pick(w.apps, n);
    const options = [{ versioning: { k: 'semver' as const, range: ['^1.x.y.z', 'foo', '1.2.3 ||', '>=<1'][n % 4] } }, { versioning: { k: 'digest' as const, tag: ['', 'bad tag'][n % 2] } },
      { allowTags: [['(unclosed', '(?=x)y', '(a)\\1', '[z-a]'][n % 4]] }, { platform: 'amd64' }, { helmValuesKey: '1bad' }, { discoveryLimit: [0, 101][n % 2] },
      { creds: { k: 'managed' as const, source: ' ' } }][n % 7];
    a.artifacts = [...a.artifacts, { k: 'image', repo: 'ghcr.io/acme/defect', ...options }];
  },
  'chart': (w, n) => {
    const a = pick(w.apps, n);
    a.artifacts = [...a.artifacts, [{ k: 'chart' as const, repo: 'https://charts.example.com/x' }, { k: 'chart' as const, repo: 'oci://ghcr.io/acme/charts/x', name: 'x' },
      { k: 'chart' as const, repo: 'ftp://charts.example.com', name: 'x' }, { k: 'chart' as const, repo: 'oci://ghcr.io/acme/charts/y', semver: '^1.x.y.z' }][n % 4]];
  },
  'git': (w, n) => {
    const a = pick(w.apps, n);
    a.artifacts = [...a.artifacts, [{ k: 'git' as const, repo: 'git@github.com:acme/x.git' }, { k: 'git' as const, repo: 'https://github.com/acme/y', branch: 'bad branch' },
      { k: 'git' as const, repo: 'https://github.com/acme/z', selection: 'SemVer', branch: 'main' }, { k: 'git' as const, repo: 'https://github.com/acme/v', includePaths: ['regex:('] },
      { k: 'git' as const, repo: a.source.repo, branch: 'other' }][n % 5]];
  },
  'source': (w, n) => {
    const a = pick(w.apps, n);
    a.source = [{ k: 'helm' as const, repo: 'ssh://git@github.com/acme/api.git', path: 'chart' }, { k: 'helm' as const, repo: SOURCE_REPOS[0], path: ['../chart', '/abs', 'charts/{stage}', ''][n % 4] },
      { k: 'helm' as const, repo: SOURCE_REPOS[0], path: 'chart', valuesFiles: ['values-{env}.yaml'] }, { k: 'helm' as const, repo: SOURCE_REPOS[0], path: 'chart', branch: 'bad branch' },
      { k: 'helm' as const, repo: SOURCE_REPOS[0], path: 'chart', releaseName: 'Bad_Release' }, { k: 'kustomize' as const, repo: SOURCE_REPOS[1], basePath: 'deploy/{stage}', overlayPath: 'deploy/../x' }][n % 6];
  },
  'release repo': (w, n) => { pick(w.apps, n).releaseRepo = ['git@github.com:acme/releases.git', 'https://github.com/', 'ftp://x.example.com/r.git', ''][n % 4]; },
  'release credentials': (w, n) => { const a = pick(w.apps, n); a.releaseCreds = { k: 'managed', source: '' }; a.releaseRepo = a.source.repo; a.source = { ...a.source, creds: { k: 'wi' } } as SourceSpec; },
  'random targets': (w, n) => { pick(w.apps, n).targets = [{ k: 'accelerator', v: ['google-tpu'] }, { k: 'labels', v: { zone: 'b' } }, { k: 'expr', key: 'ring', op: 'DoesNotExist' }][n % 3] as SelSpec; },
  'unmet requirement': (w, n) => { pick(w.apps, n).requires = [[{ k: 'minAcc', n: 1000 }, { k: 'k8s', v: '1.99' }, { k: 'k8s', v: 'x' }, { k: 'acc', v: [] }, { k: 'minAcc', n: 0 }][n % 5] as ReqSpec]; },
  'app check': (w, n) => { const a = pick(w.apps, n); a.checks = [...a.checks ?? [], badCheck(n)]; },
  'duplicate check': (w, n) => { const a = pick(w.apps, n); const c = { k: 'http' as const, name: 'dup', url: 'https://x.example.com' }; a.checks = [c, c]; },
  'stage checks': (w, n) => { pick(w.apps, n).stageChecks = { nope: [{ k: 'http', url: 'https://x.example.com' }] }; },
  'exemption': (w, n) => {
    pick(w.apps, n).exemptions = [[{ ruleId: 'Bad Rule', justification: 'agreed with the platform team' }], [{ ruleId: 'prod-gate', justification: 'short' }],
      [{ ruleId: 'no-such-rule', justification: 'agreed with the platform team' }]][n % 3];
  },
  'cluster resource': (w, n) => { pick(w.apps, n).clusterResources = [[{ group: 'Bad', kind: 'crd' }], [{ group: '', kind: 'Namespace' }]][n % 2]; },
  'standards': (w, n) => {
    w.standards = [{ warnings: false, maxWavePercent: 0 }, { warnings: false, disabledRules: ['no-such-rule'] }, { warnings: false },
      { warnings: false, allowedRegistries: ['quay.io'] }][n % 4];
  },
};

function pick<T>(list: T[], n: number): T {
  return list[n % list.length];
}

function badCheck(n: number): CheckSpec {
  return [
    { k: 'http', url: 'ftp://x.example.com' }, { k: 'http', url: 'https://{bogus}.example.com' }, { k: 'http', url: 'https://x/{{ .cluster }}' },
    { k: 'http', url: 'https://x.example.com', jsonPath: '{$.status}' }, { k: 'http', url: 'https://x.example.com', headers: { Authorization: 'Bearer abcdefghijkl' } },
    { k: 'http', url: 'https://x.example.com', count: 1, failureLimit: 1 }, { k: 'http', name: 'Bad Name', url: 'https://x.example.com' },
    { k: 'http', url: 'https://x.example.com/{{args.missing}}' }, { k: 'http', url: 'https://x.example.com', intervalMs: 1500, count: 2 },
    { k: 'prometheus', address: 'https://p.example.com', query: '' }, { k: 'prometheus', address: 'https://p.example.com', query: 'up' },
    { k: 'prometheus', address: 'https://p.example.com', query: 'up', threshold: 1, comparison: '<', condition: 'true' },
    { k: 'job', image: 'bad image' }, { k: 'job', image: 'x', env: { PASSWORD: 'hunter2' } },
    { k: 'template', name: 'Bad_Template' }, { k: 'template', name: 't', args: { s: { k: 'secret', name: 's', key: 'k' } } },
    { k: 'http', url: 'https://x.example.com/{{args.v}}', args: { v: { k: 'value', text: '{cluster}' } } },
    { k: 'http', url: 'https://x.example.com/{{args.v}}', args: { v: { k: 'expr', text: 'outputs.x' } } },
    { k: 'http', name: 'x'.repeat(63), url: 'https://x.example.com' },
  ][n % 19] as CheckSpec;
}

const worldArb: fc.Arbitrary<WorldSpec> = fleetArb.chain(fleet => fc.integer({ min: 1, max: 2 }).chain(n =>
  fc.tuple(...Array.from({ length: n }, (_, i) => pipelineArb(fleet.clusters, i === 0 ? 'standard' : `pipeline-${i + 1}`, `p${i + 1}`)))).chain(pipelines =>
  fc.record({
    standards: standardsArb,
    apps: fc.shuffledSubarray(APP_NAMES, { minLength: 1, maxLength: 3 }).chain(ids => fc.tuple(...ids.map(id => appArb(id, pipelines)))),
    defect: maybe(fc.tuple(fc.constantFrom(...Object.keys(DEFECTS)), fc.nat()), 3),
  }).map(({ standards, apps, defect }) => {
    const world: WorldSpec = clean({ fleet, pipelines: pipelines.map(p => p.pipeline), standards, apps, defect: defect?.[0] });
    if (defect) DEFECTS[defect[0]](world, defect[1]);
    return clean(world);
  })));

// ---------------------------------------------------------------------------------------------
// The properties
// ---------------------------------------------------------------------------------------------

const outcomes = new Map<string, number>();

const RUNS = Number(process.env.PROPERTY_RUNS ?? 300);
let calls = 0;

/** Counts the outcome of one generated case (not of the shrinking that follows a failure). */
function record(outcome: string) {
  if (++calls > RUNS) return;
  outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
}

interface Attempt {
  readonly built?: Built;
  readonly charts?: ChartOutput[];
  /** The files `app.synth()` wrote, by name. */
  readonly files?: Record<string, string>;
  readonly error?: unknown;
  readonly terraformFile: string;
}

/** Builds and synthesizes; returns the charts and files, or the error thrown. */
function attempt(spec: WorldSpec): Attempt {
  const outdir = fs.mkdtempSync(path.join(scratch, 'out-'));
  const terraformFile = `${outdir}.tfoutput.json`;
  try {
    const built = build(spec, outdir, terraformFile);
    const charts = synthesize(built);
    const files = Object.fromEntries(fs.readdirSync(outdir).sort().map(f => [f, fs.readFileSync(path.join(outdir, f), 'utf8')]));
    return { built, charts, files, terraformFile };
  } catch (error) {
    return { error, terraformFile };
  } finally {
    fs.rmSync(outdir, { recursive: true, force: true });
    fs.rmSync(terraformFile, { force: true });
  }
}

describe('property: any fleet, pipeline and apps', () => {
  afterAll(() => {
    fs.rmSync(scratch, { recursive: true, force: true });
    const total = [...outcomes.values()].reduce((a, b) => a + b, 0);
    const valid = [...outcomes.entries()].filter(([k]) => k.startsWith('valid')).reduce((n, [, v]) => n + v, 0);
    const percent = (n: number) => `${n} (${Math.round((100 * n) / Math.max(total, 1))}%)`;
    const count = (prefix: string) => [...outcomes.entries()].filter(([k]) => k.startsWith(prefix)).reduce((n, [, v]) => n + v, 0);
    const lines = [...outcomes.entries()].sort((a, b) => b[1] - a[1]).map(([k, v]) => `  ${String(v).padStart(4)}  ${k}`);
    console.log(`property cases: ${total}; valid ${percent(valid)}, of which ${count('valid despite')} with a harmless defect; `
      + `rejected with a validation error ${percent(total - valid)}: ${count('rejected (defect')} with an injected defect, `
      + `${count('rejected (no injected')} without (random selectors, targets, requirements, budgets, standards, names)`
      + `${process.env.PROPERTY_DEBUG ? `\n${lines.join('\n')}` : ''}`);
  });

  test('synth succeeds with right, deterministic output, or fails with one of the library\'s validation errors', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      fc.assert(fc.property(worldArb, spec => {
        const first = attempt(spec);
        if (first.error !== undefined) {
          const why = notALibraryError(first.error, first.terraformFile);
          if (why) {
            const e = first.error as Error;
            throw new Error(`not a library validation error (${why}): ${e?.stack ?? String(e)}`);
          }
          const message = (first.error as Error).message;
          const subject = /^(Validation failed|[A-Za-z]+ '|cannot read clusters)/.exec(message)?.[1] ?? 'terraform output';
          const cause = spec.defect ? `defect "${spec.defect}"` : 'no injected defect';
          record(process.env.PROPERTY_DEBUG ? `rejected (${cause}): ${message.split('\n').slice(0, 3).join(' | ').slice(0, 300)}` : `rejected (${cause}), ${subject}`);
          return;
        }
        const problems = outputProblems(spec, first.built!, first.charts!);
        if (problems.length > 0) throw new Error(`synth succeeded but the output is wrong:\n${problems.join('\n')}`);

        // determinism: the same input synthesizes to byte-identical YAML
        const second = attempt(spec);
        if (second.error !== undefined) throw new Error(`the second synth of the same input failed: ${(second.error as Error).stack}`);
        expect(second.files).toEqual(first.files);
        expect(yamlOf(second.charts!)).toEqual(yamlOf(first.charts!));
        record(spec.defect ? `valid despite defect "${spec.defect}"` : 'valid');
      }), {
        numRuns: RUNS,
        // a failure is shrunk to a small counterexample; stop shrinking before the test times out
        interruptAfterTimeLimit: 200_000,
        markInterruptAsFailure: true,
      });
    } finally {
      warn.mockRestore();
    }
    const valid = [...outcomes.entries()].filter(([k]) => k.startsWith('valid')).reduce((n, [, v]) => n + v, 0);
    const total = [...outcomes.values()].reduce((a, b) => a + b, 0);
    // the generators must keep producing a good share of valid definitions
    expect(valid / total).toBeGreaterThan(0.25);
  }, 240_000);
});
