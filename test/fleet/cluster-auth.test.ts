import { describe, expect, test } from 'vitest';
import { ClusterAuth, CloudProvider } from '../../src';
import { managedAuth } from '../support/fixtures';
import { base, fleetOf } from '../support/one-cluster';

describe('ClusterAuth', () => {
  test('the central Argo CD needs auth and the CA of every managed cluster, and the EKS name', () => {
    const { objects } = fleetOf(
      base,
      { ...base, name: 'c2', server: 'https://c2.example.com', provider: CloudProvider.AZURE, auth: managedAuth(CloudProvider.AZURE, 'c2') },
    );
    // the name AWS knows the cluster by, never the fleet's name
    expect(JSON.parse(objects[0].stringData.config).awsAuthConfig).toEqual({ clusterName: 'eks-c1' });
    expect(JSON.parse(objects[1].stringData.config).execProviderConfig).toEqual({
      command: 'argocd-k8s-auth', args: ['azure'], env: { AAD_LOGIN_METHOD: 'workloadidentity' }, apiVersion: 'client.authentication.k8s.io/v1beta1',
    });
  });

  test('explicit authentication: EKS role, exec plugin, CA data', () => {
    const { objects } = fleetOf(
      { ...base, auth: ClusterAuth.eks({ clusterName: 'prod-eks', roleArn: 'arn:aws:iam::123456789012:role/argocd' }, { caData: 'TFMwdExTMUNSVWRKVGlCRFJWSlVTVVpKUTBGVVJTMHRMUzB0' }) },
      { ...base, name: 'c2', server: 'https://c2.example.com', provider: CloudProvider.ON_PREM, auth: ClusterAuth.exec({ command: 'kubelogin', args: ['get-token'], env: { OIDC_ISSUER: 'https://sso.example.com' } }) },
    );
    expect(JSON.parse(objects[0].stringData.config)).toEqual({
      awsAuthConfig: { clusterName: 'prod-eks', roleARN: 'arn:aws:iam::123456789012:role/argocd' },
      tlsClientConfig: { insecure: false, caData: 'TFMwdExTMUNSVWRKVGlCRFJWSlVTVVpKUTBGVVJTMHRMUzB0' },
    });
    expect(JSON.parse(objects[1].stringData.config).execProviderConfig).toEqual({
      command: 'kubelogin', args: ['get-token'], env: { OIDC_ISSUER: 'https://sso.example.com' }, apiVersion: 'client.authentication.k8s.io/v1beta1',
    });
  });
});
