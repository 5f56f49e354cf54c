import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as https from 'https';
import { AddressInfo } from 'net';
import * as path from 'path';

// A stand-in for the hub's Kubernetes API, on 127.0.0.1 only, over TLS with a certificate made
// for the test: it answers the list endpoints of Argo CD Applications and Kargo Stages (pages of
// `pageSize`, `continue` tokens, label selectors `<key>` and `<key> in (a,b)`), records every
// request, and can forbid cluster-wide lists (403) as a namespaced Role would.

/** A self-signed certificate and key for 127.0.0.1, made with openssl in `dir`. */
export function selfSigned(dir: string, name: string): { cert: Buffer; key: Buffer } {
  const cert = path.join(dir, `${name}.crt`);
  const key = path.join(dir, `${name}.key`);
  execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1',
    '-subj', `/CN=${name}`, '-addext', 'subjectAltName=IP:127.0.0.1', '-keyout', key, '-out', cert], { stdio: 'ignore' });
  return { cert: fs.readFileSync(cert), key: fs.readFileSync(key) };
}

export interface FakeHubOptions {
  readonly applications: any[];
  readonly stages: any[];
  /** The bearer token every request must carry (unless `clientCa` authenticates). */
  readonly token?: string;
  /** Require a client certificate signed by (here: equal to) this one. */
  readonly clientCa?: Buffer;
  readonly forbidClusterWide?: boolean;
  readonly pageSize?: number;
}

export interface FakeHub {
  readonly url: string;
  readonly ca: Buffer;
  readonly requests: Array<{ method: string; path: string; authorization?: string }>;
  close(): Promise<void>;
}

export async function startFakeHub(dir: string, options: FakeHubOptions): Promise<FakeHub> {
  const { cert, key } = selfSigned(dir, 'hub');
  const requests: FakeHub['requests'] = [];
  const mtls = options.clientCa ? { requestCert: true, rejectUnauthorized: true, ca: options.clientCa } : {};
  const server = https.createServer({ cert, key, ...mtls }, (req, res) => {
    requests.push({ method: req.method ?? '', path: req.url ?? '', authorization: req.headers.authorization });
    const answer = (status: number, body: unknown) => {
      res.writeHead(status, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (options.token && req.headers.authorization !== `Bearer ${options.token}`) return answer(401, { kind: 'Status', message: 'Unauthorized' });
    const url = new URL(req.url ?? '/', 'https://hub');
    const m = /^\/apis\/(argoproj\.io|kargo\.akuity\.io)\/v1alpha1\/(?:namespaces\/([^/]+)\/)?(applications|stages)$/.exec(url.pathname);
    if (req.method !== 'GET' || !m) return answer(404, { kind: 'Status', message: 'not found' });
    if (!m[2] && options.forbidClusterWide) return answer(403, { kind: 'Status', message: `${m[3]} is forbidden at the cluster scope` });
    const all = (m[3] === 'applications' ? options.applications : options.stages)
      .filter((o) => !m[2] || o.metadata.namespace === m[2])
      .filter((o) => selects(url.searchParams.get('labelSelector'), o.metadata.labels ?? {}));
    const start = Number(url.searchParams.get('continue') ?? 0);
    const size = options.pageSize ?? Number(url.searchParams.get('limit') ?? all.length);
    const items = all.slice(start, start + size);
    answer(200, { kind: 'List', metadata: start + size < all.length ? { continue: String(start + size) } : {}, items });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `https://127.0.0.1:${port}`,
    ca: cert,
    requests,
    close: () => new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

function selects(selector: string | null, labels: Record<string, string>): boolean {
  if (!selector) return true;
  const m = /^(\S+) in \(([^)]*)\)$/.exec(selector);
  if (m) return m[2].split(',').includes(labels[m[1]]);
  return Object.prototype.hasOwnProperty.call(labels, selector);
}

/** A kubeconfig for the fake hub: one context `hub`, the user as given. */
export function kubeconfigFor(hub: FakeHub, user: Record<string, unknown>): string {
  return JSON.stringify({
    'apiVersion': 'v1',
    'kind': 'Config',
    'current-context': 'hub',
    'clusters': [{ name: 'hub', cluster: { 'server': hub.url, 'certificate-authority-data': hub.ca.toString('base64') } }],
    'users': [{ name: 'reader', user }],
    'contexts': [{ name: 'hub', context: { cluster: 'hub', user: 'reader' } }],
  });
}

/** The state of an Application, as Argo CD writes it. */
export interface ApplicationState {
  /** The commit its `targetRevision` resolves to (the branch head). */
  readonly head: string;
  /** The revision it last synced. */
  readonly synced: string;
  readonly sync: string;
  readonly health: string;
}

/** An Application as Argo CD holds it: the model's Application (`modelApplications`) with the status `state` says. */
export function hubApplication(app: any, state: ApplicationState): any {
  const at = '2026-06-02T10:05:00Z';
  const revision = state.synced;
  return {
    apiVersion: 'argoproj.io/v1alpha1',
    kind: 'Application',
    metadata: { name: app.name, namespace: app.namespace, labels: app.labels, annotations: app.annotations },
    spec: { project: app.project, destination: app.destination, source: app.sources[0] },
    status: {
      sync: { status: state.sync, revision: state.head, comparedTo: { source: app.sources[0], destination: app.destination } },
      health: { status: state.health },
      operationState: { phase: 'Succeeded', startedAt: at, finishedAt: at, operation: { sync: { revision } }, syncResult: { revision, source: app.sources[0] } },
      history: [{ id: 1, revision, deployedAt: at, source: app.sources[0] }],
    },
  };
}

/** A Stage as Kargo holds it: its synthesized spec, its current Freight and last promotion. */
export function hubStage(spec: any, freight: string, commitStep = 'Succeeded'): any {
  const ref = { name: freight, origin: { kind: 'Warehouse', name: spec.spec.requestedFreight[0].origin.name } };
  return {
    ...spec,
    status: {
      freightHistory: [{ id: `c-${freight.slice(0, 8)}`, items: { [`Warehouse/${ref.origin.name}`]: ref } }],
      lastPromotion: { name: `${spec.metadata.name}.0009`, freight: ref, status: { phase: 'Succeeded', stepExecutionMetadata: [{ alias: 'commit', status: commitStep }] } },
    },
  };
}
