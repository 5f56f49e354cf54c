import { Chart } from 'cdk8s';
import { Construct } from 'constructs';
import { claimAppNames, perClusterChartId } from './app-names';
import { Artifact, ArtifactKind, gitUrlProblem, subscriptionIdentity } from './artifact';
import { helmReleaseNameLengthProblem, ManifestSource, sourceArtifact } from './manifest-source';
import { AppOwner } from './owner';
import { RepositoryCredentials } from './repository-credentials';
import { Requirement } from './requirement';
import { defineArgoCdRelease } from '../argocd/argocd-release';
import { Cluster } from '../fleet/cluster';
import { IClusterFleet } from '../fleet/cluster-fleet';
import { ClusterSelector } from '../fleet/cluster-selector';
import { recordPlacement } from '../fleet/placements';
import { defineKargoRelease } from '../kargo/kargo-release';
import { definePromoterRbac } from '../kargo/promoter-rbac';
import { defineCredentialSecrets, repositoryAccesses } from '../kargo/repository-access';
import { IPromotionPipeline } from '../pipeline/promotion-pipeline';
import { ReleasePlan } from '../plan/release-plan';
import { resolveReleasePlan } from '../plan/resolve-plan';
import { StandardsExemption } from '../standards/standards-rule';
import { duplicates } from '../util/collections';
import { ProblemList, reportValue } from '../util/errors';
import { claimChartId } from '../util/name-registry';
import { dns1123LabelProblem, labelValueProblem } from '../util/names';
import { collectStageChecks, renderStageChecks } from '../verification/stage-checks';
import { Verification } from '../verification/verification';

/**
 * Properties for `PlatformApp`.
 */
export interface PlatformAppProps {
  /**
   * The application's name: a DNS-1123 label, unique in the platform. It names the Kargo
   * Project, the Argo CD AppProject, ApplicationSets, Applications and release branches.
   * @default - the construct id
   */
  readonly appName?: string;
  /** The team that owns the application. */
  readonly owner: AppOwner;
  /** The clusters the application can be delivered to. */
  readonly fleet: IClusterFleet;
  /** The stages the application is promoted through. */
  readonly pipeline: IPromotionPipeline;
  /** What a release is made of; promoted together as one Kargo Freight. */
  readonly artifacts: Artifact[];
  /** Where the manifests come from and how they are rendered. */
  readonly source: ManifestSource;
  /**
   * The Git repository (`https://`) that records what runs where: one branch per stage or wave
   * (`rendered/<app>/<stage>`), one directory per cluster. Argo CD deploys from it.
   */
  readonly releaseRepo: string;
  /**
   * How Kargo authenticates to the release repository (it pushes rendered manifests and opens
   * pull requests there).
   * @default - whatever credentials the Kargo operators share
   */
  readonly releaseRepoCredentials?: RepositoryCredentials;
  /**
   * Which clusters of each stage the application runs on.
   * @default ClusterSelector.all()
   */
  readonly targets?: ClusterSelector;
  /**
   * Capabilities a cluster must offer (accelerators, Kubernetes version, labels).
   * @default - none
   */
  readonly requires?: Requirement[];
  /**
   * The namespace the application is deployed to on every cluster.
   * @default - the application's name
   */
  readonly namespace?: string;
  /**
   * Checks Freight must pass in every stage (after the pipeline's own checks for the stage)
   * before it counts as verified and may move on.
   * @default - none
   */
  readonly verification?: Verification[];
  /**
   * Extra checks for particular stages, by pipeline stage name.
   * @default - none
   */
  readonly stageVerification?: Record<string, Verification[]>;
  /**
   * Cluster-scoped resources the application manages (e.g. its CRDs); the AppProject allows
   * only these. Platform standards flag them unless the app is exempt.
   * @default - none: the AppProject allows no cluster-scoped resource
   */
  readonly clusterResources?: ClusterResource[];
  /**
   * Platform standards rules this app is exempt from, each with its justification; recorded
   * in the app's Kargo Project and Argo CD AppProject annotations.
   * @default - none
   */
  readonly exemptions?: StandardsExemption[];
}

