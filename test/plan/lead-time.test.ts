import { describe, expect, test } from 'vitest';
import { ArgoCdTopologyKind } from '../../src/fleet/argocd-topology';
import { ApprovalKind } from '../../src/pipeline/approval';
import { JoinKind } from '../../src/pipeline/join';
import { computeLeadTime, DiscoveryMode, DiscoveryPlan, verificationTime, VerificationTime } from '../../src/plan/lead-time';
import { FreezePlan, ReleasePlan, StagePlan, WavePlan } from '../../src/plan/release-plan';

// Hand-made plans: the arithmetic is checked against sums written out by hand.

const POLLING: DiscoveryPlan = { mode: DiscoveryMode.POLLING, interval: '5m0s', waitSeconds: 300, receivers: [], polled: ['ghcr.io/acme/a'], notReady: [] };
const WEBHOOK: DiscoveryPlan = { mode: DiscoveryMode.WEBHOOK, interval: '1h', waitSeconds: 0, receivers: ['github'], polled: [], notReady: [] };

function wave(kargoStage: string, upstreams: string[], extra: Partial<WavePlan> = {}): WavePlan {
  return {
    name: kargoStage,
    kargoStage,
    upstreams,
    earliestSeconds: 0,
    clusters: [`${kargoStage}-c1`],
    applications: [`app-${kargoStage}-c1`],
    argoCd: ArgoCdTopologyKind.CENTRAL,
    argoCdNamespace: 'argocd',
    ...extra,
  };
}

function stage(name: string, waves: WavePlan[], extra: Partial<StagePlan> = {}): StagePlan {
  return {
    name,
    production: false,
    approval: ApprovalKind.AUTOMATIC,
    gated: false,
    autoPromote: true,
    promoters: ['team'],
    pullRequestLabels: [],
    verification: [],
    namespace: 'app',
    waves,
    freezes: [],
    syncTimeout: '30m',
    ...extra,
  };
}

function plan(stages: StagePlan[]): ReleasePlan {
  return { app: 'app', project: 'app', destinationNamespace: 'app', clusters: [], stages };
}

/** Verification times in minutes by Kargo Stage. */
function minutes(byStage: Record<string, number>): Map<string, VerificationTime> {
  return new Map(Object.entries(byStage).map(([k, m]) => [k, { seconds: m * 60, longest: `check-${k}` }]));
}

describe('verificationTime', () => {
  test('a metric takes initialDelay plus (count - 1) intervals; the run takes its longest metric', () => {
    const t = verificationTime([
      { spec: { metrics: [{ name: 'http', count: 5, interval: '1m', initialDelay: '30s' }, { name: 'once' }] } },
      { spec: { metrics: [{ name: 'soak', initialDelay: '2h', count: 1 }] } },
    ]);
    expect(t).toEqual({ seconds: 7200, longest: 'soak' });
    expect(verificationTime([{ spec: { metrics: [{ name: 'http', count: 5, interval: '1m', initialDelay: '30s' }] } }]))
      .toEqual({ seconds: 30 + 4 * 60, longest: 'http' });
  });

  test('no templates: verified at once', () => {
    expect(verificationTime([]).seconds).toBe(0);
  });
});

