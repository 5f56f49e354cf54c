import { Testing } from 'cdk8s';
import { describe, expect, test } from 'vitest';
import { Approval, ClusterOptions, ClusterSelector, CloudProvider, PlatformApp, PlatformLabels, Tier, Waves } from '../../../src';
import { FleetChangeOptions, simulateFleetChange } from '../../../src/testkit';
import { modelApplications } from '../../../src/testkit/model/argocd-applications';
import { perWaveShape, releaseConsistencyProblems } from '../../support/argocd-simulation';
import { appProps, managedAuth, world } from '../../support/fixtures';

// A fleet change between two syntheses, run through the model of the ApplicationSet controller's
// ownership rules: the Applications as the first synthesis generated them, then the second
// synthesis applied and reconciled until nothing changes.

type Ring = 'canary' | 'early' | 'broad';
interface Member { readonly tier: Tier; readonly ring?: Ring }

const BASE: Record<string, Member> = {
  d1: { tier: Tier.DEV },
  s1: { tier: Tier.STAGING },
  p1: { tier: Tier.PROD, ring: 'canary' },
  p2: { tier: Tier.PROD, ring: 'early' },
  p3: { tier: Tier.PROD, ring: 'early' },
  p4: { tier: Tier.PROD, ring: 'broad' },
  p5: { tier: Tier.PROD, ring: 'broad' },
};

const STAGES = [
  { name: 'dev', clusters: ClusterSelector.tier(Tier.DEV), approval: Approval.automatic() },
  { name: 'staging', clusters: ClusterSelector.tier(Tier.STAGING), approval: Approval.automatic() },
  { name: 'prod', clusters: ClusterSelector.tier(Tier.PROD), approval: Approval.manual(), waves: Waves.byLabel('ring', ['canary', 'early', 'broad']) },
];

function clusters(members: Record<string, Member>): ClusterOptions[] {
  return Object.entries(members).map(([name, m]) => ({
    name,
    server: `https://${name}.eks.example.com`,
    provider: CloudProvider.AWS,
    region: 'us-east-1',
    tier: m.tier,
    kubernetesVersion: '1.31',
    labels: m.ring ? { ring: m.ring } : undefined,
    auth: managedAuth(CloudProvider.AWS, name),
  }));
}

/** The fleet's cluster Secrets and the app's objects, as the library synthesizes them today. */
function synth(members: Record<string, Member>) {
  const w = world(clusters(members), { stages: STAGES });
  const app = new PlatformApp(w.app, 'api', appProps(w));
  const appObjects = Testing.synth(app);
  const objects = [...Testing.synth(w.fleet), ...appObjects];
  return { objects, plan: app.plan, charts: [{ id: 'fleet', objects: Testing.synth(w.fleet) }, { id: 'api', objects: appObjects }] };
}

const with_ = (changes: Record<string, Member | undefined>): Record<string, Member> => {
  const out: Record<string, Member> = { ...BASE, ...changes } as Record<string, Member>;
  for (const [k, v] of Object.entries(changes)) if (v === undefined) delete out[k];
  return out;
};

/** The fleet changes every shape must survive. */
const CHANGES: Record<string, Record<string, Member | undefined>> = {
  'move (p3 early → broad)': { p3: { tier: Tier.PROD, ring: 'broad' } },
  'swap (p2 early ↔ p4 broad)': { p2: { tier: Tier.PROD, ring: 'broad' }, p4: { tier: Tier.PROD, ring: 'early' } },
  'cycle (p1 → early, p2 → broad, p4 → canary)': {
    p1: { tier: Tier.PROD, ring: 'early' }, p2: { tier: Tier.PROD, ring: 'broad' }, p4: { tier: Tier.PROD, ring: 'canary' },
  },
  'leave a wave and the stage (p5 prod → staging)': { p5: { tier: Tier.STAGING } },
  'swap between stages (p5 prod → staging, s1 staging → prod early)': { p5: { tier: Tier.STAGING }, s1: { tier: Tier.PROD, ring: 'early' } },
  'leave the fleet (p5)': { p5: undefined },
  'join (p6 broad)': { p6: { tier: Tier.PROD, ring: 'broad' } },
};

const codes = (before: any[], after: any[], options?: FleetChangeOptions) =>
  simulateFleetChange(before, after, options).findings.map(f => `${f.name}: ${f.code}`).sort();