/**
 * A kind of cluster-scoped Kubernetes resource.
 */
export interface ClusterResource {
  /** The API group (empty for the core group). */
  readonly group: string;
  /** The kind, e.g. `CustomResourceDefinition`. */
  readonly kind: string;
}

/**
 * An application delivered across the fleet, owned by an app team: what it is made of, where it
 * runs and how it is promoted. It synthesizes to its own chart: a Kargo Project with a
 * Warehouse, a render PromotionTask and one Stage per stage and wave, and an Argo CD AppProject
 * with one ApplicationSet per stage and wave.
 *
 * @example
 * new PlatformApp(app, 'inference-gateway', {
 *   owner: { team: 'inference', contact: '#inference-oncall' },
 *   fleet, pipeline,
 *   artifacts: [Artifact.image('ghcr.io/acme/inference-gateway', { versioning: Versioning.semver('^2.0.0') })],
 *   source: ManifestSource.helm({ repoUrl: 'https://github.com/acme/deploy.git', path: 'charts/gateway' }),
 *   releaseRepo: 'https://github.com/acme/releases.git',
 * });
 */
export class PlatformApp extends Chart {
  /**
   * Whether `x` is a PlatformApp. (Chart makes `instanceof` true for any chart, so use this.)
   */
  public static isPlatformApp(x: any): x is PlatformApp {
    return x !== null && typeof x === 'object' && PLATFORM_APP in x;
  }

  /** The application's name. */
  public readonly appName: string;
  /** Where and how the application is released. */
  public readonly plan: ReleasePlan;
  /** The fleet the application is delivered to. */
  public readonly fleet: IClusterFleet;
  /** The team that owns the application. */
  public readonly owner: AppOwner;
  /** What a release is made of. */
  public readonly artifacts: Artifact[];
  /** Cluster-scoped resources the application manages. */
  public readonly clusterResources: ClusterResource[];
  /** Platform standards rules the app is exempt from. */
  public readonly exemptions: StandardsExemption[];

