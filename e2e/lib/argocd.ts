import { randomBytes } from 'crypto';
import { chmodSync, copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'fs';
import { dirname, join } from 'path';
import { waitEstablished } from './kargo';
import { Kube, waitFor } from './kube';
import { log } from './log';
import { containerEnv, installOrder, readDocs, WORKLOAD_KINDS } from './manifests';
import { Pki } from './pki';
import { freePort } from './ports';
import { Processes } from './procs';

export const ARGOCD_NAMESPACE = 'argocd';
export const ROLLOUTS_NAMESPACE = 'argo-rollouts';

export interface ArgoCdOptions {
  readonly dir: string;
  readonly bin: string;
  readonly pki: Pki;
  readonly procs: Processes;
  readonly hub: Kube;
  /** Argo CD's install.yaml, as its Go module ships it (`manifests/install.yaml`). */
  readonly installYaml: string;
  readonly gitPath: string;
  /** Seconds between Argo CD's refreshes of every Application (`timeout.reconciliation`). */
  readonly reconciliationSeconds: number;
}

/**
 * Installs Argo CD on the hub from its own install.yaml without the pods (CRDs, ConfigMaps,
 * RBAC), and runs redis, the repo-server, the application controller and the ApplicationSet
 * controller as processes of Argo CD's one binary (ARGOCD_BINARY_NAME picks the component),
 * each with a client certificate of its ServiceAccount.
 */
export async function installArgoCd(o: ArgoCdOptions): Promise<void> {
  const objs = readDocs(o.installYaml);
  await o.hub.apply({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ARGOCD_NAMESPACE } });
  const redisPort = await freePort();
  const repoPort = await freePort();
  for (const obj of installOrder(objs.filter(x => !WORKLOAD_KINDS.has(x.kind)))) {
    obj.metadata.namespace = obj.kind.startsWith('Cluster') || obj.kind === 'CustomResourceDefinition' ? undefined : obj.metadata.namespace ?? ARGOCD_NAMESPACE;
    if (obj.kind === 'ConfigMap' && obj.metadata.name === 'argocd-cm') {
      // the platform's choices, as a platform team sets them in argocd-cm
      obj.data = { ...obj.data, 'timeout.reconciliation': `${o.reconciliationSeconds}s`, 'timeout.reconciliation.jitter': '0s' };
    }
    if (obj.kind === 'Secret' && obj.metadata.name === 'argocd-secret') {
      // argocd-server writes it at its first start; the suite runs no argocd-server
      obj.stringData = { 'server.secretkey': randomBytes(32).toString('base64') };
    }
    if (obj.kind === 'ConfigMap' && obj.metadata.name === 'argocd-tls-certs-cm') {
      obj.data = { ...obj.data, 'localhost': readFileSync(o.pki.ca.cert, 'utf8') };
    }
    await o.hub.apply(obj);
    if (obj.kind === 'CustomResourceDefinition') await waitEstablished(o.hub, obj.metadata.name);
  }
  log(`argocd: applied ${objs.filter(x => !WORKLOAD_KINDS.has(x.kind)).length} objects of install.yaml`);

  o.procs.start('redis', 'redis-server', ['--port', `${redisPort}`, '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--protected-mode', 'yes']);
  // Argo CD's TLS store for Git servers: one file per host name, as argocd-tls-certs-cm is mounted
  const tlsDir = join(o.dir, 'argocd-tls');
  mkdirSync(tlsDir, { recursive: true });
  writeFileSync(join(tlsDir, 'localhost'), readFileSync(o.pki.ca.cert));
  // Argo CD's image has its git-verify-wrapper.sh on PATH (the repo-server runs it for every commit)
  const toolDir = join(o.dir, 'argocd-tools');
  mkdirSync(toolDir, { recursive: true });
  copyFileSync(join(dirname(dirname(o.installYaml)), 'hack', 'git-verify-wrapper.sh'), join(toolDir, 'git-verify-wrapper.sh'));
  chmodSync(join(toolDir, 'git-verify-wrapper.sh'), 0o755);
  const workloads = objs.filter(x => x.kind === 'Deployment' || x.kind === 'StatefulSet');
  const component = async (name: string, args: string[]) => {
    const w = workloads.find(x => x.metadata.name === name);
    if (!w) throw new Error(`argocd: install.yaml has no workload ${name}`);
    const sa = w.spec.template.spec.serviceAccountName ?? 'default';
    const cert = o.pki.client(name, `system:serviceaccount:${ARGOCD_NAMESPACE}:${sa}`, ['system:serviceaccounts', `system:serviceaccounts:${ARGOCD_NAMESPACE}`, 'system:authenticated']);
    const kubeconfig = o.hub.as(name, cert).writeKubeconfig(join(o.dir, `${name}.kubeconfig`), ARGOCD_NAMESPACE);
    const home = join(o.dir, `${name}-home`);
    mkdirSync(home, { recursive: true });
    // paths inside the pod (/app/config/...) do not exist here: what they configure is set below
    const podEnv = Object.fromEntries(Object.entries(containerEnv({ ...w, metadata: { ...w.metadata, namespace: ARGOCD_NAMESPACE } }, objs))
      .filter(([, v]) => !v.startsWith('/app/config')));
    o.procs.start(name, join(o.bin, 'argocd'), args, {
      env: {
        ...podEnv,
        ARGOCD_BINARY_NAME: name,
        KUBECONFIG: kubeconfig,
        // the hub is the in-cluster destination (https://kubernetes.default.svc) through KUBECONFIG
        ARGOCD_FAKE_IN_CLUSTER: 'true',
        ARGOCD_TLS_DATA_PATH: tlsDir,
        ARGOCD_GPG_ENABLED: 'false',
        // the repo-server's checkouts and its git credential socket, apart from any other Argo CD on the machine
        TMPDIR: home,
        ARGOCD_ASK_PASS_SOCK: join(home, 'ask-pass.sock'),
        HOME: home,
        PATH: `${o.gitPath}:${toolDir}:${process.env.PATH}`,
      },
    });
  };
  await component('argocd-repo-server', ['--port', `${repoPort}`, '--address', '127.0.0.1', '--metrics-port', `${await freePort()}`,
    '--disable-tls', '--client-ca-path=', '--redis', `127.0.0.1:${redisPort}`, '--parallelismlimit', '4']);
  await component('argocd-application-controller', ['--repo-server', `127.0.0.1:${repoPort}`, '--repo-server-plaintext',
    '--redis', `127.0.0.1:${redisPort}`, '--metrics-port', `${await freePort()}`, '--status-processors', '10', '--operation-processors', '10',
    '--loglevel', 'info']);
  await component('argocd-applicationset-controller', ['--argocd-repo-server', `127.0.0.1:${repoPort}`, '--repo-server-plaintext',
    '--metrics-addr', `127.0.0.1:${await freePort()}`, '--probe-addr', `127.0.0.1:${await freePort()}`,
    '--webhook-addr', `127.0.0.1:${await freePort()}`, '--enable-leader-election=false']);
  await waitFor('argocd repo-server', 120_000, () => tcpOpen(repoPort), 1000);
  log('argocd: redis, repo-server, application controller and ApplicationSet controller started');
}

