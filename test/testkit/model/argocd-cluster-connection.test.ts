import { describe, expect, test } from 'vitest';
import { simulateControllers } from '../../../src/testkit';
import { CLUSTERS, only } from '../../support/controller-model';
import { CA, clusterSecret, directStage, eksSecret, world } from '../../support/testkit-model-fixtures';

describe("controller model: Argo CD's cluster connection", () => {
  test('fails if an EKS, GKE or AKS cluster Secret has no caData', () => {
    const secrets = [
      eksSecret('east', { insecure: false }),
      clusterSecret('west', { execProviderConfig: { command: 'argocd-k8s-auth', args: ['gcp'] }, tlsClientConfig: { insecure: false } }, 'https://34.1.2.3'),
      clusterSecret('aks', { execProviderConfig: { command: 'argocd-k8s-auth', args: ['azure'] }, tlsClientConfig: {} }, 'https://aks-1.hcp.eastus.azmk8s.io'),
      clusterSecret('public', { bearerToken: 'x', tlsClientConfig: { insecure: false } }, 'https://k8s.example.com'),
    ];
    const findings = simulateControllers(world([directStage('dev', CLUSTERS)], { secrets }));
    expect(only(findings, 'cluster-ca-missing').map((l) => l.split(':')[0])).toEqual([
      'cluster-ca-missing Secret/cluster-aks /stringData/config/tlsClientConfig/caData',
      'cluster-ca-missing Secret/cluster-east /stringData/config/tlsClientConfig/caData',
      'cluster-ca-missing Secret/cluster-west /stringData/config/tlsClientConfig/caData',
    ]);
    expect(only(findings, 'cluster-ca-missing')[1]).toContain('fails every request with "x509: certificate signed by unknown authority"');
  });

  test('fails if the EKS clusterName is missing, or differs from the real name when it is known', () => {
    const secrets = [clusterSecret('east', { awsAuthConfig: {}, tlsClientConfig: { caData: CA } }), eksSecret('west')];
    const findings = simulateControllers(world([directStage('dev', CLUSTERS)], { secrets }), { eksClusterNames: { west: 'prod-west-eks' } });
    expect(only(findings, 'eks-cluster-name-missing')).toHaveLength(1);
    expect(only(findings, 'eks-cluster-name-mismatch')).toEqual([
      'eks-cluster-name-mismatch Secret/cluster-west /stringData/config/awsAuthConfig/clusterName: awsAuthConfig.clusterName "west" is not the EKS cluster\'s name "prod-west-eks": the token is minted for another cluster and every request is Unauthorized',
    ]);
  });
});