  constructor(scope: Construct, id: string, props: PlatformAppProps) {
    claimChartId(scope, id, `PlatformApp '${props.appName ?? id}'`);
    super(scope, id, { disableResourceNameHashes: true });
    Object.defineProperty(this, PLATFORM_APP, { value: true });
    this.appName = props.appName ?? id;
    const subject = `PlatformApp '${this.appName}'`;
    const problems = new ProblemList(subject);
    problems.check('appName', this.appName, dns1123LabelProblem(this.appName),
      'use a short lowercase DNS-1123 label: it becomes the Kargo Project namespace');
    if (RESERVED_NAMESPACES.includes(this.appName) || this.appName === props.fleet?.argoCdNamespace) {
      problems.add(`appName "${this.appName}" is the name of a system namespace, which the app's Kargo Project would take over; choose another name`);
    }
    const namespace = props.namespace ?? this.appName;
    if (props.namespace !== undefined) {
      problems.check('namespace', namespace, dns1123LabelProblem(namespace), 'use a DNS-1123 label');
    }
    checkOwner(problems, props.owner);
    problems.check('releaseRepo', props.releaseRepo, gitUrlProblem(props.releaseRepo ?? ''), 'use the https:// clone URL of the release repository');
    const releaseRepo = `${props.releaseRepo ?? ''}`.replace(/\/+$/, '');
    (props.artifacts ?? []).forEach((a, i) => reportValue(problems, `artifacts[${i}] (${a.kind} ${a.repoUrl})`, a));
    reportValue(problems, 'source', props.source);
    if (props.source?.helmOptions && props.source.helmOptions.releaseName === undefined) {
      const tooLong = helmReleaseNameLengthProblem(this.appName);
      problems.check('appName', this.appName, tooLong && `is the Helm release name, which ${tooLong}`, 'shorten the app name or set ManifestSource.helm({ releaseName })');
    }
    reportValue(problems, 'targets', props.targets);
    (props.requires ?? []).forEach((r, i) => reportValue(problems, `requires[${i}]`, r));
    if (!props.source) problems.add('source is required, got nothing; use ManifestSource.helm() or ManifestSource.kustomize()');
    if (!props.artifacts || props.artifacts.length === 0) {
      problems.add('artifacts must list at least one artifact, got none; add e.g. Artifact.image(\'ghcr.io/acme/app\')');
    }
    // the Warehouse subscribes to every artifact, and to the source unless a git artifact names it
    const explicitSource = props.source ? sourceArtifact(props.source, props.artifacts ?? []) : undefined;
    const subscriptions: { kind: ArtifactKind; repoUrl: string; chart?: string }[] = (props.artifacts ?? [])
      .map(a => ({ kind: a.kind, repoUrl: a.repoUrl, chart: a.chartOptions.name }));
    if (props.source && !explicitSource) subscriptions.push({ kind: ArtifactKind.GIT, repoUrl: props.source.repoUrl });
    const identities = subscriptions.map(s => subscriptionIdentity(s.kind, s.repoUrl, s.chart));
    const repos = duplicates(identities).flatMap(dup => [...new Set(subscriptions.filter((_, i) => identities[i] === dup).map(s => `${s.kind}:${s.repoUrl}`))]);
    problems.check('artifacts', repos, repos.length > 0 ? 'must not subscribe to the same repository twice' : undefined,
      'Kargo rejects duplicate subscriptions and compares URLs without case, trailing slashes and .git: declare each repository once, spelled one way');
    const explicitBranch = explicitSource?.gitOptions.branch;
    if (explicitBranch !== undefined && explicitBranch !== props.source.branch) {
      problems.add(`the git artifact for the source repository follows branch "${explicitBranch}" but the source uses "${props.source.branch}"; make them agree`);
    }
    const checks = collectStageChecks(problems, props.pipeline?.pipelineName, props.pipeline?.stages ?? [], props.verification ?? [],
      props.stageVerification ?? {});
    checkExemptions(problems, props.exemptions ?? []);
    reportValue(problems, 'releaseRepoCredentials', props.releaseRepoCredentials);
    const access = props.source && props.artifacts
      ? repositoryAccesses(props.artifacts, props.source, releaseRepo, props.releaseRepoCredentials)
      : { accesses: [], problems: [] };
    access.problems.forEach(p => problems.add(p));
    for (const [i, r] of (props.clusterResources ?? []).entries()) {
      problems.check(`clusterResources[${i}].kind`, r.kind, /^[A-Z][A-Za-z0-9]*$/.test(r.kind ?? '') ? undefined : 'must be a Kubernetes kind in PascalCase');
      problems.check(`clusterResources[${i}].group`, r.group, r.group === '' || /^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/.test(r.group ?? '') ? undefined : 'must be an API group (empty for core)');
    }
    problems.throwIfAny();
    this.clusterResources = (props.clusterResources ?? []).map(r => ({ group: r.group, kind: r.kind }));
    this.exemptions = (props.exemptions ?? []).map(e => ({ ruleId: e.ruleId, justification: e.justification.trim() }));

    this.fleet = props.fleet;
    this.owner = { ...props.owner, groups: [...props.owner.groups ?? [props.owner.team]] };
    this.artifacts = [...props.artifacts];
    this.plan = resolveReleasePlan({
      subject,
      app: this.appName,
      destinationNamespace: namespace,
      fleet: props.fleet,
      pipeline: props.pipeline,
      targets: props.targets ?? ClusterSelector.all(),
      requirements: props.requires ?? [],
      defaultPromoters: this.owner.groups!,
      verification: checks,
    });
    const clusters = new Map<string, Cluster>(props.fleet.clusters.map(c => [c.name, c]));
    const verification = renderStageChecks(subject, this.plan, checks, clusters);

    claimAppNames(this, subject, this.plan);
    const description = `${this.appName}, owned by team ${props.owner.team} (${props.owner.contact})`;
    const annotations: Record<string, string> = this.exemptions.length > 0
      ? { [EXEMPTIONS_ANNOTATION]: JSON.stringify(this.exemptions.map(e => ({ rule: e.ruleId, justification: e.justification }))) }
      : {};
    defineKargoRelease(this, this.plan, {
      app: this.appName,
      releaseRepo,
      source: props.source,
      artifacts: this.artifacts,
      destinationNamespace: namespace,
      clusters,
    }, description, verification, annotations);
    definePromoterRbac(this, this.plan);
    defineCredentialSecrets(this, this.appName, this.plan.project, access.accesses);

    const perCluster = new Map<string, Chart>();
    defineArgoCdRelease(this, this.plan, {
      releaseRepo,
      argoCdNamespace: props.fleet.argoCdNamespace,
      clusters,
      description,
      annotations,
      clusterResources: this.clusterResources,
      // a sibling chart, hence its own file, per cluster that runs its own Argo CD
      chartForCluster: (cluster) => {
        if (!perCluster.has(cluster)) {
          perCluster.set(cluster, new Chart(this.node.scope ?? this, perClusterChartId(this.appName, cluster), { disableResourceNameHashes: true }));
        }
        return perCluster.get(cluster)!;
      },
    });
    recordPlacement(props.fleet, this.appName, this.plan.clusters);

    // the plan is fixed when the app is defined; clusters or stages added later would be missed,
    // so a late change fails synth instead of being dropped silently
    // (fleets and pipelines only grow, so their sizes tell whether they changed)
    const plannedClusters = props.fleet.clusters.length;
    const plannedStages = props.pipeline.stages.length;
    this.node.addValidation({
      validate: () => [
        ...props.fleet.clusters.length === plannedClusters ? []
          : [`fleet '${props.fleet.fleetName}' changed after ${subject} was planned; define every cluster before the apps`],
        ...props.pipeline.stages.length === plannedStages ? []
          : [`pipeline '${props.pipeline.pipelineName}' changed after ${subject} was planned; add every stage before the apps`],
      ],
    });
  }
}

