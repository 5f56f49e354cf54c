import { mkdirSync, writeFileSync } from 'fs';
import { join } from 'path';
import { Kube, waitFor } from './kube';
import { log } from './log';
import { Pki } from './pki';
import { freePort } from './ports';
import { Processes } from './procs';

/** The static token Argo CD's application controller presents to the workload clusters. */
export const ARGOCD_TOKEN_USER = 'argocd-application-controller';

/** One e2e cluster: its API server, controller manager, scheduler and kwok node. */
export interface E2eCluster {
  readonly name: string;
  readonly server: string;
  /** The cluster administrator (group system:masters). */
  readonly admin: Kube;
  readonly adminKubeconfig: string;
}

export interface ClustersOptions {
  readonly dir: string;
  readonly bin: string;
  readonly pki: Pki;
  readonly procs: Processes;
  readonly names: string[];
  /** The bearer token Argo CD uses on every cluster (in a file Argo CD reads, never in the output). */
  readonly argocdToken: string;
  /** The kwok configuration (its Stages). */
  readonly kwokConfig: string;
}

/**
 * Starts, per cluster, an etcd and a kube-apiserver (RBAC authorization, client certificates and
 * a static token file), a kube-controller-manager, a kube-scheduler and kwok with one fake node.
 * One etcd per cluster: API servers sharing one under different prefixes see each other's
 * revisions, and the Debian etcd 3.4 has no watch progress requests, so the API servers' watch
 * caches time out waiting for revisions that never reach their prefix ("Too large resource version").
 */
export async function startClusters(o: ClustersOptions): Promise<E2eCluster[]> {
  const tokens = join(o.dir, 'tokens.csv');
  writeFileSync(tokens, `${o.argocdToken},${ARGOCD_TOKEN_USER},${ARGOCD_TOKEN_USER},"system:masters"\n`);
  const adminCert = o.pki.client('admin', 'e2e-admin', ['system:masters']);
  const clusters: E2eCluster[] = [];
  for (const name of o.names) {
    const etcdPort = await startEtcd(o, name);
    const port = await freePort();
    const server = `https://127.0.0.1:${port}`;
    o.procs.start(`${name}-apiserver`, join(o.bin, 'kube-apiserver'), [
      `--etcd-servers=http://127.0.0.1:${etcdPort}`,
      '--bind-address=127.0.0.1', `--secure-port=${port}`, '--advertise-address=127.0.0.1',
      `--tls-cert-file=${o.pki.serving.cert}`, `--tls-private-key-file=${o.pki.serving.key}`,
      `--client-ca-file=${o.pki.ca.cert}`, `--token-auth-file=${tokens}`,
      '--authorization-mode=RBAC',
      `--service-account-issuer=https://${name}.e2e.invalid`, `--service-account-key-file=${o.pki.serviceAccountPub}`,
      `--service-account-signing-key-file=${o.pki.serviceAccountKey}`, '--api-audiences=https://kubernetes.default.svc',
      '--service-cluster-ip-range=10.96.0.0/16', '--endpoint-reconciler-type=none',
      '--enable-priority-and-fairness=false', '--profiling=false', '--allow-privileged=true',
      `--cert-dir=${join(o.dir, name)}`, '-v=1',
    ]);
    const admin = new Kube(name, server, o.pki.ca.cert, adminCert);
    const adminKubeconfig = admin.writeKubeconfig(join(o.dir, `${name}.kubeconfig`));
    clusters.push({ name, server, admin, adminKubeconfig });
  }
  await Promise.all(clusters.map(c => waitFor(`${c.name}'s API server to be ready`, 180_000, () => c.admin.ready(), 1000)));
  log(`API servers ready: ${clusters.map(c => `${c.name} ${c.server}`).join(', ')}`);
  for (const c of clusters) await startNodeSide(o, c);
  return clusters;
}

