import { describe, expect, test } from 'vitest';
import { JoinKind } from '../../src/pipeline/join';
import { StagePlan, WavePlan } from '../../src/plan/release-plan';
import { placeSoaks } from '../../src/plan/soak-plan';
import { ProblemList } from '../../src/util/errors';

/** A stage of one wave per Kargo Stage: only what placeSoaks reads. */
const stage = (name: string, waves: Array<Partial<WavePlan> & { kargoStage: string }>): StagePlan =>
  ({ name, waves: waves.map(w => ({ upstreams: [], earliestSeconds: 0, ...w })) }) as unknown as StagePlan;

const place = (stages: StagePlan[]) => {
  const problems = new ProblemList('plan');
  const placed = placeSoaks(problems, stages);
  return { placed, waves: placed.flatMap(s => s.waves), problems };
};

describe('placeSoaks', () => {
  test('a soak is waited in the upstreams\' verification; Freight reaches each Stage after the soaks on its way', () => {
    const { waves, problems } = place([
      stage('dev', [{ kargoStage: 'dev' }]),
      stage('staging', [{ kargoStage: 'staging', upstreams: ['dev'], soak: '30m' }]),
      stage('prod', [
        { kargoStage: 'prod-canary', upstreams: ['staging'], soak: '1h' },
        { kargoStage: 'prod-broad', upstreams: ['prod-canary'], soak: '1h' },
      ]),
    ]);
    expect(problems.size).toBe(0);
    expect(waves.map(w => [w.kargoStage, w.verificationSoak, w.earliestSeconds])).toEqual([
      ['dev', '30m', 0],
      ['staging', '1h', 1800],
      ['prod-canary', '1h', 5400],
      ['prod-broad', undefined, 9000],
    ]);
  });

  test('a join waits for its slowest upstream, an any-of join for its fastest; a control-flow Stage verifies nothing', () => {
    const { waves } = place([
      stage('a', [{ kargoStage: 'a', soak: '1h', upstreams: [] }]),
      stage('b', [{ kargoStage: 'b', soak: '2h', upstreams: [] }]),
      stage('all', [{ kargoStage: 'all', upstreams: ['a', 'b'] }]),
      stage('gate', [{ kargoStage: 'gate', upstreams: ['a', 'b'], join: JoinKind.ANY_OF, controlFlow: true, soak: undefined }]),
      stage('eu', [{ kargoStage: 'eu', upstreams: ['gate'] }]),
    ]);
    const at = new Map(waves.map(w => [w.kargoStage, w]));
    expect(at.get('all')!.earliestSeconds).toBe(7200);
    expect(at.get('gate')!.earliestSeconds).toBe(3600);
    expect(at.get('gate')!.verificationSoak).toBeUndefined();
  });

  test('reports the soak rules on the Kargo Stages of a plan built from another IPromotionPipeline', () => {
    const { problems } = place([
      stage('gate', [{ kargoStage: 'gate', controlFlow: true }]),
      stage('prod', [{ kargoStage: 'prod-a', upstreams: ['gate'], soak: '1h' }, { kargoStage: 'prod-b', upstreams: ['gate'] }]),
    ]);
    expect(() => problems.throwIfAny()).toThrow([
      'plan: 2 problems',
      '  - Kargo Stage "prod-a" soak follows control-flow stage "gate", where Freight never soaks (Kargo v1.11.2 counts no soak time in a Stage '
        + 'without promotion steps), got "1h"; move the soak to stage "gate": it is then waited in the checks of the stages before it',
      '  - Kargo Stage "prod-b" soak differs from the soak of stage "prod-a" (1h), which also follows stage "gate"; the soak is waited in the '
        + 'checks of stage "gate", once for every stage after it, got "no soak"; give every stage after "gate" the same soak',
    ].join('\n'));
  });
});