const PLATFORM_APP = Symbol.for('cdk8s-gitops-platform.PlatformApp');

/** Namespaces of the hub that a Kargo Project (whose namespace is the app's name) must not claim. */
const RESERVED_NAMESPACES = ['default', 'kube-system', 'kube-public', 'kube-node-lease', 'argocd', 'kargo', 'kargo-system-resources',
  'kargo-shared-resources', 'argo-rollouts'];
/** Where an app's standards exemptions are recorded in its output. */
const EXEMPTIONS_ANNOTATION = 'gitops-platform.io/standards-exemptions';

function checkExemptions(problems: ProblemList, exemptions: StandardsExemption[]) {
  exemptions.forEach((e, i) => {
    problems.check(`exemptions[${i}].ruleId`, e.ruleId, /^[a-z0-9]+(-[a-z0-9]+)*$/.test(e.ruleId ?? '') ? undefined : 'must be a rule id');
    problems.check(`exemptions[${i}].justification`, e.justification, (e.justification ?? '').trim().length >= 10 ? undefined
      : 'must explain in a sentence why the app may break the rule', 'say why, and who agreed');
  });
  const dup = duplicates(exemptions.map(e => e.ruleId));
  if (dup.length > 0) problems.add(`exemptions name rule(s) ${dup.join(', ')} more than once; give one justification per rule`);
}

function checkOwner(problems: ProblemList, owner: AppOwner | undefined) {
  if (!owner) {
    problems.add('owner is required, got nothing; set { team, contact }');
    return;
  }
  problems.check('owner.team', owner.team, owner.team ? labelValueProblem(owner.team) : 'must not be empty', 'use the team\'s short name');
  problems.check('owner.contact', owner.contact, owner.contact && owner.contact.trim() ? undefined : 'must not be empty',
    'name a channel, address or rota where the team can be reached');
  for (const g of owner.groups ?? []) {
    problems.check('owner.groups', g, g.trim() === '' || /[,\s]/.test(g) ? 'must be OIDC group names without spaces or commas' : undefined);
  }
}
