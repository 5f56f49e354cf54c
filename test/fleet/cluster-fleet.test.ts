import { Testing } from 'cdk8s';
import { describe, expect, test } from 'vitest';
import { ClusterAuth, ClusterFleet, ClusterOptions, CloudProvider, PlatformLabels, Tier } from '../../src';
import { HostLanguage } from '../../src/util/host-language';
import { errorOf, SMALL_FLEET, TEST_CA } from '../support/fixtures';
import { base, fleetOf } from '../support/one-cluster';

describe('ClusterFleet', () => {
  test('snapshot', () => {
    expect(fleetOf(...SMALL_FLEET).objects).toMatchSnapshot();
  });

  test('one declarative cluster Secret per cluster, in the Argo CD namespace, with attribute labels', () => {
    const { objects } = fleetOf(...SMALL_FLEET);
    expect(objects).toHaveLength(SMALL_FLEET.length);
    const secret = objects.find(o => o.metadata.name === 'cluster-gcp-prod-h100-1');
    expect(secret).toMatchObject({
      apiVersion: 'v1',
      kind: 'Secret',
      type: 'Opaque',
      metadata: {
        namespace: 'argocd',
        labels: {
          'argocd.argoproj.io/secret-type': 'cluster',
          [PlatformLabels.CLUSTER]: 'gcp-prod-h100-1',
          [PlatformLabels.FLEET]: 'fleet',
          [PlatformLabels.PROVIDER]: 'gcp',
          [PlatformLabels.REGION]: 'us-central1',
          [PlatformLabels.TIER]: 'prod',
          [PlatformLabels.ACCELERATOR]: 'nvidia-h100',
          [PlatformLabels.ACCELERATOR_COUNT]: '64',
          [PlatformLabels.KUBERNETES_VERSION]: '1.31',
          'ring': 'canary',
        },
        // before the ApplicationSets (wave 0) whose clusters generators select it
        annotations: { 'argocd.argoproj.io/sync-wave': '-1' },
      },
      stringData: { name: 'gcp-prod-h100-1', server: 'https://10.0.0.7' },
    });
    expect(JSON.parse(secret.stringData.config)).toEqual({
      execProviderConfig: { command: 'argocd-k8s-auth', args: ['gcp'], apiVersion: 'client.authentication.k8s.io/v1beta1' },
      tlsClientConfig: { insecure: false, caData: TEST_CA },
    });
  });

  test('clusters are listed by name, whatever the order they were added in', () => {
    const { fleet } = fleetOf({ ...base, name: 'b', server: 'https://b.example.com' }, { ...base, name: 'a', server: 'https://a.example.com' });
    expect(fleet.clusters.map(c => c.name)).toEqual(['a', 'b']);
  });

  test('fails if two clusters share a name', () => {
    expect(() => fleetOf(base, { ...base, server: 'https://other.example.com' })).toThrow(/ClusterFleet 'fleet': clusters must have unique names, got \["c1"\]/);
  });

  test('fails if two clusters share a server', () => {
    expect(() => fleetOf(base, { ...base, name: 'c2' })).toThrow(/cluster "c2" server is already used by cluster "c1"/);
  });

  test('fails if two clusters share a server spelled differently (host case, default port), as the Terraform reader does', () => {
    const server = new URL(base.server);
    const respelled = `${server.protocol}//${server.hostname.toUpperCase()}:443${server.pathname}`;
    expect(() => fleetOf(base, { ...base, name: 'c2', server: respelled })).toThrow(/cluster "c2" server is already used by cluster "c1"/);
  });

  test('reports the problems of every cluster at once: three clusters lacking auth are three problems of one run', () => {
    const noAuth = (name: string) => ({ ...base, name, server: `https://${name}.example.com`, provider: CloudProvider.ON_PREM, auth: undefined });
    const message = errorOf(() => fleetOf(noAuth('c1'), { ...noAuth('c2'), region: '' }, noAuth('c3')));
    expect(message).toMatch(/^ClusterFleet 'fleet': 3 problems\n {2}- cluster "c1": auth is required for provider "on-prem"/);
    expect(message).toMatch(/\n {2}- cluster "c2": 2 problems\n {4}- region must not be empty[^\n]*\n {4}- auth is required/);
    expect(message).toMatch(/\n {2}- cluster "c3": auth is required/);
  });

  test('fails if the Argo CD namespace is invalid', () => {
    expect(() => new ClusterFleet(Testing.app(), 'fleet', { argoCdNamespace: 'Argo CD' })).toThrow(/argoCdNamespace must consist of lowercase/);
  });
});

