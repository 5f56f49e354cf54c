import { describe, expect, test } from 'vitest';
import { CONTROLLER_FINDING_CODES, controllerFindingUpstream } from '../../../src/testkit';

describe('controller finding codes', () => {
  test('every code says what happens live and names where upstream decides it (repository, file, function)', () => {
    const incomplete = Object.entries(CONTROLLER_FINDING_CODES)
      .filter(([code, live]) => live === '' || !/^(argo-cd|kargo|argo-rollouts|k8s\.io\/\S+) \S+/.test(controllerFindingUpstream(code) ?? ''))
      .map(([code]) => code);
    expect(incomplete).toEqual([]);
  });

  test('a code the model does not report has no upstream', () => {
    expect(controllerFindingUpstream('not-a-model-code')).toBeUndefined();
    expect(controllerFindingUpstream('toString')).toBeUndefined();
  });
});
