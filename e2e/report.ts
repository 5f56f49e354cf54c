import { basename } from 'path';
import type { StatusCall } from './lib/status';

/** When a release reached a Stage and its clusters, in seconds after the push. */
export interface StageTiming {
  readonly stage: string;
  readonly promotion?: string;
  readonly outcome: string;
  readonly created?: number;
  readonly renderedAt?: number;
  readonly syncStarted?: number;
  readonly finished?: number;
  /** Seconds after the push when each cluster ran the release. */
  readonly clusters: Record<string, number>;
}

export interface ReleaseTiming {
  readonly release: string;
  readonly pushedAt: number;
  readonly discoverySeconds: number;
  readonly stages: StageTiming[];
}

const f = (n?: number) => n === undefined ? '' : n.toFixed(1);

/** The suite's report: scenarios, then one table row per release, Stage and cluster. */
export interface ScenarioResult {
  readonly name: string;
  readonly title: string;
  readonly ok: boolean;
  readonly seconds: number;
  readonly error?: string;
  /** A broken variant's failure, as it must fail. */
  readonly expectedFailure?: string;
}

export function renderReport(results: ScenarioResult[], timings: ReleaseTiming[], buildSeconds: number,
  statuses: readonly StatusCall[] = []): string {
  const out: string[] = ['# e2e report', ''];
  out.push(`Build and start: ${buildSeconds.toFixed(0)} s of build before the control plane started.`, '');
  out.push('| scenario | outcome | seconds |', '| --- | --- | --- |');
  const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ').slice(0, 300);
  for (const r of results) {
    const outcome = !r.ok ? `FAILED: ${cell(r.error ?? '')}` : r.expectedFailure ? `failed as it must: ${cell(r.expectedFailure)}` : 'passed';
    out.push(`| ${r.name}: ${r.title} | ${outcome} | ${r.seconds.toFixed(0)} |`);
  }
  out.push('', 'Seconds after the push: Freight discovered, Promotion created, manifests rendered and pushed, Argo CD sync started, Promotion finished, cluster running the release.', '');
  out.push('| release | Stage | cluster | outcome | discovery | promotion created | rendered | sync started | promotion finished | on the cluster |');
  out.push('| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |');
  for (const t of timings) {
    for (const s of t.stages) {
      for (const [cluster, at] of Object.entries(s.clusters)) {
        out.push(`| ${t.release} | ${s.stage} | ${cluster} | ${s.outcome} | ${f(t.discoverySeconds)} | ${f(s.created)} | ${f(s.renderedAt)} | ${f(s.syncStarted)} | ${f(s.finished)} | ${f(at)} |`);
      }
    }
  }
  if (statuses.length > 0) {
    out.push('', '`cdk8s-gitops-platform status` on the release repository Kargo wrote (and with `--live`, the hub), as the scenarios ran it:', '');
    out.push('| when | arguments | exit | answer |', '| --- | --- | --- | --- |');
    for (const c of statuses) out.push(`| ${c.label} | \`${c.args.map(a => a.endsWith('.kubeconfig') ? basename(a) : a).join(' ')}\` | ${c.code} | ${c.summary} |`);
  }
  out.push('');
  return out.join('\n');
}
