

// ---------------------------------------------------------------------------------------------
// The input model
// ---------------------------------------------------------------------------------------------

export type SelSpec =
  | { k: 'all' }
  | { k: 'tier' | 'provider' | 'accelerator' | 'region' | 'names'; v: string[] }
  | { k: 'labels'; v: Record<string, string> }
  | { k: 'expr'; key: string; op: string; values?: string[] }
  | { k: 'and'; of: SelSpec[] };

export type AuthSpec =
  | { k: 'exec'; command: string; args?: string[]; env?: Record<string, string> }
  | { k: 'eks'; roleArn?: string }
  | { k: 'gke' }
  | { k: 'aks' };

export type TopologySpec = { k: 'central' } | { k: 'per-cluster'; kargoShard?: string; namespace?: string };

export interface ClusterSpec {
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

export interface FleetSpec {
  fromTerraform: boolean;
  fleetName?: string;
  argoCdNamespace?: string;
  topology?: TopologySpec;
  shards?: number;
  clusters: ClusterSpec[];
  /** added after the apps: synth must refuse the stale plans */
  late?: ClusterSpec;
}

export type ApprovalSpec = { k: 'automatic' } | { k: 'manual'; promoters?: string[] } | { k: 'pr'; promoters?: string[]; labels?: string[]; open?: boolean };
export type WavesSpec = { k: 'single' } | { k: 'label'; key: string; values: string[] } | { k: 'count'; n: number } | { k: 'pct'; p: number[] };
export interface BudgetSpec { maxClusters?: number; maxPercent?: number }

export interface StageSpec {
  name: string;
  /** No selector: a control-flow stage. */
  sel?: SelSpec;
  /** Upstream stage names (default: the previous stage). */
  after?: string[];
  join?: 'all' | 'any';
  /** Fan out by this cluster label. */
  fanOut?: string;
  approval?: ApprovalSpec;
  waves?: WavesSpec;
  soakMs?: number;
  production?: boolean;
  budget?: BudgetSpec;
  checks?: CheckSpec[];
  /** The stage's namespace pattern (`{app}`, `{stage}`): stages in different namespaces may share clusters. */
  ns?: string;
  /** A deploy freeze of the stage. */
  freeze?: FreezeSpec;
}

/** A deploy freeze: a schedule (5 fields or a descriptor), hours, a time zone. */
export interface FreezeSpec { schedule: string; hours: number; zone: string; manual: boolean }

export interface PipelineSpec { id: string; stages: StageSpec[]; budget?: BudgetSpec }

export type ArgSpec = { k: 'value'; text: string } | { k: 'secret'; name: string; key: string } | { k: 'expr'; text: string } | { k: 'imageTag'; repo: string } | { k: 'commit'; url: string };

export type CheckSpec =
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

export type CredSpec = { k: 'wi' } | { k: 'managed'; source: string };

export type ArtifactSpec =
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
    checkoutPath?: string;
    creds?: CredSpec;
  };

export type SourceSpec =
  | { k: 'helm'; repo: string; branch?: string; path: string; valuesFiles?: string[]; optionalValuesFiles?: string[]; releaseName?: string; creds?: CredSpec }
  | { k: 'kustomize'; repo: string; branch?: string; basePath: string; overlayPath: string };

export type ReqSpec = { k: 'k8s'; v: string } | { k: 'minAcc'; n: number } | { k: 'acc'; v: string[] } | { k: 'labels'; sel: SelSpec };

export interface AppSpec {
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

export interface StandardsSpec { maxWavePercent?: number; disabledRules?: string[]; warnings: boolean; allowedRegistries?: string[] }

export interface WorldSpec {
  /** the defect injected, if any */
  defect?: string;
  fleet: FleetSpec;
  pipelines: PipelineSpec[];
  standards?: StandardsSpec;
  apps: AppSpec[];
}
