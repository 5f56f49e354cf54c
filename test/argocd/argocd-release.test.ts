import { describe, expect, test } from 'vitest';
import { Accelerator, ClusterSelector, PlatformLabels } from '../../src';
import { find, synthApp } from '../support/fixtures';

describe('defineArgoCdRelease', () => {
  test('one generator per wave lists exactly the wave\'s clusters and carries its Stage, branch and authorized stage; the template renders them', () => {
    const { objects } = synthApp();
    const appSet = find(objects, 'ApplicationSet', 'api');
    const selector = (clusters: string[]) => ({ matchExpressions: [{ key: PlatformLabels.CLUSTER, operator: 'In', values: clusters }] });
    const values = (stage: string, kargoStage: string) => ({
      pipelineStage: stage, kargoStage, releaseBranch: `rendered/api/${kargoStage}`, authorizedStage: `api:${kargoStage}`,
    });
    expect(appSet.spec.generators).toEqual([
      { clusters: { selector: selector(['aws-dev-cpu', 'gcp-dev-h100']), values: values('dev', 'dev') } },
      { clusters: { selector: selector(['aws-stg-cpu', 'gcp-stg-h100']), values: values('staging', 'staging') } },
      { clusters: { selector: selector(['aws-prod-cpu-1', 'gcp-prod-h100-1']), values: values('prod', 'prod-canary') } },
      { clusters: { selector: selector(['aws-prod-cpu-2', 'gcp-prod-h100-2']), values: values('prod', 'prod-broad') } },
    ]);
    expect(appSet.spec.template.metadata.annotations['kargo.akuity.io/authorized-stage']).toBe('{{ .values.authorizedStage }}');
    expect(appSet.spec.template.metadata.labels).toEqual({
      [PlatformLabels.APP]: 'api',
      [PlatformLabels.PIPELINE_STAGE]: '{{ .values.pipelineStage }}',
      [PlatformLabels.STAGE]: '{{ .values.kargoStage }}',
      [PlatformLabels.CLUSTER]: '{{ .name }}',
    });
    expect(appSet.spec.template.spec.source).toEqual({ repoURL: 'https://github.com/acme/releases.git', targetRevision: '{{ .values.releaseBranch }}', path: '{{ .name }}' });
    expect(appSet.spec.syncPolicy).toEqual({ preserveResourcesOnDeletion: true });
  });

  test('the AppProject allows only the release repository and the app\'s clusters and namespace', () => {
    const { objects } = synthApp(() => ({ targets: ClusterSelector.accelerator(Accelerator.NVIDIA_H100), namespace: 'payments' }));
    const project = find(objects, 'AppProject', 'api');
    expect(project.spec.sourceRepos).toEqual(['https://github.com/acme/releases.git']);
    expect(project.spec.destinations).toEqual([
      { name: 'gcp-dev-h100', server: 'https://10.0.0.2', namespace: 'payments' },
      { name: 'gcp-prod-h100-1', server: 'https://10.0.0.7', namespace: 'payments' },
      { name: 'gcp-prod-h100-2', server: 'https://10.0.0.8', namespace: 'payments' },
      { name: 'gcp-stg-h100', server: 'https://10.0.0.4', namespace: 'payments' },
    ]);
    // CreateNamespace=true: the project permits exactly the Namespace its Applications create
    expect(project.spec.clusterResourceWhitelist).toEqual([{ group: '', kind: 'Namespace', name: 'payments' }]);
    expect(JSON.stringify(project)).not.toContain('"*"');
  });
});