// A Python, Java, Go or .NET program runs the same code in Node (jsii): the message names the
// fields and the calls the way that program writes them. The language is set for the call
// (HostLanguage.using), as JSII_AGENT would set it, without touching the process's environment.
describe('ClusterFleet messages in the user\'s language', () => {
  const message = (language: HostLanguage, change: Partial<ClusterOptions>) => {
    try {
      HostLanguage.using(language, () => fleetOf({ ...base, ...change }));
    } catch (e) {
      return (e as Error).message;
    }
    return 'no error';
  };
  const SUBJECT = 'ClusterFleet \'fleet\': cluster "c1": ';

  test.each([
    [HostLanguage.TYPESCRIPT, "auth is required for provider \"aws\" with the central Argo CD, got nothing; use ClusterAuth.eks({ clusterName: '<EKS cluster name>' }, { caData: '<base64 PEM of the cluster CA>' })"],
    [HostLanguage.PYTHON, 'auth is required for provider "aws" with the central Argo CD, got nothing; use ClusterAuth.eks(EksAuthOptions(cluster_name="<EKS cluster name>"), ca_data="<base64 PEM of the cluster CA>")'],
    [HostLanguage.JAVA, 'auth is required for provider "aws" with the central Argo CD, got nothing; use ClusterAuth.eks(EksAuthOptions.builder().clusterName("<EKS cluster name>").build(), ClusterTlsOptions.builder().caData("<base64 PEM of the cluster CA>").build())'],
    [HostLanguage.GO, 'Auth is required for provider "aws" with the central Argo CD, got nothing; use ClusterAuth_Eks(&EksAuthOptions{ClusterName: jsii.String("<EKS cluster name>")}, &ClusterTlsOptions{CaData: jsii.String("<base64 PEM of the cluster CA>")})'],
    [HostLanguage.DOTNET, 'Auth is required for provider "aws" with the central Argo CD, got nothing; use ClusterAuth.Eks(new EksAuthOptions { ClusterName = "<EKS cluster name>" }, new ClusterTlsOptions { CaData = "<base64 PEM of the cluster CA>" })'],
  ])('fails if an AWS cluster has no auth, in %s', (language, expected) => {
    expect(message(language, { auth: undefined })).toBe(SUBJECT + expected);
  });

  test('fails if a cluster has no CA or a malformed version, naming the fields as Python does', () => {
    expect(message(HostLanguage.PYTHON, { provider: CloudProvider.GCP, auth: ClusterAuth.gke() })).toBe(`${SUBJECT}auth ca_data is required for provider "gcp" `
      + 'with the central Argo CD: its API server\'s certificate is signed by the cluster\'s own CA, got nothing; use ClusterAuth.gke(ca_data="<base64 PEM of the cluster CA>")');
    expect(message(HostLanguage.PYTHON, { kubernetesVersion: 'latest' })).toMatch(/^ClusterFleet 'fleet': cluster "c1": kubernetes_version must look like "1.31"/);
    // a value object words its problems when it is made: in a Go program it is made in Go
    const { GO, PYTHON } = HostLanguage;
    expect(HostLanguage.using(GO, () => message(GO, { auth: ClusterAuth.eks({ clusterName: '' }, { caData: TEST_CA }) }))).toMatch(/Auth: eks ClusterName is required, got ""/);
    expect(HostLanguage.using(PYTHON, () => message(PYTHON, { auth: ClusterAuth.gke({ caData: '-----BEGIN CERTIFICATE-----' }) })))
      .toMatch(/auth: ca_data must be base64-encoded, but is a raw PEM, got "-----BEGIN CERTIFICATE-----"; base64-encode the PEM, e.g. base64.b64encode\(pem.encode\(\)\).decode\(\)$/);
  });

  test('fails if the tier is not a Tier, with the tiers as a Go program names them', () => {
    expect(message(HostLanguage.GO, { tier: 'prod' as unknown as Tier })).toMatch(/Tier must be a Tier, got "prod"; use Tier_DEV\(\), Tier_STAGING\(\), Tier_PROD\(\) or Tier_Of\(\)/);
  });
});
