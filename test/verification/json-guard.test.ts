import { spawn } from 'child_process';
import * as http from 'http';
import { AddressInfo } from 'net';
import { Duration } from 'cdk8s';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { HttpMethod, Verification, VerificationArg } from '../../src';
import { find, synthApp } from '../support/fixtures';

/*
 * The JSON guard of an HTTP check, run for real: the script and env of the synthesized
 * AnalysisTemplate's job metric, with this machine's node, against a server on 127.0.0.1.
 */

const SECRETS: Record<string, Record<string, string>> = { 'shop-probe': { token: 's3cret-token-value' } };

interface Received {
  readonly method: string;
  readonly headers: http.IncomingHttpHeaders;
  readonly body: string;
}

const received = new Map<string, Received>();
let server: http.Server;
let base = '';
let objects: any[] = [];

/** One check per endpoint of the server, so each scenario has its own synthesized guard. */
function checks(): Verification[] {
  const check = (name: string, path: string, extra: Partial<Parameters<typeof Verification.http>[0]> = {}) =>
    Verification.http({ name, url: `${base}${path}`, jsonPath: '{$.status}', successCondition: "result == 'UP'", ...extra });
  return [
    check('json', '/json'),
    check('text', '/text'),
    check('error', '/error'),
    check('slow', '/slow', { timeout: Duration.seconds(1) }),
    check('auth', '/auth', {
      headers: { 'Authorization': 'Bearer {{args.token}}', 'X-Probe': 'stage {stage}' },
      args: { token: VerificationArg.fromSecret('shop-probe', 'token') },
    }),
    check('post', '/post', { method: HttpMethod.POST, body: '{"stage": "{stage}"}' }),
    check('bom', '/bom'),
  ];
}

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      received.set(req.url ?? '', { method: req.method ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      const json = (status: number, body: unknown) => {
        res.writeHead(status, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      switch (req.url) {
        case '/slow': return; // never answers
        case '/text':
          res.writeHead(200, { 'Content-Type': 'text/plain' });
          return res.end('OK: upstream unavailable, served from cache');
        case '/error': return json(500, { status: 'DOWN' });
        case '/bom':
          res.writeHead(200, { 'Content-Type': 'application/json' });
          return res.end(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"status":"UP"}')]));
        default: return json(200, { status: 'UP' });
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  objects = synthApp(() => ({ verification: checks() })).objects;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

/** A check's metrics in the dev Stage's one template: its web metric and its guard. */
function metricsOf(check: string): { web: any; guard: any } {
  const [web, guard, ...rest] = find(objects, 'AnalysisTemplate', 'dev-verification').spec.metrics
    .filter((m: any) => m.name === check || m.name.startsWith(`${check}-`));
  expect(rest).toEqual([]);
  return { web, guard };
}

/** What the kubelet would give the container: plain values, and Secret values read by reference. */
function containerEnv(container: any): Record<string, string> {
  return Object.fromEntries((container.env ?? []).map((e: any) => {
    const ref = e.valueFrom?.secretKeyRef;
    return [e.name, ref ? SECRETS[ref.name][ref.key] : e.value];
  }));
}

/** Runs the guard's container command with its env (and PATH only) and returns exit code and output. */
async function runGuard(check: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const container = metricsOf(check).guard.provider.job.spec.template.spec.containers[0];
  const [cmd, ...args] = container.command;
  const child = spawn(cmd, args, { env: { PATH: process.env.PATH, ...containerEnv(container) } });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  return { code, stdout: stdout.trim(), stderr: stderr.trim() };
}

describe('the JSON guard of an HTTP check, run with node against a local server', () => {
  test('the template holds the web metric and its guard, measured on the same schedule', () => {
    const { web, guard } = metricsOf('json');
    expect(guard.name).toBe('json-answers-json');
    for (const field of ['initialDelay', 'interval', 'count', 'failureLimit', 'consecutiveErrorLimit']) expect(guard[field]).toEqual(web[field]);
    const container = guard.provider.job.spec.template.spec.containers[0];
    expect(container.image).toBe('docker.io/library/node:22-alpine');
    expect(containerEnv(container)).toEqual({ CHECK_URL: `${base}/json`, CHECK_METHOD: 'GET', CHECK_TIMEOUT_SECONDS: '10' });
    expect(container.securityContext).toMatchObject({ runAsNonRoot: true, readOnlyRootFilesystem: true, allowPrivilegeEscalation: false });
    expect(guard.provider.job.spec.template.spec.automountServiceAccountToken).toBe(false);
  });

  test('JSON with 200: exit 0', async () => {
    const result = await runGuard('json');
    expect(result).toEqual({ code: 0, stdout: `answers-json: ${base}/json answered 200 with JSON`, stderr: '' });
  });

  test('plain text with 200: fails, saying why', async () => {
    const result = await runGuard('text');
    expect(result.code).toBe(1);
    expect(result.stdout).toBe(`answers-json: ${base}/text answered 200 with a body that is not JSON (text/plain, 43 bytes): "OK: upstream unavailable, served from cache"`);
  });

  test('JSON with 500: fails', async () => {
    expect(await runGuard('error')).toMatchObject({ code: 1, stdout: `answers-json: ${base}/error answered 500, not 2xx` });
  });

  test('no answer within the timeout: fails', async () => {
    const started = Date.now();
    expect(await runGuard('slow')).toMatchObject({ code: 1, stdout: `answers-json: no answer from ${base}/slow within 1s` });
    expect(Date.now() - started).toBeLessThan(8000);
  });

  test('JSON behind a byte order mark: fails, as Go\'s encoding/json refuses it', async () => {
    expect((await runGuard('bom')).code).toBe(1);
  });

  test('headers are sent, the secret read from the Secret and never written into the Job or the log', async () => {
    const { web, guard } = metricsOf('auth');
    expect(web.provider.web.headers).toEqual([{ key: 'Authorization', value: 'Bearer {{args.token}}' }, { key: 'X-Probe', value: 'stage dev' }]);
    const env = guard.provider.job.spec.template.spec.containers[0].env;
    expect(env.filter((e: any) => e.name.startsWith('CHECK_HEADER_'))).toEqual([
      { name: 'CHECK_HEADER_0_NAME', value: 'Authorization' },
      { name: 'CHECK_HEADER_0_VALUE_0', value: 'Bearer ' },
      { name: 'CHECK_HEADER_0_VALUE_1', valueFrom: { secretKeyRef: { name: 'shop-probe', key: 'token' } } },
      { name: 'CHECK_HEADER_1_NAME', value: 'X-Probe' },
      { name: 'CHECK_HEADER_1_VALUE', value: 'stage dev' },
    ]);
    expect(JSON.stringify(guard)).not.toContain('args.token');
    const result = await runGuard('auth');
    expect(result.code).toBe(0);
    expect(result.stdout + result.stderr).not.toContain('s3cret');
    expect(received.get('/auth')?.headers).toMatchObject({ 'authorization': 'Bearer s3cret-token-value', 'x-probe': 'stage dev' });
  });

  test('a POST sends its body, without a Content-Type the web metric would not send', async () => {
    expect((await runGuard('post')).code).toBe(0);
    const request = received.get('/post')!;
    expect([request.method, request.body, request.headers['content-type']]).toEqual(['POST', '{"stage": "dev"}', undefined]);
  });
});
