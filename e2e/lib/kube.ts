import { readFileSync, writeFileSync } from 'fs';
import { Agent, request } from 'https';
import { parseAllDocuments } from 'yaml';

/** How a client authenticates: a client certificate or a bearer token. */
export interface Credentials {
  readonly cert?: string;
  readonly key?: string;
  readonly token?: string;
}

/** A Kubernetes object as JSON. */
export type Obj = { apiVersion: string; kind: string; metadata: { name: string; namespace?: string; [k: string]: any }; [k: string]: any };

/** An error answer of the API server. */
export class ApiError extends Error {
  constructor(public readonly status: number, public readonly body: any, what: string) {
    super(`${what}: ${status} ${body?.message ?? JSON.stringify(body)}`);
  }
}

interface ResourceInfo { readonly plural: string; readonly namespaced: boolean }

/**
 * A small client of one API server, enough for the suite: server-side apply, get, list, create,
 * merge patch, delete and polling, with the API server's discovery for kinds' resource names.
 */
export class Kube {
  private readonly agent: Agent;
  private readonly discovery = new Map<string, Map<string, ResourceInfo>>();

  constructor(public readonly name: string, public readonly server: string, private readonly caFile: string, private readonly creds: Credentials) {
    this.agent = new Agent({
      ca: readFileSync(caFile),
      cert: creds.cert ? readFileSync(creds.cert) : undefined,
      key: creds.key ? readFileSync(creds.key) : undefined,
      keepAlive: true,
      maxSockets: 8,
    });
  }

  /** The same API server as another identity. */
  public as(name: string, creds: Credentials): Kube {
    return new Kube(name, this.server, this.caFile, creds);
  }

  /** A kubeconfig file for this identity. */
  public writeKubeconfig(file: string, namespace?: string): string {
    const user: Record<string, string> = this.creds.token
      ? { token: this.creds.token }
      : { 'client-certificate': this.creds.cert!, 'client-key': this.creds.key! };
    writeFileSync(file, JSON.stringify({
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [{ name: this.name, cluster: { 'server': this.server, 'certificate-authority': this.caFile } }],
      users: [{ name: this.name, user }],
      contexts: [{ name: this.name, context: { cluster: this.name, user: this.name, ...namespace ? { namespace } : {} } }],
      'current-context': this.name,
    }, null, 2));
    return file;
  }

