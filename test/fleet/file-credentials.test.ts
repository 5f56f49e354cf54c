import { execFileSync } from 'child_process';
import { mkdtempSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { Testing } from 'cdk8s';
import { describe, expect, test } from 'vitest';
import { CloudProvider, ClusterAuth, ClusterFleet, Tier } from '../../src';
import { TEST_CA as CA } from '../support/fixtures';

/** Runs an execProviderConfig the way client-go's exec authenticator does, and parses what it prints. */
function runPlugin(exec: { command: string; args: string[]; apiVersion: string }): any {
  const out = execFileSync(exec.command, exec.args, { encoding: 'utf8', env: { PATH: process.env.PATH } });
  const credential = JSON.parse(out);
  expect(credential.apiVersion).toBe(exec.apiVersion);
  expect(credential.kind).toBe('ExecCredential');
  return credential.status;
}

function clusterConfig(auth: ClusterAuth): any {
  const fleet = new ClusterFleet(Testing.app(), 'fleet', {
    clusters: [{ name: 'lab-1', server: 'https://127.0.0.1:6443', provider: CloudProvider.ON_PREM, region: 'lab', tier: Tier.DEV, auth }],
  });
  const secret = Testing.synth(fleet).find(o => o.kind === 'Secret');
  return JSON.parse(secret.stringData.config);
}

describe('credentials in files mounted into Argo CD', () => {
  const dir = mkdtempSync(join(tmpdir(), 'file-credentials-'));

  test('a token file: the cluster Secret holds its path, and the plugin prints the token without its trailing newline', () => {
    const path = join(dir, 'token');
    writeFileSync(path, 'eyJhbGciOiJSUzI1NiJ9.e30.c2lnbmF0dXJl\n');
    const config = clusterConfig(ClusterAuth.tokenFile({ path }, { caData: CA }));
    expect(JSON.stringify(config)).not.toContain('eyJhbGci');
    expect(config.tlsClientConfig).toEqual({ insecure: false, caData: CA });
    expect(config.execProviderConfig.command).toBe('sh');
    expect(config.execProviderConfig.args.at(-1)).toBe(path);
    expect(runPlugin(config.execProviderConfig)).toEqual({ token: 'eyJhbGciOiJSUzI1NiJ9.e30.c2lnbmF0dXJl' });
  });

  test('client certificate files: the plugin prints both PEMs as they are in the files', () => {
    const cert = '-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIUQ\nabc=\n-----END CERTIFICATE-----\n';
    const key = '-----BEGIN EC PRIVATE KEY-----\nMHcCAQEEIB\n-----END EC PRIVATE KEY-----\n';
    const certFile = join(dir, 'tls.crt');
    const keyFile = join(dir, 'tls key');
    writeFileSync(certFile, cert);
    writeFileSync(keyFile, key);
    const config = clusterConfig(ClusterAuth.clientCertificateFiles({ certFile, keyFile }, { caData: CA }));
    expect(JSON.stringify(config)).not.toContain('MIIBszCC');
    expect(runPlugin(config.execProviderConfig)).toEqual({ clientCertificateData: cert, clientKeyData: key });
  });

  test('docs/fleet.md\'s example: a cluster added with a token file; its Secret holds the path and the public CA only', () => {
    const fleet = new ClusterFleet(Testing.app(), 'fleet', { clusters: [] });
    const caData = CA;
    fleet.addCluster({
      name: 'lab-1',
      server: 'https://10.20.0.5:6443',
      provider: CloudProvider.ON_PREM,
      region: 'lab',
      tier: Tier.DEV,
      auth: ClusterAuth.tokenFile({ path: '/var/run/argocd/clusters/lab-1/token' }, { caData }),
    });
    // or: ClusterAuth.clientCertificateFiles({ certFile: '/var/run/argocd/clusters/lab-1/tls.crt', keyFile: '/var/run/argocd/clusters/lab-1/tls.key' }, { caData })
    const config = JSON.parse(Testing.synth(fleet).find(o => o.kind === 'Secret').stringData.config);
    expect(config.tlsClientConfig).toEqual({ insecure: false, caData: CA });
    expect(config.execProviderConfig.args.at(-1)).toBe('/var/run/argocd/clusters/lab-1/token');
    const certs = ClusterAuth.clientCertificateFiles({ certFile: '/var/run/argocd/clusters/lab-1/tls.crt', keyFile: '/var/run/argocd/clusters/lab-1/tls.key' }, { caData });
    expect(clusterConfig(certs).execProviderConfig.args.slice(-2)).toEqual(['/var/run/argocd/clusters/lab-1/tls.crt', '/var/run/argocd/clusters/lab-1/tls.key']);
  });

  test('a missing file fails the plugin, so client-go reports the error instead of sending no credential', () => {
    const config = clusterConfig(ClusterAuth.tokenFile({ path: join(dir, 'missing') }, { caData: CA }));
    expect(() => execFileSync(config.execProviderConfig.command, config.execProviderConfig.args, { stdio: 'pipe' })).toThrow();
  });

  test.each([
    ['a relative token path', () => ClusterAuth.tokenFile({ path: 'token' }, { caData: CA }), /tokenFile path must be an absolute path, got "token"/],
    ['an empty token path', () => ClusterAuth.tokenFile({ path: '' }, { caData: CA }), /tokenFile path is required, got ""/],
    ['a relative key path', () => ClusterAuth.clientCertificateFiles({ certFile: '/c', keyFile: 'k' }, { caData: CA }), /clientCertificateFiles keyFile must be an absolute path, got "k"/],
  ])('fails if %s', (_, auth, message) => {
    expect(() => clusterConfig(auth())).toThrow(message);
  });
});
