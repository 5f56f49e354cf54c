import * as fs from 'fs';
import * as path from 'path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { KubeApi, kubeTarget } from '../../../src/cli/status/kube-api';
import { tempDir } from '../../support/cli-temp-dirs';
import { FakeHub, kubeconfigFor, selfSigned, startFakeHub } from '../../support/fake-hub';

// The kubeconfig's credentials as kubectl uses them, against a stand-in API server on 127.0.0.1.

const STAGE = { apiVersion: 'kargo.akuity.io/v1alpha1', kind: 'Stage', metadata: { name: 'dev', namespace: 'api', labels: { 'gitops-platform.io/app': 'api' } } };
let dir: string;
let hub: FakeHub;

beforeAll(async () => {
  dir = tempDir();
  hub = await startFakeHub(dir, { applications: [], stages: [STAGE], token: 'tok' });
}, 60_000);
afterAll(async () => hub?.close());

function write(name: string, text: string): string {
  fs.writeFileSync(path.join(dir, name), text, { mode: 0o700 });
  return name;
}

async function stages(file: string): Promise<string[]> {
  const api = new KubeApi(kubeTarget(file, undefined, dir, {}));
  return (await api.list('/apis/kargo.akuity.io/v1alpha1/stages')).items.map((s) => s.metadata.name);
}

describe('kubeconfig credentials', () => {
  test('a token, a tokenFile (relative to the kubeconfig) and an exec plugin\'s ExecCredential', async () => {
    expect(await stages(write('token', kubeconfigFor(hub, { token: 'tok' })))).toEqual(['dev']);
    write('token.txt', 'tok\n');
    expect(await stages(write('token-file', kubeconfigFor(hub, { tokenFile: 'token.txt' })))).toEqual(['dev']);
    const plugin = write('plugin.js', `#!${process.execPath}\nconst info = JSON.parse(process.env.KUBERNETES_EXEC_INFO);\n`
      + 'if (info.spec.interactive !== false) process.exit(3);\n'
      + 'process.stdout.write(JSON.stringify({ apiVersion: info.apiVersion, kind: "ExecCredential", status: { token: process.env.THE_TOKEN } }));\n');
    const exec = { apiVersion: 'client.authentication.k8s.io/v1', command: `./${plugin}`, env: [{ name: 'THE_TOKEN', value: 'tok' }], interactiveMode: 'Never' };
    expect(await stages(write('exec', kubeconfigFor(hub, { exec })))).toEqual(['dev']);
  });

  test('a client certificate and key (mutual TLS)', async () => {
    const client = selfSigned(dir, 'client');
    const mtls = await startFakeHub(dir, { applications: [], stages: [STAGE], clientCa: client.cert });
    try {
      const user = { 'client-certificate-data': client.cert.toString('base64'), 'client-key-data': client.key.toString('base64') };
      expect(await stages(write('mtls', kubeconfigFor(mtls, user)))).toEqual(['dev']);
      await expect(stages(write('no-cert', kubeconfigFor(mtls, {})))).rejects.toThrow(/^GET https:\/\/127\.0\.0\.1:\d+\/apis\/kargo\.akuity\.io\/v1alpha1\/stages failed, got /);
    } finally {
      await mtls.close();
    }
  });

  test('the server is verified against the kubeconfig\'s CA', async () => {
    const config = JSON.parse(kubeconfigFor(hub, { token: 'tok' }));
    config.clusters[0].cluster['certificate-authority-data'] = selfSigned(dir, 'other').cert.toString('base64');
    await expect(stages(write('other-ca', JSON.stringify(config)))).rejects.toThrow(/failed, got .*(self[- ]signed|certificate)/i);
  });

  test('what it cannot use is a usage error naming the fix', () => {
    const provider = write('provider', kubeconfigFor(hub, { 'auth-provider': { name: 'gcp' } }));
    expect(() => kubeTarget(provider, undefined, dir, {})).toThrow('kubeconfig user reader auth-provider is not supported (kubectl removed it in 1.26), got "gcp"; use the provider\'s exec plugin');
    expect(() => kubeTarget(provider, 'prod', dir, {})).toThrow('--context is not in the kubeconfig, got "prod"; use one of hub');
    const failing = write('failing', kubeconfigFor(hub, { exec: { command: 'sh', args: ['-c', 'echo "token ghp_abcdefghijklmnopqrstuvwxyz0123 expired" >&2; exit 1'] } }));
    expect(() => kubeTarget(failing, undefined, dir, {})).toThrow('kubeconfig user reader: exec plugin sh failed, got token *** expired; run the plugin yourself to see why');
    expect(() => kubeTarget(undefined, undefined, dir, { KUBECONFIG: path.join(dir, 'missing') })).toThrow(/kubeconfig is not there/);
  });

  test('KUBECONFIG lists files merged as kubectl merges them: the first to name an entry wins', () => {
    const a = write('a', JSON.stringify({ 'current-context': 'hub', 'contexts': [{ name: 'hub', context: { cluster: 'hub', user: 'reader' } }] }));
    const b = write('b', kubeconfigFor(hub, { token: 'tok' }));
    const target = kubeTarget(undefined, undefined, dir, { KUBECONFIG: [path.join(dir, a), path.join(dir, b)].join(path.delimiter) });
    expect(target).toMatchObject({ context: 'hub', server: hub.url, token: 'tok', insecure: false });
  });
});
