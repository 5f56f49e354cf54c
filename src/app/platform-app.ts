import { Chart } from 'cdk8s';
import { Construct } from 'constructs';
import { Artifact, ArtifactKind, gitUrlProblem } from './artifact';
import { ManifestSource } from './manifest-source';
import { AppOwner } from './owner';
import { Requirement } from './requirement';
import { defineArgoCdRelease } from '../argocd/argocd-release';
import { Cluster } from '../fleet/cluster';
import { IClusterFleet } from '../fleet/cluster-fleet';
import { ClusterSelector } from '../fleet/cluster-selector';
import { defineKargoRelease } from '../kargo/kargo-release';
import { IPromotionPipeline } from '../pipeline/promotion-pipeline';
import { ReleasePlan } from '../plan/release-plan';
import { resolveReleasePlan } from '../plan/resolve-plan';
import { duplicates } from '../util/collections';
import { ProblemList, reportValue } from '../util/errors';
import { claimName } from '../util/name-registry';
import { dns1123LabelProblem, labelValueProblem } from '../util/names';

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

  constructor(scope: Construct, id: string, props: PlatformAppProps) {
    super(scope, id, { disableResourceNameHashes: true });
    this.appName = props.appName ?? id;
    const subject = `PlatformApp '${this.appName}'`;
    const problems = new ProblemList(subject);
    problems.check('appName', this.appName, dns1123LabelProblem(this.appName),
      'use a short lowercase DNS-1123 label: it becomes the Kargo Project namespace');
    const namespace = props.namespace ?? this.appName;
    if (props.namespace !== undefined) {
      problems.check('namespace', namespace, dns1123LabelProblem(namespace), 'use a DNS-1123 label');
    }
    checkOwner(problems, props.owner);
    problems.check('releaseRepo', props.releaseRepo, gitUrlProblem(props.releaseRepo ?? ''), 'use the https:// clone URL of the release repository');
    (props.artifacts ?? []).forEach((a, i) => reportValue(problems, `artifacts[${i}] (${a.kind} ${a.repoUrl})`, a));
    reportValue(problems, 'source', props.source);
    reportValue(problems, 'targets', props.targets);
    (props.requires ?? []).forEach((r, i) => reportValue(problems, `requires[${i}]`, r));
    if (!props.source) problems.add('source is required, got nothing; use ManifestSource.helm() or ManifestSource.kustomize()');
    if (!props.artifacts || props.artifacts.length === 0) {
      problems.add('artifacts must list at least one artifact, got none; add e.g. Artifact.image(\'ghcr.io/acme/app\')');
    }
    const repos = duplicates((props.artifacts ?? []).map(a => `${a.kind}:${a.repoUrl}`));
    problems.check('artifacts', repos, repos.length > 0 ? 'must not subscribe to the same repository twice' : undefined,
      'Kargo rejects duplicate subscriptions: declare each repository once');
    if (props.source && (props.artifacts ?? []).some(a => a.kind === ArtifactKind.GIT && a.repoUrl === props.source.repoUrl)) {
      const explicit = props.artifacts.find(a => a.kind === ArtifactKind.GIT && a.repoUrl === props.source.repoUrl)!;
      if (explicit.gitOptions.branch !== undefined && explicit.gitOptions.branch !== props.source.branch) {
        problems.add(`the git artifact for the source repository follows branch "${explicit.gitOptions.branch}" but the source uses "${props.source.branch}"; make them agree`);
      }
    }
    problems.throwIfAny();

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
    });

    claimNames(this, subject, this.plan);

    const clusters = new Map<string, Cluster>(props.fleet.clusters.map(c => [c.name, c]));
    const description = `${this.appName}, owned by team ${props.owner.team} (${props.owner.contact})`;
    defineKargoRelease(this, this.plan, {
      app: this.appName,
      releaseRepo: props.releaseRepo.replace(/\/+$/, ''),
      source: props.source,
      artifacts: this.artifacts,
      destinationNamespace: namespace,
      argoCdNamespace: props.fleet.argoCdNamespace,
      clusters,
    }, description);
    defineArgoCdRelease(this, this.plan, {
      releaseRepo: props.releaseRepo.replace(/\/+$/, ''),
      argoCdNamespace: props.fleet.argoCdNamespace,
      clusters,
      description,
    });

    // the plan is fixed when the app is defined; clusters added to the fleet later would be missed
    const plannedFleet = props.fleet.clusters.map(c => c.name).join(',');
    this.node.addValidation({
      validate: () => {
        const now = props.fleet.clusters.map(c => c.name).join(',');
        return now === plannedFleet ? [] : [`fleet '${props.fleet.fleetName}' changed after ${subject} was planned; define every cluster before the apps`];
      },
    });
  }
}

/** Names other apps must not use: Kargo Projects are cluster-wide, Argo CD objects share a namespace. */
function claimNames(scope: Construct, subject: string, plan: ReleasePlan) {
  const owner = `${subject} (construct ${scope.node.path})`;
  const sameApp = claimName(scope, 'app', plan.app, owner);
  if (sameApp) {
    throw new Error(`${subject}: appName "${plan.app}" is already used by ${sameApp}; give every app a unique name`);
  }
  const problems = new ProblemList(subject);
  const claims: Array<[string, string]> = [];
  for (const s of plan.stages) for (const w of s.waves) claims.push(['argocd ApplicationSet', w.applicationSet]);
  for (const c of plan.clusters) claims.push(['argocd Application', `${plan.app}-${c}`]);
  for (const [kind, name] of claims) {
    const holder = claimName(scope, kind, name, owner);
    if (holder) problems.add(`${kind} name "${name}" is already used by ${holder}; give the apps distinct names`);
  }
  problems.throwIfAny();
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