/**
 * Installs Argo Rollouts (its install.yaml from the Go module: CRDs and RBAC) and runs its
 * controller with its ServiceAccount's identity: it runs the AnalysisRuns of Kargo's verifications.
 */
export async function installRollouts(o: { dir: string; bin: string; pki: Pki; procs: Processes; hub: Kube; installYaml: string }): Promise<void> {
  const objs = readDocs(o.installYaml);
  await o.hub.apply({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ROLLOUTS_NAMESPACE } });
  for (const obj of installOrder(objs.filter(x => !WORKLOAD_KINDS.has(x.kind)))) {
    if (!obj.kind.startsWith('Cluster') && obj.kind !== 'CustomResourceDefinition') obj.metadata.namespace ??= ROLLOUTS_NAMESPACE;
    await o.hub.apply(obj);
    if (obj.kind === 'CustomResourceDefinition') await waitEstablished(o.hub, obj.metadata.name);
  }
  const d = objs.find(x => x.kind === 'Deployment')!;
  const sa = d.spec.template.spec.serviceAccountName;
  const cert = o.pki.client('argo-rollouts', `system:serviceaccount:${ROLLOUTS_NAMESPACE}:${sa}`, ['system:serviceaccounts', `system:serviceaccounts:${ROLLOUTS_NAMESPACE}`, 'system:authenticated']);
  const kubeconfig = o.hub.as('argo-rollouts', cert).writeKubeconfig(join(o.dir, 'argo-rollouts.kubeconfig'), ROLLOUTS_NAMESPACE);
  o.procs.start('argo-rollouts', join(o.bin, 'rollouts-controller'), [
    '--kubeconfig', kubeconfig, '--leader-elect=false', '--healthzPort', `${await freePort()}`, '--metricsport', `${await freePort()}`,
    '--loglevel', 'info',
  ], { env: { POD_NAMESPACE: ROLLOUTS_NAMESPACE } });
  log('argo rollouts: CRDs and RBAC applied, controller started');
}

export async function tcpOpen(port: number): Promise<boolean> {
  const { connect } = await import('net');
  return new Promise(resolve => {
    const s = connect(port, '127.0.0.1');
    s.on('connect', () => { s.destroy(); resolve(true); });
    s.on('error', () => resolve(false));
  });
}
