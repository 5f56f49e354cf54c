import { Testing } from 'cdk8s';
import { describe, expect, test } from 'vitest';
import { Approval, ArgoCdTopology, ClusterFleet, ClusterOptions, ClusterSelector, PlatformApp, Tier } from '../../src';
import { formatIssues, ManifestValidator } from '../../src/testkit';
import { applicationsUpdatedBy, argoCdInstances, releaseConsistencyProblems } from '../support/argocd-simulation';
import { appProps, SMALL_FLEET, standardPipeline } from '../support/fixtures';

const validator = ManifestValidator.load();

/** The small fleet with some clusters moved to their own Argo CD (a half-migrated fleet). */
function halfMigrated(perCluster: string[], options: { kargoShard?: (c: string) => string } = {}): ClusterOptions[] {
  return SMALL_FLEET.map(c => perCluster.includes(c.name)
    ? { ...c, argoCd: ArgoCdTopology.perCluster({ kargoShard: options.kargoShard?.(c.name) }) }
    : c);
}

function synth(clusters: ClusterOptions[]) {
  const app = Testing.app();
  const fleet = new ClusterFleet(app, 'fleet', { clusters });
  const pipeline = standardPipeline(app);
  const platformApp = new PlatformApp(app, 'api', appProps({ app, fleet, pipeline }));
  const charts = app.charts.map(chart => ({ id: chart.node.id, objects: chart.toJson() }));
  return { fleet, platformApp, charts, objectsOf: (id: string) => charts.find(c => c.id === id)?.objects ?? [] };
}

function argoCdInstancesOf(result: ReturnType<typeof synth>) {
  return argoCdInstances('api', result.charts);
}

