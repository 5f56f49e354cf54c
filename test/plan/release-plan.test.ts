import { describe, expect, test } from 'vitest';
import {
  applicationsByCluster, hasOwnNamespace, StagePlan, stageApplicationName,
} from '../../src/plan/release-plan';

const plan = { app: 'api', destinationNamespace: 'api' };
/** A stage of the plan with one wave on `clusters`: only what the functions read. */
const stage = (name: string, namespace: string, clusters: string[]): StagePlan => {
  const applications = clusters.map(c => stageApplicationName(plan, { name, namespace }, c));
  return { name, namespace, waves: [{ clusters, applications }] } as unknown as StagePlan;
};

describe('ReleasePlan', () => {
  test('a stage in the app\'s namespace keeps the Application names it always had; one with its own namespace names its stage', () => {
    expect(hasOwnNamespace(plan, { namespace: 'api' })).toBe(false);
    expect(stageApplicationName(plan, { name: 'prod', namespace: 'api' }, 'c1')).toBe('api-c1');
    expect(hasOwnNamespace(plan, { namespace: 'api-uat' })).toBe(true);
    expect(stageApplicationName(plan, { name: 'uat', namespace: 'api-uat' }, 'c1')).toBe('api-uat-c1');
  });

  test('applicationsByCluster lists each cluster\'s Applications in plan order, one per stage sharing it', () => {
    const stages = [stage('test', 'api-test', ['c1', 'c2']), stage('uat', 'api-uat', ['c1']), stage('prod', 'api', ['c3'])];
    const byCluster = applicationsByCluster(stages);
    expect([...byCluster].map(([c, apps]) => [c, apps.map(a => `${a.stage.name}:${a.application}`)])).toEqual([
      ['c1', ['test:api-test-c1', 'uat:api-uat-c1']],
      ['c2', ['test:api-test-c2']],
      ['c3', ['prod:api-c3']],
    ]);
  });
});