describe('computeLeadTime', () => {
  test('waves in series add up, discovery first', () => {
    const p = plan([
      stage('dev', [wave('dev', [])]),
      stage('prod', [wave('prod-w1', ['dev']), wave('prod-w2', ['prod-w1']), wave('prod-w3', ['prod-w2'])], { production: true }),
    ]);
    const lt = computeLeadTime(p, POLLING, minutes({ 'dev': 30, 'prod-w1': 120, 'prod-w2': 120, 'prod-w3': 4 }));
    expect(lt.seconds).toBe((5 + 30 + 120 + 120 + 4) * 60);
    expect(lt.criticalPath).toEqual(['dev', 'prod-w1', 'prod-w2', 'prod-w3']);
    expect(lt.paths).toEqual([{ waves: ['dev', 'prod-w1', 'prod-w2', 'prod-w3'], seconds: lt.seconds, critical: true, binding: true }]);
    expect(lt.stages.map(s => [s.stage, s.seconds / 60])).toEqual([['dev', 35], ['prod', 279]]);
    expect(lt.contributors[0]).toEqual({ what: 'prod-w1: check-prod-w1', seconds: 7200 });
    expect(lt.contributors.map(c => c.what)).toContain('discovery: polling every 5m0s');
  });

  test('a webhook drops the polling interval', () => {
    const p = plan([stage('dev', [wave('dev', [])]), stage('prod', [wave('prod', ['dev'])])]);
    const verification = minutes({ dev: 10, prod: 60 });
    const polled = computeLeadTime(p, POLLING, verification);
    const pushed = computeLeadTime(p, WEBHOOK, verification);
    expect(polled.seconds - pushed.seconds).toBe(300);
    expect(pushed.contributors.map(c => c.what)).not.toContain('discovery: polling every 5m0s');
  });

  test('fan-out branches run in parallel: the slowest terminal is the lead time', () => {
    const p = plan([
      stage('staging', [wave('staging', [])]),
      stage('prod', [wave('prod-eu', ['staging'], { branch: 'eu' }), wave('prod-us', ['staging'], { branch: 'us' })]),
    ]);
    const lt = computeLeadTime(p, WEBHOOK, minutes({ 'staging': 10, 'prod-eu': 50, 'prod-us': 20 }));
    expect(lt.seconds).toBe(60 * 60);
    expect(lt.criticalPath).toEqual(['staging', 'prod-eu']);
    expect(lt.paths.map(x => [x.waves.join('>'), x.seconds / 60, x.critical, x.binding])).toEqual([['staging>prod-eu', 60, true, true], ['staging>prod-us', 30, false, true]]);
  });

  test('an all join waits for the slowest branch', () => {
    const p = plan([
      stage('dev', [wave('a', [], { branch: 'a', name: 'a' }), wave('b', [], { branch: 'b', name: 'b' })]),
      stage('prod', [wave('prod', ['a', 'b'], { join: JoinKind.ALL })]),
    ]);
    const lt = computeLeadTime(p, POLLING, minutes({ a: 10, b: 40, prod: 5 }));
    expect(lt.seconds).toBe((5 + 40 + 5) * 60);
    expect(lt.criticalPath).toEqual(['b', 'prod']);
    expect(lt.paths.map(x => [x.waves.join('>'), x.binding])).toEqual([['a>prod', false], ['b>prod', true]]);
  });

  test('an any-of join takes the fastest branch, through a control-flow Stage that verifies at once', () => {
    const p = plan([
      stage('ab', [wave('ab-a', [], { branch: 'a' }), wave('ab-b', [], { branch: 'b' })]),
      stage('gate', [wave('gate', ['ab-a', 'ab-b'], { join: JoinKind.ANY_OF, controlFlow: true, clusters: [] })], { controlFlow: true }),
      stage('prod', [wave('prod', ['gate'])]),
    ]);
    // a control-flow Stage runs no checks even if a time were given for it
    const lt = computeLeadTime(p, WEBHOOK, minutes({ 'ab-a': 60, 'ab-b': 15, 'gate': 99, 'prod': 5 }));
    expect(lt.seconds).toBe((15 + 5) * 60);
    expect(lt.criticalPath).toEqual(['ab-b', 'gate', 'prod']);
    expect(lt.paths.find(x => x.waves[0] === 'ab-a')?.binding).toBe(false);
    expect(lt.paths.find(x => x.waves[0] === 'ab-a')?.seconds).toBe((60 + 5) * 60);
  });

  test('approvals are counted and named, not estimated; a skipped any-of branch asks nobody', () => {
    const p = plan([
      stage('dev', [wave('dev', [])]),
      stage('qa', [wave('qa', ['dev'])], { approval: ApprovalKind.AUTOMATIC, autoPromote: false }),
      stage('slow', [wave('slow', ['dev'])], { approval: ApprovalKind.MANUAL, gated: true, autoPromote: false, promoters: ['slow-team'] }),
      stage('gate', [wave('gate', ['qa', 'slow'], { join: JoinKind.ANY_OF, controlFlow: true, clusters: [] })], { controlFlow: true }),
      stage('prod', [wave('prod-w1', ['gate']), wave('prod-w2', ['prod-w1'])], { approval: ApprovalKind.PULL_REQUEST, gated: true, promoters: ['sre'] }),
    ]);
    const lt = computeLeadTime(p, POLLING, minutes({ 'dev': 10, 'qa': 20, 'slow': 90, 'prod-w1': 60, 'prod-w2': 5 }));
    expect(lt.seconds).toBe((5 + 10 + 20 + 60 + 5) * 60);
    expect(lt.approvals).toEqual([
      { kargoStage: 'qa', stage: 'qa', approval: ApprovalKind.AUTOMATIC, promoters: ['team'] },
      { kargoStage: 'prod-w1', stage: 'prod', approval: ApprovalKind.PULL_REQUEST, promoters: ['sre'] },
      { kargoStage: 'prod-w2', stage: 'prod', approval: ApprovalKind.PULL_REQUEST, promoters: ['sre'] },
    ]);
  });

  test('an all join needs the approvals of every branch, not only of the slowest (per-cluster Stages of a gated wave each ask)', () => {
    const gated = { approval: ApprovalKind.PULL_REQUEST, gated: true, promoters: ['sre'] };
    const p = plan([
      stage('dev', [wave('dev', [])]),
      stage('prod', [wave('prod-w1', ['dev']), wave('prod-w1-edge', ['dev'], { branch: 'edge' }), wave('prod-w2', ['prod-w1', 'prod-w1-edge'], { join: JoinKind.ALL })], gated),
    ]);
    const lt = computeLeadTime(p, POLLING, minutes({ 'dev': 10, 'prod-w1': 60, 'prod-w1-edge': 5, 'prod-w2': 5 }));
    expect(lt.criticalPath).toEqual(['dev', 'prod-w1', 'prod-w2']);
    expect(lt.approvals.map(a => a.kargoStage)).toEqual(['prod-w1', 'prod-w1-edge', 'prod-w2']);
  });

  test('freezes of the stages on the way are noted, and do not change the arithmetic', () => {
    const freeze: FreezePlan = {
      reason: 'year end', schedule: '0 0 20 12 *', duration: '336h', durationSeconds: 336 * 3600, timeZone: 'Europe/Berlin', manualSync: false, origin: 'pipeline',
    };
    const stages = [stage('dev', [wave('dev', [])]), stage('prod', [wave('prod', ['dev'])])];
    const frozen = plan([stages[0], { ...stages[1], freezes: [freeze] }]);
    const verification = minutes({ dev: 10, prod: 10 });
    const lt = computeLeadTime(frozen, POLLING, verification);
    expect(lt.freezes).toEqual(['prod: year end (0 0 20 12 * for 336h Europe/Berlin)']);
    expect(lt.seconds).toBe(computeLeadTime(plan(stages), POLLING, verification).seconds);
  });

  test('parallel Kargo Stages of one wave (clusters with their own Argo CD): the stage waits for the slower', () => {
    const p = plan([
      stage('dev', [wave('dev', [])]),
      stage('prod', [wave('prod', ['dev']), wave('prod-own', ['dev'], { name: 'prod', argoCd: ArgoCdTopologyKind.PER_CLUSTER, kargoShard: 'own' })]),
    ]);
    const lt = computeLeadTime(p, WEBHOOK, minutes({ 'dev': 5, 'prod': 10, 'prod-own': 30 }));
    expect(lt.stages.find(s => s.stage === 'prod')).toMatchObject({ seconds: 35 * 60, criticalPath: ['dev', 'prod-own'] });
    // one wave, one path: named by its first Kargo Stage, as long as its slowest one
    expect(lt.paths).toEqual([{ waves: ['dev', 'prod'], seconds: 35 * 60, critical: true, binding: true }]);
  });
});