describe('Argo CD topologies', () => {
  const perCluster = ['gcp-dev-h100', 'aws-prod-cpu-2', 'gcp-prod-h100-2'];
  const result = synth(halfMigrated(perCluster));
  const kargo = result.objectsOf('api');

  test('clusters with their own Argo CD get no cluster Secret on the hub', () => {
    const secrets = result.objectsOf('fleet').map(s => s.stringData.name);
    expect(secrets).toHaveLength(SMALL_FLEET.length - perCluster.length);
    for (const c of perCluster) expect(secrets).not.toContain(c);
  });

  test('each cluster with its own Argo CD gets a chart with an AppProject and an Application on the in-cluster API', () => {
    const objects = result.objectsOf('api--gcp-prod-h100-2');
    expect(objects.map(o => `${o.kind}/${o.metadata.namespace}/${o.metadata.name}`)).toEqual(['AppProject/argocd/api', 'Application/argocd/api-gcp-prod-h100-2']);
    const application = objects[1];
    expect(application.spec.destination).toEqual({ server: 'https://kubernetes.default.svc', namespace: 'api' });
    expect(application.spec.source).toEqual({ repoURL: 'https://github.com/acme/releases.git', targetRevision: 'rendered/api/prod-broad-gcp-prod-h100-2', path: 'gcp-prod-h100-2' });
    expect(application.metadata.annotations['kargo.akuity.io/authorized-stage']).toBe('api:prod-broad-gcp-prod-h100-2');
    expect(objects[0].spec.destinations).toEqual([{ server: 'https://kubernetes.default.svc', namespace: 'api' }]);
  });

  test('a wave is split into one Kargo Stage per Argo CD; per-cluster Stages are routed with shard', () => {
    const stages = kargo.filter(o => o.kind === 'Stage');
    expect(stages.map(s => [s.metadata.name, s.spec.shard])).toEqual([
      ['dev', undefined],
      ['dev-gcp-dev-h100', 'gcp-dev-h100'],
      ['staging', undefined],
      ['prod-canary', undefined],
      // every cluster of the broad ring has its own Argo CD: no central part
      ['prod-broad-aws-prod-cpu-2', 'aws-prod-cpu-2'],
      ['prod-broad-gcp-prod-h100-2', 'gcp-prod-h100-2'],
    ]);
  });

  test('the next wave waits for every part of the previous wave', () => {
    const staging = kargo.find(o => o.kind === 'Stage' && o.metadata.name === 'staging');
    expect(staging.spec.requestedFreight[0].sources).toEqual({ stages: ['dev', 'dev-gcp-dev-h100'], availabilityStrategy: 'All' });
    const prodParts = kargo.filter(o => o.kind === 'Stage' && o.metadata.name.startsWith('prod-broad'));
    for (const s of prodParts) {
      expect(s.spec.requestedFreight[0].sources).toEqual({ stages: ['prod-canary'] });
      expect(s.metadata.annotations['gitops-platform.io/soak']).toBe('30m');
    }
    // the broad ring's soak is waited in the canary's verification
    const canary = kargo.find(o => o.kind === 'Stage' && o.metadata.name === 'prod-canary');
    expect(canary.spec.verification.analysisTemplates).toEqual([{ kind: 'AnalysisTemplate', name: 'prod-canary-verification' }]);
    const template = kargo.find(o => o.kind === 'AnalysisTemplate' && o.metadata.name === 'prod-canary-verification');
    expect(template.spec.metrics.filter((m: any) => m.name === 'soak').map((m: any) => m.initialDelay)).toEqual(['30m']);
  });

  test('a Stage routed to a Kargo shard carries the shard label, as Kargo\'s Stage webhook would set it', () => {
    const sharded = kargo.filter(o => o.kind === 'Stage' && o.spec.shard !== undefined);
    expect(sharded.length).toBeGreaterThan(0);
    for (const stage of sharded) expect(stage.metadata.labels['kargo.akuity.io/shard']).toBe(stage.spec.shard);
    for (const stage of kargo.filter(o => o.kind === 'Stage' && o.spec.shard === undefined)) {
      expect(stage.metadata.labels['kargo.akuity.io/shard']).toBeUndefined();
    }
  });

  test('both shapes are consistent: every planned cluster gets exactly one Application, updated by exactly its Stage', () => {
    const { central, perCluster: local } = argoCdInstancesOf(result);
    const deployed = [...central.map(a => a.destination.name!), ...[...local.keys()]].sort();
    expect(deployed).toEqual(result.platformApp.plan.clusters);
    for (const stage of kargo.filter(o => o.kind === 'Stage')) {
      const wave = result.platformApp.plan.stages.flatMap(s => s.waves).find(w => w.kargoStage === stage.metadata.name)!;
      const instance = stage.spec.shard === undefined ? central : wave.clusters.flatMap(c => local.get(c) ?? []);
      const updated = applicationsUpdatedBy(stage, instance);
      expect(updated.map(u => u.app.name).sort()).toEqual(wave.clusters.map(c => `api-${c}`));
      expect(updated.every(u => u.authorized)).toBe(true);
      const namespace = stage.spec.promotionTemplate.spec.steps.find((s: any) => s.uses === 'argocd-update').config.apps[0].namespace;
      expect(namespace).toBe(wave.argoCdNamespace);
    }
  });

  test('the shared consistency check agrees', () => {
    expect(releaseConsistencyProblems(result.platformApp.plan, result.charts)).toEqual([]);
  });

  test('every object of every chart is valid against the pinned schemas', () => {
    for (const chart of result.charts) {
      expect(formatIssues(validator.validateObjects(chart.objects, chart.id))).toBe('');
    }
  });

  test('migrating a cluster to the central Argo CD moves its Application into an ApplicationSet under the same name', () => {
    const before = argoCdInstancesOf(synth(halfMigrated(['aws-prod-cpu-2'])));
    const after = argoCdInstancesOf(synth(halfMigrated([])));
    expect(before.perCluster.get('aws-prod-cpu-2')!.map(a => a.name)).toEqual(['api-aws-prod-cpu-2']);
    expect(after.perCluster.size).toBe(0);
    expect(after.central.map(a => a.name)).toContain('api-aws-prod-cpu-2');
  });

  test('a per-cluster Stage can be routed to a differently named Kargo shard', () => {
    const named = synth(halfMigrated(['aws-prod-cpu-2'], { kargoShard: c => `kargo-${c}` }));
    const stage = named.objectsOf('api').find(o => o.kind === 'Stage' && o.metadata.name === 'prod-broad-aws-prod-cpu-2');
    expect(stage.spec.shard).toBe('kargo-aws-prod-cpu-2');
  });

  test('a fleet can default to per-cluster Argo CD', () => {
    const app = Testing.app();
    const fleet = new ClusterFleet(app, 'fleet', { clusters: SMALL_FLEET, topology: ArgoCdTopology.perCluster() });
    expect(Testing.synth(fleet)).toEqual([]);
    expect(fleet.clusters.every(c => c.kargoShard === c.name)).toBe(true);
  });

  test('fails if the Kargo Stage of a cluster with its own Argo CD is named like another stage', () => {
    const app = Testing.app();
    const fleet = new ClusterFleet(app, 'fleet', { clusters: halfMigrated(['gcp-dev-h100']) });
    // dev's part for gcp-dev-h100 is Kargo Stage "dev-gcp-dev-h100", the name of the next stage
    const pipeline = standardPipeline(app, {
      stages: [
        { name: 'dev', clusters: ClusterSelector.tier(Tier.DEV), approval: Approval.automatic() },
        { name: 'dev-gcp-dev-h100', clusters: ClusterSelector.tier(Tier.STAGING, Tier.PROD) },
      ],
    });
    expect(() => new PlatformApp(app, 'api', appProps({ app, fleet, pipeline })))
      .toThrow(/stage "dev-gcp-dev-h100" Kargo Stage name is also the Kargo Stage name of stage "dev" \(cluster "gcp-dev-h100"\), got "dev-gcp-dev-h100"/);
  });

  test('fails if another app is named like the chart of a cluster with its own Argo CD (<app>--<cluster>)', () => {
    const clusters = halfMigrated(['gcp-dev-h100']);
    // the other app first: api's chart for gcp-dev-h100 would take its id
    let app = Testing.app();
    let fleet = new ClusterFleet(app, 'fleet', { clusters });
    let pipeline = standardPipeline(app);
    new PlatformApp(app, 'api--gcp-dev-h100', appProps({ app, fleet, pipeline }));
    expect(() => new PlatformApp(app, 'api', appProps({ app, fleet, pipeline }))).toThrow(
      /^PlatformApp 'api': output chart name is already used by PlatformApp 'api--gcp-dev-h100', got "api--gcp-dev-h100"; give the apps distinct names$/);
    // api first: the other app's chart would take the id of api's chart for gcp-dev-h100
    app = Testing.app();
    fleet = new ClusterFleet(app, 'fleet', { clusters });
    pipeline = standardPipeline(app);
    new PlatformApp(app, 'api', appProps({ app, fleet, pipeline }));
    expect(() => new PlatformApp(app, 'api--gcp-dev-h100', appProps({ app, fleet, pipeline }))).toThrow(
      /^PlatformApp 'api--gcp-dev-h100': construct id is already the output chart of PlatformApp 'api' for its cluster "gcp-dev-h100", got "api--gcp-dev-h100"/);
  });

  test('fails if two clusters with their own Argo CD share a Kargo shard', () => {
    expect(() => synth(halfMigrated(['aws-prod-cpu-2', 'gcp-prod-h100-2'], { kargoShard: () => 'kargo-edge' })))
      .toThrow(/cluster "gcp-prod-h100-2" argoCd kargoShard is already used by cluster "aws-prod-cpu-2", got "kargo-edge"; a Kargo shard talks to exactly one Argo CD/);
  });

  test('fails if a per-cluster Kargo shard is not a DNS label', () => {
    expect(() => synth(SMALL_FLEET.map(c => ({ ...c, argoCd: ArgoCdTopology.perCluster({ kargoShard: 'Edge Shard' }) }))))
      .toThrow(/argoCd: per-cluster argo cd kargoShard must consist of lowercase letters/);
  });
});
