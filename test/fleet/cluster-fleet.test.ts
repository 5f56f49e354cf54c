import { Testing } from 'cdk8s';
import { describe, expect, test } from 'vitest';
import { Accelerator, ClusterAuth, ClusterFleet, ClusterOptions, CloudProvider, PlatformLabels, Tier } from '../../src';
import { HostLanguage } from '../../src/util/host-language';
import { errorOf, managedAuth, SMALL_FLEET, TEST_CA } from '../support/fixtures';

const base: ClusterOptions = { name: 'c1', server: 'https://c1.example.com', provider: CloudProvider.AWS, region: 'us-east-1', tier: Tier.DEV, auth: managedAuth(CloudProvider.AWS, 'c1') };

function fleetOf(...clusters: ClusterOptions[]) {
  const app = Testing.app();
  const fleet = new ClusterFleet(app, 'fleet', { clusters });
  return { fleet, objects: Testing.synth(fleet) };
}

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
      },
      stringData: { name: 'gcp-prod-h100-1', server: 'https://10.0.0.7' },
    });
    expect(JSON.parse(secret.stringData.config)).toEqual({
      execProviderConfig: { command: 'argocd-k8s-auth', args: ['gcp'], apiVersion: 'client.authentication.k8s.io/v1beta1' },
      tlsClientConfig: { insecure: false, caData: TEST_CA },
    });
  });

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

  test('clusters are listed by name, whatever the order they were added in', () => {
    const { fleet } = fleetOf({ ...base, name: 'b', server: 'https://b.example.com' }, { ...base, name: 'a', server: 'https://a.example.com' });
    expect(fleet.clusters.map(c => c.name)).toEqual(['a', 'b']);
  });

  test('the kubernetes version is kept as its minor version', () => {
    const { fleet } = fleetOf({ ...base, kubernetesVersion: 'v1.31.4' });
    expect(fleet.clusters[0].kubernetesVersion).toBe('1.31');
  });

  test.each<[string, Partial<ClusterOptions>, RegExp]>([
    ['the name is not a DNS label', { name: 'Prod_Cluster' }, /cluster "Prod_Cluster": name must consist of lowercase/],
    ['the name is longer than 63 characters', { name: 'c'.repeat(64) }, /name must be at most 63 characters/],
    ['the server is not https', { server: 'http://c1.example.com' }, /server must use https, got "http:\/\/c1.example.com"/],
    ['the server is not a URL', { server: 'c1.example.com' }, /server must be a URL/],
    ['the server carries credentials', { server: 'https://user:pw@c1.example.com' }, /server (must not carry credentials|holds secret material \(credentials in a URL\))/],
    ['the provider is unknown', { provider: 'digitalocean' as CloudProvider }, /provider is not a known provider, got "digitalocean"; use one of "aws", "gcp", "azure", "oci", "on-prem"/],
    ['the provider is misspelt', { provider: 'azrue' as CloudProvider }, /provider is not a known provider, got "azrue"; did you mean "azure"\?/],
    ['the accelerator is not a known family', { accelerator: Accelerator.of('nvidia-h10O') },
      /accelerator: name is not a known accelerator family, got "nvidia-h10O"; did you mean "nvidia-h100"\? \(to add a family, declare it with Accelerator.custom\("nvidia-h10O"\)\)/],
    ['the region is empty', { region: '' }, /region must not be empty/],
    ['accelerators are counted on a CPU-only cluster', { acceleratorCount: 8 }, /acceleratorCount counts accelerators but accelerator is "none", got 8; set accelerator/],
    ['the kubernetes version is malformed', { kubernetesVersion: 'latest' }, /kubernetesVersion must look like "1.31"/],
    ['an extra label uses the reserved prefix', { labels: { 'gitops-platform.io/tier': 'x' } }, /reserved prefix gitops-platform.io\//],
    ['an extra label value is invalid', { labels: { ring: 'can ary' } }, /labels\["ring"\] must be empty or consist/],
    ['an on-prem cluster has no auth', { provider: CloudProvider.ON_PREM, auth: undefined }, /auth is required for provider "on-prem" with the central Argo CD, got nothing; use ClusterAuth.exec\(\)/],
    ['an AWS cluster has no auth', { auth: undefined }, /auth is required for provider "aws" with the central Argo CD, got nothing; use ClusterAuth.eks\(\{ clusterName/],
    ['a GKE cluster has no CA', { provider: CloudProvider.GCP, auth: ClusterAuth.gke() }, /auth caData is required for provider "gcp" with the central Argo CD: its API server's certificate is signed by the cluster's own CA, got nothing; use ClusterAuth.gke/],
    ['an on-prem API server at an IP address has no CA', { provider: CloudProvider.ON_PREM, server: 'https://10.0.0.9', auth: ClusterAuth.exec({ command: 'kubelogin' }) },
      /auth caData is required for the API server "https:\/\/10.0.0.9": no publicly trusted certificate names an IP address, so its CA is the cluster's own, got nothing; pass \{ caData \}/],
    ['an EKS cluster has no name', { auth: ClusterAuth.eks({ clusterName: '' }, { caData: TEST_CA }) }, /eks clusterName is required, got ""/],
    ['an exec plugin gets a literal token', { auth: ClusterAuth.exec({ command: 'x', env: { API_TOKEN: 'abc' } }) }, /exec auth env name looks like secret material and has a literal value, got "API_TOKEN"/],
    ['the EKS role is not an ARN', { auth: ClusterAuth.eks({ clusterName: 'c1', roleArn: 'argocd' }, { caData: TEST_CA }) }, /roleArn must be an IAM role ARN/],
    ['caData is not base64', { auth: ClusterAuth.gke({ caData: '-----BEGIN CERTIFICATE-----' }) }, /caData must be base64-encoded, but is a raw PEM, got "-----BEGIN CERTIFICATE-----"; base64-encode the PEM/],
    ['the accelerator name is invalid', { accelerator: Accelerator.custom('NVIDIA H100') }, /accelerator name must be empty or consist/],
    ['the tier name is invalid', { tier: Tier.of('pre prod') }, /tier name must be empty or consist/],
  ])('fails if %s', (_, change, message) => {
    expect(() => fleetOf({ ...base, ...change })).toThrow(message);
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

  test('reports every problem of a cluster at once', () => {
    expect(() => fleetOf({ ...base, server: 'ftp://x', region: '' })).toThrow(/2 problems[\s\S]*server must use https[\s\S]*region must not be empty/);
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
