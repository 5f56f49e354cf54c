import { execFileSync } from 'child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'fs';
import { join } from 'path';
import { Kube, Obj, waitFor } from './kube';
import { log } from './log';
import { containerEnv, installOrder, parseDocs, WORKLOAD_KINDS } from './manifests';
import { Pki } from './pki';
import { freePort } from './ports';
import { Processes } from './procs';

export const KARGO_NAMESPACE = 'kargo';

export interface KargoOptions {
  readonly dir: string;
  readonly bin: string;
  readonly pki: Pki;
  readonly procs: Processes;
  readonly hub: Kube;
  /** Kargo's chart, as its Go module ships it (`charts/kargo`). */
  readonly chartDir: string;
  /** PATH for the controller: a git >= 2.42 that trusts the suite's CA first. */
  readonly gitPath: string;
  readonly argocdNamespace: string;
}

export interface KargoInstall {
  /** The external webhooks server (receivers), https. */
  readonly externalWebhooksUrl: string;
  /** The API server, http on loopback. */
  readonly apiUrl: string;
}

/**
 * Installs Kargo on the hub the way its chart does, without the pods: `helm template` of the
 * chart from Kargo's Go module, every object but the workloads (CRDs, namespaces, RBAC,
 * ConfigMaps, the webhook configurations pointed at the loopback webhooks server), then each
 * component as a process of `kargo` (cmd/controlplane) with the environment its Deployment
 * gives it and a client certificate of its ServiceAccount, so the chart's RBAC is what it gets.
 */
export async function installKargo(o: KargoOptions): Promise<KargoInstall> {
  const webhookPort = await freePort();
  const externalPort = await freePort();
  const apiPort = await freePort();
  const externalWebhooksUrl = `https://localhost:${externalPort}`;
  const apiUrl = `http://127.0.0.1:${apiPort}`;
  const rendered = execFileSync(join(o.bin, 'helm'), [
    'template', 'kargo', o.chartDir, '--namespace', KARGO_NAMESPACE, '--include-crds',
    '--set', 'api.adminAccount.enabled=false',
    '--set', 'api.tls.enabled=false',
    '--set', `api.host=127.0.0.1:${apiPort}`,
    '--set', `externalWebhooksServer.host=localhost:${externalPort}`,
    '--set', `controller.argocd.namespace=${o.argocdNamespace}`,
    '--set', 'controller.logLevel=DEBUG',
    '--set', 'garbageCollector.enabled=false',
  ], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  writeFileSync(join(o.dir, 'kargo-chart.yaml'), rendered);
  const objs = parseDocs(rendered);
  const caBundle = Buffer.from(readFileSync(o.pki.ca.cert)).toString('base64');
  await o.hub.apply({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: KARGO_NAMESPACE } });
  let applied = 0;
  for (const obj of installOrder(objs.filter(x => !WORKLOAD_KINDS.has(x.kind)))) {
    if (obj.kind === 'MutatingWebhookConfiguration' || obj.kind === 'ValidatingWebhookConfiguration') {
      for (const w of obj.webhooks ?? []) {
        w.clientConfig = { url: `https://127.0.0.1:${webhookPort}${w.clientConfig.service.path}`, caBundle };
      }
      delete obj.metadata.annotations?.['cert-manager.io/inject-ca-from'];
    }
    await o.hub.apply(obj);
    applied++;
    if (obj.kind === 'CustomResourceDefinition') await waitEstablished(o.hub, obj.metadata.name);
  }
  log(`kargo: applied ${applied} objects of its chart (webhooks at https://127.0.0.1:${webhookPort})`);

  const deployments = objs.filter(x => x.kind === 'Deployment');
  const certDir = join(o.dir, 'kargo-webhooks-tmp', 'k8s-webhook-server', 'serving-certs');
  mkdirSync(certDir, { recursive: true });
  writeFileSync(join(certDir, 'tls.crt'), readFileSync(o.pki.serving.cert));
  writeFileSync(join(certDir, 'tls.key'), readFileSync(o.pki.serving.key));
  const overrides: Record<string, Record<string, string>> = {
    'kargo-webhooks-server': { WEBHOOK_SERVER_PORT: `${webhookPort}`, TMPDIR: join(o.dir, 'kargo-webhooks-tmp') },
    'kargo-external-webhooks-server': { PORT: `${externalPort}`, BIND_ADDRESS: '127.0.0.1', TLS_ENABLED: 'true', TLS_CERT_PATH: o.pki.serving.cert, TLS_KEY_PATH: o.pki.serving.key },
    'kargo-api': { PORT: `${apiPort}`, BIND_ADDRESS: '127.0.0.1' },
    'kargo-management-controller': { EXTERNAL_WEBHOOK_SERVER_BASE_URL: externalWebhooksUrl },
    'kargo-controller': { PATH: `${o.gitPath}:${process.env.PATH}` },
  };
  for (const d of deployments) {
    const name = d.metadata.name;
    const sa = d.spec.template.spec.serviceAccountName ?? 'default';
    const cert = o.pki.client(name, `system:serviceaccount:${KARGO_NAMESPACE}:${sa}`, ['system:serviceaccounts', `system:serviceaccounts:${KARGO_NAMESPACE}`, 'system:authenticated']);
    const kubeconfig = o.hub.as(name, cert).writeKubeconfig(join(o.dir, `${name}.kubeconfig`), KARGO_NAMESPACE);
    const container = d.spec.template.spec.containers[0];
    const env = {
      ...containerEnv(d, objs),
      KUBECONFIG: kubeconfig,
      ARGOCD_KUBECONFIG: kubeconfig,
      METRICS_BIND_ADDRESS: '0',
      HOME: join(o.dir, `${name}-home`),
      ...overrides[name] ?? {},
    };
    mkdirSync(env.HOME, { recursive: true });
    // the chart gives the subcommand in `args` or after the binary in `command` (kargo-api)
    const subcommand = [...(container.command ?? []).slice(1).filter((a: string) => !a.startsWith('/') && a !== '--'), ...container.args ?? []];
    o.procs.start(name, join(o.bin, 'controlplane'), subcommand, { env });
  }
  await waitFor('kargo webhooks server', 120_000, () => tcpOpen(webhookPort), 1000);
  log(`kargo: started ${deployments.map(d => d.metadata.name).join(', ')}`);
  return { externalWebhooksUrl, apiUrl };
}

/** Waits until a CRD's names are accepted, so objects of it can be applied right after. */
export async function waitEstablished(kube: Kube, crd: string): Promise<void> {
  await waitFor(`CRD ${crd} established`, 60_000, async () => {
    const o: Obj | undefined = await kube.get('apiextensions.k8s.io/v1', 'CustomResourceDefinition', undefined, crd);
    return o?.status?.conditions?.some((c: any) => c.type === 'Established' && c.status === 'True');
  }, 200);
}

async function tcpOpen(port: number): Promise<boolean> {
  const { connect } = await import('net');
  return new Promise(resolve => {
    const s = connect(port, '127.0.0.1');
    s.on('connect', () => { s.destroy(); resolve(true); });
    s.on('error', () => resolve(false));
  });
}
