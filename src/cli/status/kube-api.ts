import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as http from 'http';
import * as https from 'https';
import * as os from 'os';
import * as path from 'path';
import { load } from 'js-yaml';
import { describe } from '../../util/errors';
import { redactSecrets } from '../../util/redact';
import { UsageError } from '../synth-tree';

// A read-only client of the Kubernetes API for `status --live`: GET and list, with the
// credentials of a kubeconfig as kubectl reads them (client-go `tools/clientcmd`): the context's
// cluster (server, CA, tls-server-name, insecure-skip-tls-verify) and user (client certificate
// and key, token or tokenFile, basic auth, or an exec credential plugin,
// `client.authentication.k8s.io` ExecCredential). Not @kubernetes/client-node: its 1.x is
// ESM-only with some twenty runtime dependencies to bundle, for two list calls.

/** Where and as whom the hub is read. */
export interface KubeTarget {
  readonly context: string;
  readonly server: string;
  readonly ca?: Buffer;
  readonly cert?: Buffer;
  readonly key?: Buffer;
  readonly token?: string;
  readonly basic?: string;
  readonly insecure: boolean;
  readonly servername?: string;
}

interface KubeconfigFile {
  readonly dir: string;
  readonly doc: any;
}

/**
 * The target of a kubeconfig context: `file` (else `$KUBECONFIG`, a list of files merged as
 * kubectl merges them, the first to set a name winning; else `~/.kube/config`) and `context`
 * (else its current-context).
 */
export function kubeTarget(file: string | undefined, context: string | undefined, cwd: string, env: NodeJS.ProcessEnv = process.env): KubeTarget {
  const paths = file !== undefined ? [path.resolve(cwd, file)]
    : env.KUBECONFIG ? env.KUBECONFIG.split(path.delimiter).filter(Boolean) : [path.join(os.homedir(), '.kube', 'config')];
  const files: KubeconfigFile[] = paths.filter((p) => file !== undefined || fs.existsSync(p)).map((p) => {
    if (!fs.existsSync(p)) throw new UsageError(describe('--kubeconfig', p, 'does not exist', 'pass the hub\'s kubeconfig'));
    try {
      return { dir: path.dirname(p), doc: load(fs.readFileSync(p, 'utf8')) ?? {} };
    } catch (e) {
      throw new UsageError(describe(`kubeconfig ${p}`, String((e as Error).message).split('\n')[0], 'does not parse', 'fix the file'));
    }
  });
  if (files.length === 0) throw new UsageError(describe('kubeconfig', paths.join(path.delimiter), 'is not there', 'pass --kubeconfig <file> or set KUBECONFIG'));
  const name = context ?? files.map((f) => f.doc['current-context']).find((c) => typeof c === 'string' && c !== '');
  if (!name) throw new UsageError(describe('kubeconfig', 'no current-context', 'names no context', 'pass --context <name>', String));
  const ctx = named(files, 'contexts', name);
  if (!ctx) throw new UsageError(describe('--context', name, 'is not in the kubeconfig', `use one of ${names(files, 'contexts').join(', ')}`));
  const cluster = named(files, 'clusters', ctx.value.context?.cluster);
  if (!cluster?.value.cluster?.server) throw new UsageError(describe(`context ${name}`, ctx.value.context?.cluster, 'names no cluster with a server', 'fix the kubeconfig'));
  const user = ctx.value.context?.user ? named(files, 'users', ctx.value.context.user) : undefined;
  const c = cluster.value.cluster;
  const base = {
    context: name,
    server: String(c.server).replace(/\/+$/, ''),
    ca: bytes(c['certificate-authority-data'], c['certificate-authority'], cluster.dir),
    insecure: c['insecure-skip-tls-verify'] === true,
    servername: c['tls-server-name'],
  };
  if (c['proxy-url']) throw new UsageError(describe(`cluster ${ctx.value.context.cluster} proxy-url`, c['proxy-url'], 'is not supported by status --live', 'reach the API server directly (or through kubectl proxy: --kubeconfig for http://127.0.0.1:8001)'));
  return { ...base, ...credentials(user?.value.user ?? {}, user?.dir ?? cluster.dir, ctx.value.context.user, base, env) };
}

function named(files: KubeconfigFile[], list: string, name: unknown): { value: any; dir: string } | undefined {
  for (const f of files) {
    const found = (f.doc[list] ?? []).find((e: any) => e?.name === name);
    if (found) return { value: found, dir: f.dir };
  }
  return undefined;
}

function names(files: KubeconfigFile[], list: string): string[] {
  return [...new Set(files.flatMap((f) => (f.doc[list] ?? []).map((e: any) => String(e?.name))))];
}

function bytes(data: unknown, file: unknown, dir: string): Buffer | undefined {
  if (typeof data === 'string' && data !== '') return Buffer.from(data, 'base64');
  if (typeof file === 'string' && file !== '') return fs.readFileSync(path.resolve(dir, file));
  return undefined;
}

type Credentials = Pick<KubeTarget, 'cert' | 'key' | 'token' | 'basic'>;

function credentials(u: any, dir: string, userName: string, cluster: Omit<KubeTarget, 'context'>, env: NodeJS.ProcessEnv): Credentials {
  if (u['auth-provider']) {
    throw new UsageError(describe(`kubeconfig user ${userName} auth-provider`, u['auth-provider']?.name, 'is not supported (kubectl removed it in 1.26)',
      'use the provider\'s exec plugin (kubelogin, gke-gcloud-auth-plugin, aws eks get-token)'));
  }
  const cert = bytes(u['client-certificate-data'], u['client-certificate'], dir);
  const key = bytes(u['client-key-data'], u['client-key'], dir);
  if (u.exec) return { cert, key, ...execCredential(u.exec, dir, userName, cluster, env) };
  const token = typeof u.token === 'string' && u.token !== '' ? u.token
    : typeof u.tokenFile === 'string' ? fs.readFileSync(path.resolve(dir, u.tokenFile), 'utf8').trim() : undefined;
  const basic = typeof u.username === 'string' ? Buffer.from(`${u.username}:${u.password ?? ''}`).toString('base64') : undefined;
  return { cert, key, token, basic };
}

