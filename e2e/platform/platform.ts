import { Duration } from 'cdk8s';
import { Construct } from 'constructs';
import {
  Approval, Artifact, ClusterAuth, ClusterFleet, ClusterSelector, CloudProvider, DeployFreeze, FreezeSchedule, ManifestSource, PlatformApp,
  PromotionPipeline, Tier, Verification, Versioning, Waves,
} from '../../src';

/**
 * Where the e2e platform's clusters, registry, Git server and verification endpoint are: the
 * suite writes it for each run (ports are chosen at start), and `main.ts` reads it.
 */
export interface E2eEnvironment {
  /** API server URL of each workload cluster, by name. */
  readonly clusters: Record<string, string>;
  /** The suite's CA, base64 PEM: the API servers' certificates are signed by it. */
  readonly caData: string;
  /** The file Argo CD reads its token for the workload clusters from. */
  readonly tokenFile: string;
  /** host:port of the OCI registry. */
  readonly registry: string;
  /** https://host:port of the Git server; repositories are `<gitBase>/<name>.git`. */
  readonly gitBase: string;
  /** http://host:port of the verification endpoint the suite serves. */
  readonly metricsBase: string;
  /** Ring of each production cluster (a fleet change moves one). */
  readonly rings: Record<string, string>;
  /** Seconds of the production soak. */
  readonly soakSeconds: number;
  /** A freeze of the production stages, if one is declared: a cron expression and its minutes. */
  readonly freeze?: { readonly cron: string; readonly minutes: number; readonly timeZone: string };
}

/** The e2e fleet's clusters: a tier each, two in production. */
export const E2E_CLUSTERS: Record<string, Tier> = {
  'e2e-dev-1': Tier.DEV,
  'e2e-staging-1': Tier.STAGING,
  'e2e-prod-1': Tier.PROD,
  'e2e-prod-2': Tier.PROD,
};

/**
 * The platform a team would write for the e2e clusters, with nothing but the library's public
 * API: the fleet (API servers reached with a token from a file Argo CD mounts), two pipelines
 * and two apps.
 *
 * - `web` on `continuous`: dev and staging automatically, staging verified by a web metric,
 *   production automatically in two rings (canary, broad) with a soak.
 * - `api` on `gated`: dev and staging automatically, staging verified by a Job, production by
 *   hand (promoters: the `sre-oncall` group).
 */
export function defineE2ePlatform(scope: Construct, env: E2eEnvironment): { fleet: ClusterFleet; web: PlatformApp; api: PlatformApp } {
  const fleet = new ClusterFleet(scope, 'fleet', {
    clusters: Object.entries(E2E_CLUSTERS).map(([name, tier]) => ({
      name,
      server: env.clusters[name],
      provider: CloudProvider.ON_PREM,
      region: 'loopback',
      tier,
      labels: env.rings[name] ? { ring: env.rings[name] } : undefined,
      auth: ClusterAuth.tokenFile({ path: env.tokenFile }, { caData: env.caData }),
    })),
  });

  const freezes = env.freeze
    ? [new DeployFreeze({
      reason: 'e2e change freeze',
      schedule: FreezeSchedule.cron(env.freeze.cron, Duration.minutes(env.freeze.minutes)),
      timeZone: env.freeze.timeZone,
      stages: ['prod'],
    })]
    : undefined;

  // both pipelines: dev and staging promote automatically, staging verified by `check`
  const devAndStaging = (check: Verification) => [
    { name: 'dev', clusters: ClusterSelector.tier(Tier.DEV), approval: Approval.automatic() },
    { name: 'staging', clusters: ClusterSelector.tier(Tier.STAGING), approval: Approval.automatic(), verification: [check] },
  ];

  const continuous = new PromotionPipeline(scope, 'continuous', {
    freezes,
    stages: [
      ...devAndStaging(Verification.http({
        name: 'health',
        url: `${env.metricsBase}/health/{cluster}`,
        interval: Duration.seconds(2),
        count: 2,
        failureLimit: 0,
      })),
      {
        name: 'prod',
        clusters: ClusterSelector.tier(Tier.PROD),
        approval: Approval.automatic(),
        waves: Waves.byLabel('ring', ['canary', 'broad']),
        soak: env.soakSeconds > 0 ? Duration.seconds(env.soakSeconds) : undefined,
      },
    ],
  });

  const gated = new PromotionPipeline(scope, 'gated', {
    stages: [
      ...devAndStaging(Verification.job({ name: 'smoke', image: `${env.registry}/e2e/smoke:1.0.0`, command: ['/smoke'] })),
      { name: 'prod', clusters: ClusterSelector.tier(Tier.PROD), approval: Approval.manual({ promoters: ['sre-oncall'] }) },
    ],
  });

  const app = (name: string, pipeline: PromotionPipeline) => new PlatformApp(scope, name, {
    owner: { team: 'e2e', contact: '#e2e' },
    fleet,
    pipeline,
    artifacts: [Artifact.image(`${env.registry}/e2e/${name}`, { versioning: Versioning.semver('^1.0.0') })],
    source: ManifestSource.kustomize({ repoUrl: `${env.gitBase}/source.git`, basePath: name, overlayPath: name }),
    releaseRepo: `${env.gitBase}/releases.git`,
  });
  return { fleet, web: app('web', continuous), api: app('api', gated) };
}
