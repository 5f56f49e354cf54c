import { Testing } from 'cdk8s';
import { describe, expect, test } from 'vitest';
import { defineExamples } from '../../../apps';
import { simulateRelease } from '../../../src/testkit/model/kargo-release-timeline';
import { MODEL_CLOCK } from '../../../src/testkit/model/kargo-steps';

// Hand-made Kargo projects, the shapes the library wrote before soaks moved into verification and
// the shape it writes now, through the timeline model (Kargo v1.11.2 over simulated time).

const NS = 'shop';
const HOUR = 3600;

interface StageShape {
  readonly name: string;
  readonly from?: string[];
  readonly strategy?: 'All' | 'OneOf';
  /** requiredSoakTime */
  readonly soak?: string;
  /** the library's soak annotation (waited in the upstreams' verification) */
  readonly asks?: string;
  readonly auto?: boolean;
  readonly controlFlow?: boolean;
  /** AnalysisTemplates of the Stage's verification */
  readonly checks?: string[];
  /** the `if` of a deploy freeze's fail step before its other steps */
  readonly freezeIf?: string;
}

function stage(s: StageShape): any {
  return {
    apiVersion: 'kargo.akuity.io/v1alpha1',
    kind: 'Stage',
    metadata: { name: s.name, namespace: NS, ...s.asks ? { annotations: { 'gitops-platform.io/soak': s.asks } } : {} },
    spec: {
      requestedFreight: [{
        origin: { kind: 'Warehouse', name: NS },
        sources: s.from === undefined ? { direct: true }
          : { stages: s.from, ...s.strategy ? { availabilityStrategy: s.strategy } : {}, ...s.soak ? { requiredSoakTime: s.soak } : {} },
      }],
      ...s.controlFlow ? {} : { promotionTemplate: { spec: { steps: [...freezeSteps(s), { uses: 'git-clone' }] } } },
      ...s.checks ? { verification: { analysisTemplates: s.checks.map(name => ({ kind: 'AnalysisTemplate', name })) } } : {},
    },
  };
}

function freezeSteps(s: StageShape): any[] {
  return s.freezeIf === undefined ? [] : [{ as: 'freeze-1', uses: 'fail', if: s.freezeIf, config: { message: `deploy freeze of stage ${s.name}` } }];
}

function template(name: string, metrics: any[]): any {
  return { apiVersion: 'argoproj.io/v1alpha1', kind: 'AnalysisTemplate', metadata: { name, namespace: NS }, spec: { metrics } };
}

/** The soak metric the library writes: a dry-run job metric that starts `delay` after the run. */
const soakTemplate = (upstream: string, delay: string) =>
  template(`${upstream}-soak`, [{ name: 'soak', initialDelay: delay, count: 1, provider: { job: {} } }]);

function project(stages: StageShape[], extra: any[] = []): any[] {
  const auto = stages.filter(s => s.auto && !s.controlFlow).map(s => ({ stageSelector: { name: s.name }, autoPromotionEnabled: true }));
  return [
    { apiVersion: 'kargo.akuity.io/v1alpha1', kind: 'Warehouse', metadata: { name: NS, namespace: NS }, spec: {} },
    { apiVersion: 'kargo.akuity.io/v1alpha1', kind: 'ProjectConfig', metadata: { name: NS, namespace: NS }, spec: { promotionPolicies: auto } },
    ...stages.map(stage),
    ...extra,
  ];
}

const codesByStage = (objects: any[]) => simulateRelease(objects).findings.map(f => [f.name, f.code]);
const reached = (objects: any[], name: string) => simulateRelease(objects).stages.get(`${NS}/${name}`)?.reached;

