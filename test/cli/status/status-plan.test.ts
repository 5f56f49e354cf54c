import { describe, expect, test } from 'vitest';
import { PlatformLabels } from '../../../src';
import { releasesOf } from '../../../src/cli/status/fleet-status';
import { loadStatusPlan } from '../../../src/cli/status/status-plan';
import { MANIFESTS } from '../../support/cli-fixtures';

describe('the plan status reads from a synthesized directory', () => {
  const plan = loadStatusPlan(MANIFESTS);
  const checkout = plan.apps.find((a) => a.name === 'checkout-api')!;

  test('every cluster of every wave with its Kargo Stage, branch, folder and Application, in promotion order', () => {
    expect(checkout.stages.map((s) => `${s.name}: ${s.waves.map((w) => w.name).join(', ')}`)).toEqual(['dev: dev', 'staging: staging', 'prod: prod-w1, prod-w2, prod-w3, prod-w4']);
    expect(releasesOf(checkout).find((r) => r.cluster === 'aws-apne1-cpu-prod-01')).toEqual({
      cluster: 'aws-apne1-cpu-prod-01',
      kargoStage: 'prod-w1-aws-apne1-cpu-prod-01',
      repoUrl: 'https://github.com/acme/releases.git',
      branch: 'rendered/checkout-api/prod-w1-aws-apne1-cpu-prod-01',
      path: 'aws-apne1-cpu-prod-01',
      application: 'checkout-api-aws-apne1-cpu-prod-01',
      applicationNamespace: 'argocd',
      ownArgoCd: true,
    });
    expect(plan.artifacts.get('checkout-api')!.map((a) => `${a.kind} ${a.repoUrl}`)).toEqual(['image registry.acme.example/commerce/checkout-api', 'git https://github.com/acme/checkout.git']);
  });

  test('a cluster with its own Argo CD (no cluster Secret on the hub) has the attributes its render is given, as labels', () => {
    expect(plan.clusterLabels.get('aws-apne1-cpu-prod-01')).toEqual({
      [PlatformLabels.CLUSTER]: 'aws-apne1-cpu-prod-01',
      [PlatformLabels.REGION]: 'ap-northeast-1',
      [PlatformLabels.PROVIDER]: 'aws',
      [PlatformLabels.ACCELERATOR]: 'none',
      [PlatformLabels.TIER]: 'prod',
    });
    expect(plan.clusterLabels.get('gcp-asse1-cpu-prod-01')?.[PlatformLabels.TIER]).toBe('prod');
  });
});
