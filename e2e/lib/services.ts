import { execFileSync } from 'child_process';
import { chmodSync, mkdirSync, writeFileSync } from 'fs';
import { createServer, Server } from 'http';
import { join } from 'path';
import { tcpOpen } from './argocd';
import { waitFor } from './kube';
import { log } from './log';
import { Pki } from './pki';
import { freePort } from './ports';
import { Processes } from './procs';

/**
 * A `git` first on PATH that trusts the suite's CA and runs the given git with its own helpers
 * (`GIT_EXEC_PATH`: a git build moved after `make install` looks for them where it was built).
 * Kargo runs git with an environment of its own (HOME and a few variables,
 * `pkg/controller/git/base_repo.go`, `buildCommand`), and the Git server runs it as a CGI program
 * with none, so the CA cannot reach either through the environment.
 */
export function gitWrapper(dir: string, realGitDir: string, pki: Pki): string {
  const bin = join(dir, 'git-bin');
  mkdirSync(bin, { recursive: true });
  const execPath = join(realGitDir, '..', 'libexec', 'git-core');
  const script = `#!/bin/sh\nGIT_SSL_CAINFO='${pki.ca.cert}' GIT_EXEC_PATH='${execPath}' exec '${join(realGitDir, 'git')}' "$@"\n`;
  writeFileSync(join(bin, 'git'), script);
  chmodSync(join(bin, 'git'), 0o755);
  return bin;
}

/** The local OCI registry (Debian's docker-registry, distribution v2) over https. */
export async function startRegistry(dir: string, pki: Pki, procs: Processes): Promise<string> {
  const port = await freePort();
  const config = join(dir, 'registry.yml');
  writeFileSync(config, [
    'version: 0.1',
    'log: { level: warn }',
    `storage: { filesystem: { rootdirectory: ${join(dir, 'registry')} }, delete: { enabled: true } }`,
    `http: { addr: 127.0.0.1:${port}, tls: { certificate: ${pki.serving.cert}, key: ${pki.serving.key} } }`,
    '',
  ].join('\n'));
  procs.start('registry', 'docker-registry', ['serve', config]);
  await waitFor('the registry', 30_000, () => tcpOpen(port), 300);
  return `localhost:${port}`;
}

/** Pushes a one-layer image under a tag with crane (no base image, nothing from the network). */
export function pushImage(bin: string, dir: string, ref: string, env: Record<string, string>): void {
  const layerDir = join(dir, 'layer');
  mkdirSync(layerDir, { recursive: true });
  writeFileSync(join(layerDir, 'version'), `${ref}\n`);
  const tar = join(dir, 'layer.tar');
  execFileSync('tar', ['-cf', tar, '-C', layerDir, 'version']);
  execFileSync(join(bin, 'crane'), ['append', '-f', tar, '-t', ref], { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
}

/** The Git server: git http-backend over https for the bare repositories under `<dir>/git` (`gitDir`: the wrapper's). */
export async function startGitServer(dir: string, bin: string, gitDir: string, pki: Pki, procs: Processes): Promise<string> {
  const port = await freePort();
  const root = join(dir, 'git');
  mkdirSync(root, { recursive: true });
  procs.start('git-https', join(bin, 'git-https'), [
    '-listen', `127.0.0.1:${port}`, '-root', root, '-cert', pki.serving.cert, '-key', pki.serving.key, '-git', join(gitDir, 'git'),
  ]);
  await waitFor('the git server', 30_000, () => tcpOpen(port), 300);
  return `https://localhost:${port}`;
}

/** The verification endpoint: answers 200 on /health/<cluster> unless told to fail for that cluster. */
export class MetricEndpoint {
  public readonly failing = new Set<string>();
  /** Answers 200 even for a failing cluster: a check that does not see the failure (a broken variant). */
  public lying = false;
  public readonly requests: string[] = [];
  private server?: Server;
  public base = '';

  public async start(): Promise<string> {
    const port = await freePort();
    this.server = createServer((req, res) => {
      const cluster = (req.url ?? '').split('/').pop() ?? '';
      this.requests.push(req.url ?? '');
      const fail = !this.lying && (this.failing.has(cluster) || this.failing.has('*'));
      res.writeHead(fail ? 503 : 200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ status: fail ? 'DOWN' : 'UP', cluster }));
    });
    await new Promise<void>(resolve => this.server!.listen(port, '127.0.0.1', resolve));
    this.base = `http://127.0.0.1:${port}`;
    log(`verification endpoint on ${this.base}`);
    return this.base;
  }

  public stop(): void {
    this.server?.close();
  }
}