  public async raw(method: string, path: string, body?: unknown, contentType = 'application/json'): Promise<any> {
    const payload = body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
    const url = new URL(path, this.server);
    return new Promise((resolve, reject) => {
      const req = request(url, {
        method,
        agent: this.agent,
        headers: {
          'Accept': 'application/json',
          ...payload === undefined ? {} : { 'Content-Type': contentType, 'Content-Length': Buffer.byteLength(payload) },
          ...this.creds.token ? { Authorization: `Bearer ${this.creds.token}` } : {},
        },
        timeout: 30_000,
      }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let parsed: any = text;
          try {
            parsed = text ? JSON.parse(text) : undefined;
          } catch {
            // plain text answers (healthz)
          }
          if ((res.statusCode ?? 500) >= 400) reject(new ApiError(res.statusCode ?? 500, parsed, `${this.name} ${method} ${path}`));
          else resolve(parsed);
        });
      });
      req.on('timeout', () => req.destroy(new Error(`${this.name} ${method} ${path}: timed out`)));
      req.on('error', reject);
      if (payload !== undefined) req.write(payload);
      req.end();
    });
  }

  /** Whether the API server answers /readyz. */
  public async ready(): Promise<boolean> {
    try {
      return (await this.raw('GET', '/readyz')) === 'ok';
    } catch {
      return false;
    }
  }

  private async resource(apiVersion: string, kind: string): Promise<ResourceInfo> {
    let kinds = this.discovery.get(apiVersion);
    if (!kinds?.has(kind)) {
      const path = apiVersion.includes('/') ? `/apis/${apiVersion}` : `/api/${apiVersion}`;
      const list = await this.raw('GET', path);
      kinds = new Map();
      for (const r of list.resources ?? []) {
        if (!r.name.includes('/')) kinds.set(r.kind, { plural: r.name, namespaced: r.namespaced });
      }
      this.discovery.set(apiVersion, kinds);
    }
    const info = kinds.get(kind);
    if (!info) throw new Error(`${this.name}: the API server serves no ${kind} in ${apiVersion}`);
    return info;
  }

  /** The URL path of a kind (in a namespace), or of one object when a name is given. */
  public async path(apiVersion: string, kind: string, namespace?: string, name?: string): Promise<string> {
    const info = await this.resource(apiVersion, kind);
    const base = apiVersion.includes('/') ? `/apis/${apiVersion}` : `/api/${apiVersion}`;
    const ns = info.namespaced && namespace ? `/namespaces/${namespace}` : '';
    return `${base}${ns}/${info.plural}${name ? `/${name}` : ''}`;
  }

  /** Server-side apply of one object (the field manager owns what it sets; conflicts forced). */
  public async apply(obj: Obj, fieldManager = 'e2e'): Promise<Obj> {
    const path = await this.path(obj.apiVersion, obj.kind, obj.metadata.namespace, obj.metadata.name);
    return this.raw('PATCH', `${path}?fieldManager=${fieldManager}&force=true`, obj, 'application/apply-patch+yaml');
  }

  /** Server-side apply of every document of a YAML text, in order. */
  public async applyYaml(text: string, fieldManager = 'e2e'): Promise<number> {
    let n = 0;
    for (const doc of parseAllDocuments(text)) {
      const obj = doc.toJS();
      if (!obj?.kind) continue;
      await this.apply(obj, fieldManager);
      n++;
    }
    return n;
  }

  public async get(apiVersion: string, kind: string, namespace: string | undefined, name: string): Promise<Obj | undefined> {
    try {
      return await this.raw('GET', await this.path(apiVersion, kind, namespace, name));
    } catch (e) {
      if (e instanceof ApiError && e.status === 404) return undefined;
      throw e;
    }
  }

  public async list(apiVersion: string, kind: string, namespace?: string, labelSelector?: string): Promise<Obj[]> {
    const query = labelSelector ? `?labelSelector=${encodeURIComponent(labelSelector)}` : '';
    const list = await this.raw('GET', `${await this.path(apiVersion, kind, namespace)}${query}`);
    return (list.items ?? []).map((o: any) => ({ ...o, apiVersion, kind }));
  }

  public async create(obj: Obj): Promise<Obj> {
    return this.raw('POST', await this.path(obj.apiVersion, obj.kind, obj.metadata.namespace), obj);
  }

  public async mergePatch(apiVersion: string, kind: string, namespace: string | undefined, name: string, patch: unknown): Promise<Obj> {
    return this.raw('PATCH', await this.path(apiVersion, kind, namespace, name), patch, 'application/merge-patch+json');
  }

  public async delete(apiVersion: string, kind: string, namespace: string | undefined, name: string): Promise<void> {
    try {
      await this.raw('DELETE', await this.path(apiVersion, kind, namespace, name));
    } catch (e) {
      if (!(e instanceof ApiError && e.status === 404)) throw e;
    }
  }
}

/** Polls `probe` every `everyMs` until it returns a value other than undefined/false, or fails after `timeoutMs` with `what`. */
/** An outcome a probe of `waitFor` sees that waiting cannot change (a Promotion that failed): it ends the wait at once. */
export class Settled extends Error {}

export async function waitFor<T>(what: string, timeoutMs: number, probe: () => Promise<T | undefined | false>, everyMs = 500): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const v = await probe();
      if (v !== undefined && v !== false) return v as T;
    } catch (e) {
      if (e instanceof Settled) throw e;
      last = e;
    }
    if (Date.now() > deadline) {
      throw new Error(`timed out after ${Math.round(timeoutMs / 1000)}s waiting for ${what}${last ? ` (last error: ${(last as Error).message})` : ''}`);
    }
    await new Promise(r => setTimeout(r, everyMs));
  }
}
