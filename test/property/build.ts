import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { Duration, Testing } from 'cdk8s';
import { ApprovalSpec, AppSpec, ArgSpec, ArtifactSpec, AuthSpec, CheckSpec, ClusterSpec, CredSpec, ReqSpec, SelSpec, SourceSpec, TopologySpec, WavesSpec, WorldSpec } from './model';
import {
  Accelerator, Approval, ArgoCdTopology, Artifact, ClusterAuth, ClusterFleet, ClusterOptions, ClusterSelector, CloudProvider, DeployFreeze, FanOut,
  FreezeSchedule, Join,
  Comparison, GitCommitSelection, HttpMethod, ManifestSource, PlatformApp, PlatformStandards, PromotionPipeline,
  RepositoryCredentials, Requirement, RuleSeverity, SelectorOperator, Tier, Verification, VerificationArg, Versioning, Waves,
} from '../../src';

// ---------------------------------------------------------------------------------------------
// Building the cdk8s app from the model
// ---------------------------------------------------------------------------------------------

export const PRODUCTION_TIERS = new Set(['prod', 'edge']);

export function tierOf(name: string): Tier {
  return Tier.of(name, PRODUCTION_TIERS.has(name));
}

export function toSelector(s: SelSpec): ClusterSelector {
  switch (s.k) {
    case 'all': return ClusterSelector.all();
    case 'tier': return ClusterSelector.tier(...s.v.map(tierOf));
    case 'provider': return ClusterSelector.provider(...s.v as CloudProvider[]);
    case 'accelerator': return ClusterSelector.accelerator(...s.v.map(a => Accelerator.custom(a)));
    case 'region': return ClusterSelector.region(...s.v);
    case 'names': return ClusterSelector.names(...s.v);
    case 'labels': return ClusterSelector.matchLabels(s.v);
    case 'expr': return ClusterSelector.expression(s.key, s.op as SelectorOperator, s.values);
    case 'and': return s.of.map(toSelector).reduce((a, b) => a.and(b));
  }
}

export function toAuth(c: ClusterSpec): ClusterAuth | undefined {
  const tls = c.caData === undefined ? {} : { caData: c.caData };
  // a CA certificate without auth goes with the provider's default (as from Terraform)
  const a = c.auth ?? (c.caData === undefined ? undefined : ({ aws: { k: 'eks' }, gcp: { k: 'gke' }, azure: { k: 'aks' } } as Record<string, AuthSpec>)[c.provider]);
  if (!a) return undefined;
  switch (a.k) {
    case 'exec': return ClusterAuth.exec({ command: a.command, args: a.args, env: a.env }, tls);
    case 'eks': return ClusterAuth.eks({ clusterName: `eks-${c.name}`, roleArn: a.roleArn }, tls);
    case 'gke': return ClusterAuth.gke(tls);
    case 'aks': return ClusterAuth.aks({}, tls);
  }
}

export function toTopology(t: TopologySpec | undefined): ArgoCdTopology | undefined {
  if (!t) return undefined;
  return t.k === 'central' ? ArgoCdTopology.central() : ArgoCdTopology.perCluster({ kargoShard: t.kargoShard, namespace: t.namespace });
}

export function clusterOptions(c: ClusterSpec): ClusterOptions {
  return {
    name: c.name,
    server: c.server,
    provider: c.provider as CloudProvider,
    region: c.region,
    tier: tierOf(c.tier),
    accelerator: c.accelerator === undefined ? undefined : Accelerator.custom(c.accelerator),
    acceleratorCount: c.acceleratorCount,
    kubernetesVersion: c.kubernetesVersion,
    labels: c.labels,
    auth: toAuth(c),
    argoCd: toTopology(c.argoCd),
    shard: c.shard,
  };
}

/** The cluster as Terraform would output it (`ClusterFleet.fromTerraformOutput`). */
export function terraformEntry(c: ClusterSpec): Record<string, unknown> {
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
        : a.k === 'eks' ? { type: 'eks', cluster_name: `eks-${c.name}`, role_arn: a.roleArn ?? null }
          : { type: a.k },
    argocd: !c.argoCd ? null
      : c.argoCd.k === 'central' ? { mode: 'central' } : { mode: 'per-cluster', kargo_shard: c.argoCd.kargoShard ?? null, namespace: c.argoCd.namespace ?? null },
    shard: c.shard ?? null,
  };
}

export function toApproval(a: ApprovalSpec | undefined): Approval | undefined {
  if (!a) return undefined;
  switch (a.k) {
    case 'automatic': return Approval.automatic();
    case 'manual': return Approval.manual({ promoters: a.promoters });
    case 'pr': return Approval.pullRequest({ promoters: a.promoters, labels: a.labels, openAutomatically: a.open });
  }
}

