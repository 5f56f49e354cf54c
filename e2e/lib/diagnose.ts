import { readFileSync } from 'fs';
import { Kube } from './kube';
import { Processes } from './procs';

/** Log lines that match the pattern but say nothing about a failure. */
const NOISE = /stats\.go|grpc: addrConn|Memory overcommit|TLS handshake error|createTransport/;

/** What the suite prints when something fails: object statuses on the hub and the controllers' relevant log lines. */
export async function diagnose(hub: Kube | undefined, procs: Processes, names: string[] = []): Promise<string> {
  const out: string[] = [];
  if (hub) {
    const kinds: Array<[string, string]> = [
      ['kargo.akuity.io/v1alpha1', 'Project'], ['kargo.akuity.io/v1alpha1', 'Warehouse'], ['kargo.akuity.io/v1alpha1', 'Stage'],
      ['kargo.akuity.io/v1alpha1', 'Promotion'], ['argoproj.io/v1alpha1', 'Application'], ['argoproj.io/v1alpha1', 'ApplicationSet'],
      ['argoproj.io/v1alpha1', 'AnalysisRun'],
    ];
    for (const [apiVersion, kind] of kinds) {
      try {
        for (const o of await hub.list(apiVersion, kind)) out.push(`${kind} ${o.metadata.namespace ?? ''}/${o.metadata.name}: ${summarize(o)}`);
      } catch (e) {
        out.push(`${kind}: ${(e as Error).message}`);
      }
    }
  }
  const pattern = /error|fail|refus|denied|forbidden|invalid/i;
  for (const p of procs.all) {
    let lines: string[] = [];
    try {
      lines = readFileSync(p.logFile, 'utf8').split('\n');
    } catch {
      continue;
    }
    const hits = lines.filter(l => pattern.test(l) && !NOISE.test(l) && (names.length === 0 || names.some(n => l.includes(n)))).slice(-8);
    if (hits.length > 0 || p.exitCode !== undefined) {
      out.push(`--- ${p.name} (pid ${p.pid}${p.exitCode !== undefined ? `, exited ${p.exitCode}` : ''}) ${p.logFile}`);
      out.push(...(hits.length > 0 ? hits : lines.slice(-10)).map(l => `  ${l.slice(0, 400)}`));
    }
  }
  return out.join('\n');
}

/** One line of an object's status: phase, health, sync, Ready condition, message. */
export function summarize(o: any): string {
  const s = o.status ?? {};
  const parts: string[] = [];
  if (s.phase) parts.push(`phase=${s.phase}`);
  if (s.health?.status) parts.push(`health=${s.health.status}`);
  if (s.sync?.status) parts.push(`sync=${s.sync.status}@${(s.sync.revision ?? '').slice(0, 8)}`);
  if (s.operationState?.phase) parts.push(`operation=${s.operationState.phase}${s.operationState.message ? ` (${s.operationState.message.slice(0, 200)})` : ''}`);
  for (const c of s.conditions ?? []) {
    if (c.type === 'Ready' || c.status === 'True' && /Error|Failed/.test(c.type) || c.type === 'Healthy' || c.type === 'Verified') {
      parts.push(`${c.type}=${c.status}${c.message ? ` (${String(c.message).slice(0, 200)})` : ''}`);
    }
  }
  if (s.lastPromotion?.freight?.name) parts.push(`lastPromotion=${s.lastPromotion.freight.name}`);
  if (s.freightSummary) parts.push(`freight=${s.freightSummary}`);
  if (s.message) parts.push(`message=${String(s.message).slice(0, 200)}`);
  return parts.join(' ') || '(no status)';
}