/** Runs an exec credential plugin (client-go `plugin/pkg/client/auth/exec`): never interactive. */
function execCredential(exec: any, dir: string, userName: string, cluster: Omit<KubeTarget, 'context'>, env: NodeJS.ProcessEnv): Credentials {
  const apiVersion = exec.apiVersion ?? 'client.authentication.k8s.io/v1';
  const command = String(exec.command ?? '');
  const info = {
    apiVersion,
    kind: 'ExecCredential',
    spec: {
      interactive: false,
      ...(exec.provideClusterInfo ? {
        cluster: {
          'server': cluster.server,
          'certificate-authority-data': cluster.ca?.toString('base64'),
          'insecure-skip-tls-verify': cluster.insecure,
          'tls-server-name': cluster.servername,
        },
      } : {}),
    },
  };
  const extra = Object.fromEntries((exec.env ?? []).map((e: any) => [String(e.name), String(e.value ?? '')]));
  const result = spawnSync(command.includes('/') ? path.resolve(dir, command) : command, (exec.args ?? []).map(String), {
    env: { ...env, ...extra, KUBERNETES_EXEC_INFO: JSON.stringify(info) },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: 60_000,
  });
  const what = `kubeconfig user ${userName}: exec plugin ${command}`;
  if (result.error || result.status !== 0) {
    const why = result.error?.message ?? result.stderr.trim().split('\n').pop() ?? `exit ${result.status}`;
    throw new UsageError(describe(what, redactSecrets(why), 'failed', 'run the plugin yourself to see why', String));
  }
  let status: any;
  try {
    status = JSON.parse(result.stdout).status ?? {};
  } catch {
    throw new UsageError(describe(`${what} output`, 'not JSON', 'must be an ExecCredential', 'check the plugin and its apiVersion', String));
  }
  const cert = status.clientCertificateData ? Buffer.from(String(status.clientCertificateData)) : undefined;
  const key = status.clientKeyData ? Buffer.from(String(status.clientKeyData)) : undefined;
  if (!status.token && !(cert && key)) {
    throw new UsageError(describe(`${what} ExecCredential`, 'neither', 'must hold a token or a client certificate and key', 'check the plugin', String));
  }
  return { token: status.token, cert, key };
}

/**
 * A read-only Kubernetes API client: JSON GETs and paginated lists.
 * @internal
 */
export class KubeApi {
  public constructor(public readonly target: KubeTarget, private readonly timeoutMs = 30_000) {}

  /** Every item of a list (`limit`/`continue` pages), and the status: 403 or 404 end it (the caller decides what they mean). */
  public async list(apiPath: string, labelSelector?: string): Promise<{ items: any[]; status: number }> {
    const items: any[] = [];
    let cont: string | undefined;
    do {
      const query = new URLSearchParams({ limit: '500', ...(labelSelector ? { labelSelector } : {}), ...(cont ? { continue: cont } : {}) });
      const { status, body } = await this.get(`${apiPath}?${query}`);
      if (status === 403 || status === 404) return { items, status };
      items.push(...(body.items ?? []));
      cont = body.metadata?.continue || undefined;
    } while (cont);
    return { items, status: 200 };
  }

  /** A GET: the status and the parsed body; a status other than 2xx, 403 and 404 is a `UsageError`. */
  public get(apiPath: string): Promise<{ status: number; body: any }> {
    const t = this.target;
    const url = new URL(`${t.server}${apiPath}`);
    const headers: Record<string, string> = { Accept: 'application/json' };
    if (t.token) headers.Authorization = `Bearer ${t.token}`;
    else if (t.basic) headers.Authorization = `Basic ${t.basic}`;
    const options: https.RequestOptions = { method: 'GET', headers, timeout: this.timeoutMs, ca: t.ca, cert: t.cert, key: t.key, rejectUnauthorized: !t.insecure, servername: t.servername };
    const where = `GET ${url.origin}${url.pathname}`;
    return new Promise((resolve, reject) => {
      const req = (url.protocol === 'http:' ? http : https).request(url, options, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          const status = res.statusCode ?? 0;
          if (status === 403 || status === 404) return resolve({ status, body: {} });
          if (status < 200 || status >= 300) return reject(new UsageError(describe(where, `${status} ${redactSecrets(messageOf(text))}`, 'failed', fixOf(status), String)));
          try {
            resolve({ status, body: JSON.parse(text) });
          } catch {
            reject(new UsageError(describe(`${where} answer`, 'not JSON', 'must be JSON', 'is the server a Kubernetes API server?', String)));
          }
        });
      });
      req.on('timeout', () => req.destroy(new Error(describe('the answer', `${this.timeoutMs / 1000} s`, 'took too long', undefined, String))));
      req.on('error', (e) => reject(new UsageError(describe(where, redactSecrets(e.message), 'failed', 'check the kubeconfig\'s server and CA, and that it is reachable', String))));
      req.end();
    });
  }
}

function fixOf(status: number): string {
  if (status === 401) return 'check the kubeconfig\'s credentials for this context';
  return 'see the API server\'s message';
}

function messageOf(text: string): string {
  try {
    return String(JSON.parse(text).message ?? text).slice(0, 300);
  } catch {
    return text.slice(0, 300);
  }
}
