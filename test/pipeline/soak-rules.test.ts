import { describe, expect, test } from 'vitest';
import { soakProblems, SoakNode } from '../../src/pipeline/soak-rules';

const soakOf = (node: SoakNode) => `stage ${JSON.stringify(node.name)} soak`;

describe('soakProblems', () => {
  test('a soak after a stage that runs checks, and the same soak for every stage after one upstream, are fine', () => {
    expect(soakProblems([
      { name: 'staging', upstreams: [] },
      { name: 'prod-a', soak: '1h', upstreams: ['staging'] },
      { name: 'prod-b', soak: '1h', upstreams: ['staging'] },
      { name: 'gate', upstreams: ['prod-a', 'prod-b'], controlFlow: true },
      { name: 'eu', upstreams: ['gate'] },
    ], soakOf)).toEqual([]);
  });

  test('reports a soak right after a control-flow stage, where Freight never soaks', () => {
    expect(soakProblems([
      { name: 'gate', upstreams: [], controlFlow: true },
      { name: 'prod', soak: '30m', upstreams: ['gate'] },
    ], soakOf)).toEqual(['stage "prod" soak follows control-flow stage "gate", where Freight never soaks (Kargo v1.11.2 counts no soak time in a Stage '
      + 'without promotion steps), got "30m"; move the soak to stage "gate": it is then waited in the checks of the stages before it']);
  });

  test('reports every stage after one upstream whose soak differs from the first one\'s, on the later stage', () => {
    expect(soakProblems([
      { name: 'staging', upstreams: [] },
      { name: 'prod', soak: '1h', upstreams: ['staging'] },
      { name: 'perf', upstreams: ['staging'] },
      { name: 'load', soak: '2h', upstreams: ['staging'] },
    ], soakOf)).toEqual([
      'stage "perf" soak differs from the soak of stage "prod" (1h), which also follows stage "staging"; the soak is waited in the checks of '
        + 'stage "staging", once for every stage after it, got "no soak"; give every stage after "staging" the same soak',
      'stage "load" soak differs from the soak of stage "prod" (1h), which also follows stage "staging"; the soak is waited in the checks of '
        + 'stage "staging", once for every stage after it, got "2h"; give every stage after "staging" the same soak',
    ]);
  });

  test('skips an upstream it was not given (a refused stage has problems of its own)', () => {
    expect(soakProblems([{ name: 'prod', soak: '1h', upstreams: ['gate'] }], soakOf)).toEqual([]);
  });
});