describe('fleet change: the ApplicationSet controller over two syntheses', () => {
  const base = synth(BASE);

  test('the shape before (one ApplicationSet per wave) deadlocks on a swap: both ApplicationSets blocked, both clusters on their old branch', () => {
    const after = synth(with_(CHANGES['swap (p2 early ↔ p4 broad)']));
    const result = simulateFleetChange(perWaveShape(base.objects), perWaveShape(after.objects));
    // each is refused what the other holds, and says so twice: ownership refused, and the Application it generates not run as generated
    expect(result.findings.map(f => `${f.name}: ${f.code}`).sort()).toEqual([
      'api-prod-broad: applicationset-application-outdated',
      'api-prod-broad: applicationset-ownership-conflict',
      'api-prod-early: applicationset-application-outdated',
      'api-prod-early: applicationset-ownership-conflict',
    ]);
    const early = result.findings.find(f => f.name === 'api-prod-early')!;
    expect(early.message).toContain('argocd/api-p4 (controlled by ApplicationSet argocd/api-prod-broad)');
    expect(early.message).toContain('Reconcile returns before deleteInCluster');
    expect(result.owners.get('argocd/api-p2')).toBe('argocd/api-prod-early');
    expect(result.owners.get('argocd/api-p4')).toBe('argocd/api-prod-broad');
  });

  test('the shape before: a one-way move clears under `sync`, but never under `create-update`', () => {
    const after = synth(with_(CHANGES['move (p3 early → broad)']));
    const [before, head] = [perWaveShape(base.objects), perWaveShape(after.objects)];
    const sync = simulateFleetChange(before, head);
    expect(sync.findings).toEqual([]);
    // the new owner is refused until the old one deletes the Application
    expect(sync.events.filter(e => e.application === 'argocd/api-p3').map(e => `${e.round} ${e.applicationSet} ${e.action}`)).toEqual([
      '1 argocd/api-prod-broad refused', '1 argocd/api-prod-early deleted', '2 argocd/api-prod-broad created',
    ]);
    expect(codes(before, head, { policy: 'create-update' })).toEqual([
      'api-prod-broad: applicationset-application-outdated', 'api-prod-broad: applicationset-ownership-conflict',
    ]);
    // the ApplicationSet's own policy counts only with overrides enabled (policy.go DefaultPolicy)
    const own = head.map(o => (o.kind === 'ApplicationSet' ? { ...o, spec: { ...o.spec, syncPolicy: { ...o.spec.syncPolicy, applicationsSync: 'create-update' } } } : o));
    expect(codes(before, own)).toEqual([]);
    expect(codes(before, own, { enablePolicyOverride: true })).toEqual([
      'api-prod-broad: applicationset-application-outdated', 'api-prod-broad: applicationset-ownership-conflict',
    ]);
  });

  for (const [name, change] of Object.entries(CHANGES)) {
    test(`one ApplicationSet per family of names: ${name} changes Applications in place, no owner changes, nothing blocked`, () => {
      const after = synth(with_(change));
      expect(releaseConsistencyProblems(after.plan, after.charts)).toEqual([]);
      // under create-update a cluster that leaves the app keeps its Application (its own test below)
      const policies = Object.values(change).includes(undefined) ? ['sync'] as const : ['sync', 'create-update'] as const;
      for (const policy of policies) {
        const result = simulateFleetChange(base.objects, after.objects, { policy });
        expect(result.findings).toEqual([]);
        expect(result.events.filter(e => e.action === 'refused')).toEqual([]);
        // a cluster that stays in the app keeps its Application and its owner
        for (const [app, owner] of result.owners) expect([app, owner]).toEqual([app, 'argocd/api']);
      }
    });
  }

  test('one ApplicationSet per family of names: a swap updates both Applications: branch, Stage label, authorized stage', () => {
    const after = synth(with_(CHANGES['swap (p2 early ↔ p4 broad)']));
    const result = simulateFleetChange(base.objects, after.objects);
    expect(result.events.map(e => `${e.round} ${e.applicationSet} ${e.application} ${e.action}`)).toEqual([
      '1 argocd/api argocd/api-p2 updated', '1 argocd/api argocd/api-p4 updated',
    ]);
    const generated = (objects: any[], name: string) => modelApplications(objects).find(a => a.name === name)!;
    const [before, now] = [generated(base.objects, 'api-p2'), generated(after.objects, 'api-p2')];
    expect([before.labels[PlatformLabels.STAGE], before.annotations['kargo.akuity.io/authorized-stage'], before.sources[0].targetRevision])
      .toEqual(['prod-early', 'api:prod-early', 'rendered/api/prod-early']);
    expect([now.labels[PlatformLabels.STAGE], now.annotations['kargo.akuity.io/authorized-stage'], now.sources[0].targetRevision])
      .toEqual(['prod-broad', 'api:prod-broad', 'rendered/api/prod-broad']);
    expect(now.origin.obj.metadata.name).toBe(before.origin.obj.metadata.name);
  });

  test('one ApplicationSet per family of names: `create-only` never updates a moved Application, and says so', () => {
    const after = synth(with_(CHANGES['swap (p2 early ↔ p4 broad)']));
    const [finding] = simulateFleetChange(base.objects, after.objects, { policy: 'create-only' }).findings;
    expect(finding.code).toBe('applicationset-application-outdated');
    expect(finding.message).toBe('ApplicationSet argocd/api generates argocd/api-p2, argocd/api-p4 with new fields but its policy create-only '
      + 'does not update (AllowUpdate): they keep their old branch, labels and authorized stage; a person updates or deletes them');
  });

  test('`create-update` leaves the Application of a cluster that leaves the app, and says so', () => {
    const after = synth(with_(CHANGES['leave the fleet (p5)']));
    const [finding] = simulateFleetChange(base.objects, after.objects, { policy: 'create-update' }).findings;
    expect(finding.message).toBe('ApplicationSet argocd/api no longer generates argocd/api-p5 but its policy create-update does not delete '
      + '(AllowDelete): they go on deploying what they last pointed at; a person deletes them');
  });

  test('moving from the per-wave shape: the removed ApplicationSets must be deleted, then the new one takes their Applications', () => {
    const old = perWaveShape(base.objects);
    const pruned = simulateFleetChange(old, base.objects);
    expect(pruned.findings).toEqual([]);
    expect(new Set(pruned.owners.values())).toEqual(new Set(['argocd/api']));
    expect(pruned.events.filter(e => e.action === 'garbage-collected')).toHaveLength(7);
    const kept = simulateFleetChange(old, base.objects, { removedApplicationSets: 'kept' });
    expect(kept.findings.map(f => `${f.name}: ${f.code}`)).toEqual(['api: applicationset-ownership-conflict', 'api: applicationset-application-outdated']);
    // the library's ApplicationSet sets preserveResourcesOnDeletion: RenderTemplateParams gives its Applications no resources finalizer
    expect(kept.findings[0].message).toMatch(/until a person deletes the Applications \(what they deployed stays: no resources finalizer\)$/);
  });
});
