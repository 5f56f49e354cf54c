import { describe, expect, test } from 'vitest';
import { simulateControllers } from '../../../src/testkit';
import { CLUSTERS, lines, only } from '../../support/controller-model';
import { directStage, helmTask, world } from '../../support/testkit-model-fixtures';

describe('evaluatedConfigProblem', () => {
  test('fails if an evaluated config breaks the step schema: a version that reads as a number', () => {
    const broken = simulateControllers(world([directStage('dev', CLUSTERS, [])], { task: helmTask({ kubeVersion: "${{ '1.31' }}" }) }));
    expect(only(broken, 'step-config-invalid')[0]).toContain(
      'step "render-east::template" (helm-template) Failed: invalid helm-template config: /kubeVersion: 1.31 must be string');
    const quoted = simulateControllers(world([directStage('dev', CLUSTERS, [])], { task: helmTask({ kubeVersion: "${{ quote('1.31') }}" }) }));
    expect(lines(quoted)).toEqual([]);
  });
});