export function toWaves(w: WavesSpec | undefined): Waves | undefined {
  if (!w) return undefined;
  switch (w.k) {
    case 'single': return Waves.single();
    case 'label': return Waves.byLabel(w.key, w.values);
    case 'count': return Waves.byCount(w.n);
    case 'pct': return Waves.byPercentage(w.p);
  }
}

export function toArg(a: ArgSpec): VerificationArg {
  switch (a.k) {
    case 'value': return VerificationArg.value(a.text);
    case 'secret': return VerificationArg.fromSecret(a.name, a.key);
    case 'expr': return VerificationArg.expression(a.text);
    case 'imageTag': return VerificationArg.imageTag(a.repo);
    case 'commit': return VerificationArg.commit(a.url);
  }
}

export function toArgs(a: Record<string, ArgSpec> | undefined) {
  return a === undefined ? undefined : Object.fromEntries(Object.entries(a).map(([k, v]) => [k, toArg(v)]));
}

export const ms = (n: number | undefined) => n === undefined ? undefined : Duration.millis(n);

export function toCheck(c: CheckSpec): Verification {
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

export function toCreds(c: CredSpec | undefined): RepositoryCredentials | undefined {
  if (!c) return undefined;
  return c.k === 'wi' ? RepositoryCredentials.workloadIdentity() : RepositoryCredentials.managedSecret({ source: c.source });
}

export function toArtifact(a: ArtifactSpec): Artifact {
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
      checkoutPath: a.checkoutPath,
      credentials: toCreds(a.creds),
    });
  }
}

export function toSource(s: SourceSpec): ManifestSource {
  return s.k === 'helm'
    ? ManifestSource.helm({
      repoUrl: s.repo,
      branch: s.branch,
      path: s.path,
      valuesFiles: s.valuesFiles,
      optionalValuesFiles: s.optionalValuesFiles,
      releaseName: s.releaseName,
      // every cluster serves the Prometheus Operator API (the controller model asks for the list)
      apiVersions: ['monitoring.coreos.com/v1'],
      credentials: toCreds(s.creds),
    })
    : ManifestSource.kustomize({ repoUrl: s.repo, branch: s.branch, basePath: s.basePath, overlayPath: s.overlayPath });
}

export function toRequirement(r: ReqSpec): Requirement {
  switch (r.k) {
    case 'k8s': return Requirement.minKubernetesVersion(r.v);
    case 'minAcc': return Requirement.minAccelerators(r.n);
    case 'acc': return Requirement.accelerator(...r.v.map(a => Accelerator.custom(a)));
    case 'labels': return Requirement.labels(toSelector(r.sel));
  }
}

export interface Built {
  readonly app: ReturnType<typeof Testing.app>;
  readonly fleet: ClusterFleet;
  readonly pipelines: PromotionPipeline[];
  readonly apps: { app: PlatformApp; targets: ClusterSelector; requires: Requirement[]; pipeline: PromotionPipeline; spec: AppSpec }[];
}

export const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'property-test-'));

/** Builds the cdk8s app; throws whatever the library throws. */
export function build(spec: WorldSpec, outdir: string, terraformFile: string): Built {
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
    fleet = ClusterFleet.fromTerraformOutput(app, 'fleet', { ...fleetProps, file: terraformFile, customAccelerators: ['nvidia-b200'] });
  } else {
    fleet = new ClusterFleet(app, 'fleet', { ...fleetProps, clusters: f.clusters.map(clusterOptions) });
  }
  const pipelines = spec.pipelines.map(p => new PromotionPipeline(app, p.id, {
    waveBudget: p.budget,
    stages: p.stages.map(s => ({
      name: s.name,
      clusters: s.sel && toSelector(s.sel),
      after: s.after,
      join: s.join === 'any' ? Join.anyOf() : s.join === 'all' ? Join.all() : undefined,
      fanOut: s.fanOut === undefined ? undefined : FanOut.byLabel(s.fanOut),
      approval: toApproval(s.approval),
      waves: toWaves(s.waves),
      soak: ms(s.soakMs),
      production: s.production,
      waveBudget: s.budget,
      verification: s.checks?.map(toCheck),
      namespace: s.ns,
      freezes: s.freeze && [new DeployFreeze({
        reason: `freeze of ${s.name}`,
        schedule: FreezeSchedule.cron(s.freeze.schedule, Duration.hours(s.freeze.hours)),
        timeZone: s.freeze.zone,
        allowManualSync: s.freeze.manual,
      })],
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

export interface ChartOutput { readonly id: string; readonly objects: any[] }

/** Every chart's objects, after cdk8s ran the constructs' validations (`app.synth()`). */
export function synthesize(b: Built): ChartOutput[] {
  const charts = b.app.charts.map(c => ({ id: c.node.id, objects: c.toJson() }));
  b.app.synth();
  return charts;
}