describe('timeline model: the shapes Kargo v1.11.2 cannot move a release through', () => {
  test('an All join with requiredSoakTime three stages deep never lists the Freight (ListFreightFromWarehouse)', () => {
    const objects = project([
      { name: 'dev', auto: true },
      { name: 'staging', from: ['dev'], auto: true },
      { name: 'prod-w1', from: ['staging'], soak: '1h', auto: true },
      { name: 'prod-w1-own', from: ['staging'], soak: '1h', auto: true },
      { name: 'prod-w2', from: ['prod-w1', 'prod-w1-own'], strategy: 'All', soak: '1h', auto: true },
    ]);
    const { findings, stages } = simulateRelease(objects);
    expect(findings.map(f => [f.name, f.code])).toEqual([['prod-w2', 'freight-never-available']]);
    expect(findings[0].message).toMatch(/availabilityStrategy All with requiredSoakTime lists Freight only if the Stages it has soaked in EQUAL the upstreams/);
    // the first wave waits its soak: the Promotion webhook judges the upstream's own soak
    expect(stages.get(`${NS}/prod-w1`)!.reached).toBeGreaterThanOrEqual(HOUR);
  });

  test('a control-flow gate with a soak stalls: reconciled on the upstream\'s verification only, before the soak is over', () => {
    const objects = project([
      { name: 'dev', auto: true },
      { name: 'ab-a', from: ['dev'], auto: true },
      { name: 'ab-b', from: ['dev'], auto: true },
      { name: 'gate', from: ['ab-a', 'ab-b'], strategy: 'OneOf', soak: '1h', controlFlow: true },
      { name: 'prod', from: ['gate'] },
    ]);
    const { findings } = simulateRelease(objects);
    expect(findings.map(f => [f.name, f.code])).toEqual([['gate', 'freight-never-available'], ['prod', 'freight-never-available']]);
    expect(findings[0].message).toMatch(/reconciled only when Freight is newly verified upstream, never on a timer/);
    expect(findings[1].message).toMatch(/its upstream "gate" never verifies it/);
  });

  test('a gate that hears a second verification passes the Freight on late', () => {
    // ab-b verifies 3 hours in: the gate reconciles then and finds ab-a's Freight soaked long ago
    const objects = project([
      { name: 'dev', auto: true },
      { name: 'ab-a', from: ['dev'], auto: true },
      { name: 'ab-b', from: ['dev'], auto: true, checks: ['slow'] },
      { name: 'gate', from: ['ab-a', 'ab-b'], strategy: 'OneOf', soak: '1h', controlFlow: true },
    ], [template('slow', [{ name: 'slow', initialDelay: '3h', provider: { web: {} } }])]);
    const { findings } = simulateRelease(objects);
    expect(findings.map(f => [f.name, f.code])).toEqual([['gate', 'freight-late']]);
    expect(findings[0].message).toMatch(/reaches Stage "gate" after 3\.\d+h, though its upstreams' checks and its soak allow 1\.\d+h/);
  });

  test('a soak right after a control-flow Stage is never met: Freight never soaks there (GetLongestSoak)', () => {
    const objects = project([
      { name: 'dev', auto: true },
      { name: 'gate', from: ['dev'], controlFlow: true },
      { name: 'prod', from: ['gate'], soak: '1h', auto: true },
    ]);
    const { findings } = simulateRelease(objects);
    expect(findings.map(f => [f.name, f.code])).toEqual([['prod', 'freight-never-available']]);
    expect(findings[0].message).toMatch(/soak in a control-flow Stage, where Freight is never current/);
  });

  test('a soak announced but waited nowhere lets the release through early', () => {
    const objects = project([{ name: 'dev', auto: true }, { name: 'prod', from: ['dev'], asks: '1h', auto: true }]);
    expect(codesByStage(objects)).toEqual([['prod', 'soak-not-enforced']]);
  });

  test('verification takes initialDelay + (count - 1) x interval; a metric with an interval and no count never ends', () => {
    const timed = project([{ name: 'dev', auto: true, checks: ['probe'] }, { name: 'prod', from: ['dev'], auto: true }],
      [template('probe', [{ name: 'p', initialDelay: '2m', count: 3, interval: '5m', provider: { web: {} } }])]);
    const run = simulateRelease(timed).stages;
    expect(run.get(`${NS}/dev`)!.verified! - run.get(`${NS}/dev`)!.reached!).toBe(12 * 60);
    const endless = project([{ name: 'dev', auto: true, checks: ['probe'] }, { name: 'prod', from: ['dev'], auto: true }],
      [template('probe', [{ name: 'p', interval: '5m', provider: { web: {} } }])]);
    expect(codesByStage(endless)).toEqual([['prod', 'freight-never-available']]);
  });

  test('an approval lets Freight into an All join at once, soak or not: it wakes the auto-promoting Stage', () => {
    const stages: StageShape[] = [
      { name: 'dev', auto: true },
      { name: 'a', from: ['dev'], auto: true },
      { name: 'b', from: ['dev'], auto: true },
      { name: 'join', from: ['a', 'b'], strategy: 'All', soak: '1h', auto: true },
    ];
    expect(reached(project(stages), 'join')).toBeUndefined();
    const approved = simulateRelease(project(stages), { approvals: [{ stage: 'join', at: 2 * HOUR }] });
    expect(approved.stages.get(`${NS}/join`)!.reached).toBe(2 * HOUR + 60);
  });
});

describe('timeline model: the soak waited in the upstreams\' verification', () => {
  test('the All join three stages deep delivers once both parts of the first wave have soaked', () => {
    const objects = project([
      { name: 'dev', auto: true },
      { name: 'staging', from: ['dev'], auto: true, checks: ['staging-soak'] },
      { name: 'prod-w1', from: ['staging'], asks: '1h', auto: true, checks: ['prod-w1-soak'] },
      { name: 'prod-w1-own', from: ['staging'], asks: '1h', auto: true, checks: ['prod-w1-own-soak'] },
      { name: 'prod-w2', from: ['prod-w1', 'prod-w1-own'], strategy: 'All', asks: '1h', auto: true },
    ], [soakTemplate('staging', '1h'), soakTemplate('prod-w1', '1h'), soakTemplate('prod-w1-own', '1h')]);
    const { findings, stages } = simulateRelease(objects);
    expect(findings).toEqual([]);
    // two soaks of an hour, each after a promotion of a minute and at most one 5-minute requeue
    const w2 = stages.get(`${NS}/prod-w2`)!.reached!;
    expect(w2).toBeGreaterThanOrEqual(2 * HOUR);
    expect(w2).toBeLessThanOrEqual(2 * HOUR + 3 * (60 + 300 + 60));
  });

  test('a gate whose soak is waited in both variants passes the Freight on as soon as one of them verifies it', () => {
    const objects = project([
      { name: 'dev', auto: true },
      { name: 'ab-a', from: ['dev'], auto: true, checks: ['ab-a-soak'] },
      { name: 'ab-b', from: ['dev'], auto: true, checks: ['ab-b-soak'] },
      { name: 'gate', from: ['ab-a', 'ab-b'], strategy: 'OneOf', asks: '1h', controlFlow: true },
      { name: 'prod', from: ['gate'] },
    ], [soakTemplate('ab-a', '1h'), soakTemplate('ab-b', '1h')]);
    const { findings, stages } = simulateRelease(objects);
    expect(findings).toEqual([]);
    const gate = stages.get(`${NS}/gate`)!.reached!;
    expect(gate).toBe(stages.get(`${NS}/ab-a`)!.verified);
    // a person promotes prod as soon as the gate lists the Freight
    expect(stages.get(`${NS}/prod`)!.reached).toBe(gate + 60);
  });
});

describe('timeline model on the example apps: a release reaches every production cluster within the plan', () => {
  const app = Testing.app();
  const examples = defineExamples(app);
  const objects = app.charts.flatMap(chart => chart.toJson());
  const timeline = simulateRelease(objects);

  test('no Stage is never reached, reached late or reached before its soak', () => {
    expect(timeline.findings).toEqual([]);
  });

  test.each(['checkout-api', 'storefront', 'inference-gateway', 'telemetry-agent'])('%s: every production wave (so every production cluster) no sooner than its soaks, no later than a quarter hour per hop more', (name) => {
    const plan = examples.apps.find(a => a.plan.app === name)!.plan;
    const waves = plan.stages.flatMap(s => s.waves);
    const depth = new Map<string, number>();
    for (const w of waves) depth.set(w.kargoStage, 1 + Math.max(0, ...w.upstreams.map(u => depth.get(u) ?? 0)));
    const production = plan.stages.filter(s => s.production).flatMap(s => s.waves);
    expect(production.length).toBeGreaterThan(0);
    for (const w of production) {
      const at = timeline.stages.get(`${plan.project}/${w.kargoStage}`)?.reached;
      expect(at, w.kargoStage).toBeDefined();
      expect(at!, w.kargoStage).toBeGreaterThanOrEqual(w.earliestSeconds);
      expect(at!, w.kargoStage).toBeLessThanOrEqual(w.earliestSeconds + depth.get(w.kargoStage)! * 15 * 60);
    }
  });
});

describe('timeline model: a promotion whose fail step fails (a deploy freeze, as timeline.go runs it)', () => {
  const frozen = (freezeIf: string) => project([{ name: 'dev', auto: true }, { name: 'prod', from: ['dev'], auto: true, freezeIf }]);

  test('a freeze that never closes holds the release for good: Kargo does not promote it again, a person tries in vain', () => {
    const { findings, stages } = simulateRelease(frozen('${{ true }}'));
    expect(stages.get(`${NS}/prod`)?.reached).toBeUndefined();
    expect(findings.map(f => [f.name, f.code])).toEqual([['prod', 'freight-never-available']]);
    expect(findings[0].message).toContain('fails: step "freeze-1" (fail) Failed: failed: deploy freeze of stage prod');
  });

  test('a fail step with continueOnError does not fail the promotion (the Promotion still succeeds)', () => {
    const objects = frozen('${{ true }}');
    objects.find(o => o.kind === 'Stage' && o.metadata.name === 'prod').spec.promotionTemplate.spec.steps[0].continueOnError = true;
    expect(reached(objects, 'prod')).toBeLessThan(HOUR);
    expect(codesByStage(objects)).toEqual([]);
  });

  /** A freeze open until two hours after the model's clock, written the way the library writes times. */
  const twoHoursIn = () => {
    const ends = new Date(MODEL_CLOCK.getTime() + 2 * HOUR * 1000);
    const wall = ends.toISOString().slice(0, 19).replace('T', ' ');
    return { ends, freezeIf: `\${{ now() < date('${wall}', '2006-01-02 15:04:05') }}` };
  };

  test('a freeze open for the first two hours holds the release until a person promotes it after the freeze ends', () => {
    const objects = frozen(twoHoursIn().freezeIf);
    const at = reached(objects, 'prod')!;
    expect(at).toBeGreaterThanOrEqual(2 * HOUR);
    expect(at).toBeLessThan(3.5 * HOUR);
    expect(reached(objects, 'dev')).toBeLessThan(HOUR);
    expect(codesByStage(objects)).toEqual([]);
  });

  test("the clock starts at the options' now", () => {
    const { ends, freezeIf } = twoHoursIn();
    expect(simulateRelease(frozen(freezeIf), { now: ends }).stages.get(`${NS}/prod`)?.reached).toBeLessThan(HOUR);
  });
});