async function startNodeSide(o: ClustersOptions, c: E2eCluster): Promise<void> {
  o.procs.start(`${c.name}-controller-manager`, join(o.bin, 'kube-controller-manager'), [
    `--kubeconfig=${c.adminKubeconfig}`, `--authentication-kubeconfig=${c.adminKubeconfig}`, `--authorization-kubeconfig=${c.adminKubeconfig}`,
    '--leader-elect=false', '--bind-address=127.0.0.1', `--secure-port=${await freePort()}`,
    // the default controllers (workloads, namespaces, ServiceAccounts, GC); unknown names fail the start
    '--controllers=*',
    // on a loaded machine kwok's lease renewals come late now and then; past the grace period (50s)
    // the node lifecycle controller marks the node NotReady and every pod on it not Ready, and
    // Deployments flap (seen at load average 20). It stays on: it removes the not-ready taint the
    // API server gives a new node
    '--node-monitor-grace-period=10m',
    `--service-account-private-key-file=${o.pki.serviceAccountKey}`, `--root-ca-file=${o.pki.ca.cert}`,
    '--use-service-account-credentials=false', '--concurrent-deployment-syncs=5', '-v=1',
  ]);
  o.procs.start(`${c.name}-scheduler`, join(o.bin, 'kube-scheduler'), [
    `--kubeconfig=${c.adminKubeconfig}`, `--authentication-kubeconfig=${c.adminKubeconfig}`, `--authorization-kubeconfig=${c.adminKubeconfig}`,
    '--leader-elect=false', '--bind-address=127.0.0.1', `--secure-port=${await freePort()}`, '-v=1',
  ]);
  o.procs.start(`${c.name}-kwok`, join(o.bin, 'kwok'), [
    `--kubeconfig=${c.adminKubeconfig}`, `--config=${o.kwokConfig}`,
    '--manage-all-nodes=true', '--server-address=127.0.0.1:0', '--node-ip=127.0.0.1',
    // the node's heartbeat is its Lease (the node-heartbeat-with-lease stage writes its status only
    // every 10 minutes): without one the node lifecycle controller marks the node NotReady after
    // its grace period and every pod on it not Ready, and Deployments never become available
    '--node-lease-duration-seconds=40',
  ]);
  await c.admin.apply({
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name: `${c.name}-node-1`,
      annotations: { 'node.alpha.kubernetes.io/ttl': '0', 'kwok.x-k8s.io/node': 'fake' },
      labels: { 'kubernetes.io/hostname': `${c.name}-node-1`, 'kubernetes.io/os': 'linux', 'kubernetes.io/arch': 'amd64', 'type': 'kwok' },
    },
    spec: {},
  } as any);
}

async function startEtcd(o: ClustersOptions, name: string): Promise<number> {
  const port = await freePort();
  const peer = await freePort();
  const dataDir = join(o.dir, 'etcd', name);
  mkdirSync(dataDir, { recursive: true });
  // etcd v3.6.4 from the module kube-apiserver v1.34.3's client is (e2e/k8s): Debian's 3.4 has no
  // watch progress notification, the API server then refuses watch-list streams ("the required
  // storage feature RequestWatchProgress is disabled") and kwok, whose client-go asks for them,
  // saw new pods only when its watches restarted, 15-60 s late, and every rollout waited for it
  o.procs.start(`${name}-etcd`, join(o.bin, 'etcd'), [
    '--name', name, '--data-dir', dataDir,
    '--listen-client-urls', `http://127.0.0.1:${port}`, '--advertise-client-urls', `http://127.0.0.1:${port}`,
    '--listen-peer-urls', `http://127.0.0.1:${peer}`, '--initial-advertise-peer-urls', `http://127.0.0.1:${peer}`,
    '--initial-cluster', `${name}=http://127.0.0.1:${peer}`, '--quota-backend-bytes', `${2 * 1024 ** 3}`,
    '--snapshot-count', '10000', '--log-level', 'warn',
  ]);
  return port;
}
