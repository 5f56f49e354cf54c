import { Duration } from 'cdk8s';
import { SYSTEM_RESOURCES_NAMESPACE } from '../fleet/webhook-config';
import { WebhookReceiver, WebhookReceiverKind } from '../fleet/webhook-receiver';
import { DiscoveryMode, LeadTime, LeadTimeApproval } from '../plan/lead-time';
import { IPlatformApp } from '../plan/planned-app';
import { toGoDuration } from '../util/duration';
import { mdCode, mdText } from '../util/markdown';

/** A number of seconds as a Kargo duration, `0` for none. @internal */
export function formatSeconds(seconds: number): string {
  return seconds === 0 ? '0' : toGoDuration(Duration.seconds(Math.round(seconds)));
}

/** `polling every 5m0s` or `webhook (github-acme; polling every 1h as fallback)`. @internal */
export function discoveryText(lt: LeadTime): string {
  const d = lt.discovery;
  if (d.mode === DiscoveryMode.WEBHOOK) return `webhook (${d.receivers.join(', ')}; polling every ${d.interval} as fallback)`;
  const notes = [
    ...d.polled.length > 0 && d.receivers.length > 0 ? [`no ready receiver covers ${d.polled.join(', ')}`] : [],
    ...(d.notReady ?? []).length > 0 ? [`receiver(s) ${d.notReady.join(', ')} not declared ready`] : [],
  ];
  return `polling every ${d.interval}${notes.length > 0 ? ` (${notes.join('; ')})` : ''}`;
}

function approvalText(a: LeadTimeApproval): string {
  const how = a.approval === 'automatic' ? 'promoted by hand' : a.approval;
  return `${mdText(a.kargoStage)} (${how}, ${a.promoters.map(mdText).join(', ')})`;
}

/**
 * The lead time section of `<app>.plan.md`: the total, a line per path from the Warehouse to a
 * terminal Stage (the critical one marked), the biggest contributors, the approvals and freezes.
 * @internal
 */
export function leadTimeLines(lt: LeadTime): string[] {
  const approvals = lt.approvals.length === 0 ? 'no approval'
    : `${lt.approvals.length} approval(s) a person gives, not estimated: ${lt.approvals.map(approvalText).join(', ')}`;
  const lines = [
    '', '## Lead time', '',
    `At least **${formatSeconds(lt.seconds)}** from a new artifact to a verified release on every cluster, and ${approvals}. `
      + `Discovery: ${mdText(discoveryText(lt))}. Promotion steps and Argo CD syncs add to it; the critical path is drawn in bold above.`,
    '',
    ...lt.paths.map(p => `- ${['Warehouse', ...p.waves].map(mdText).join(' → ')}: ${formatSeconds(p.seconds)}`
      + `${p.critical ? ' **(critical path)**' : p.binding ? '' : ' (not waited for: a join takes another branch)'}`),
  ];
  if (lt.contributors.length > 0) {
    lines.push('', `Biggest contributors: ${lt.contributors.slice(0, 5).map(c => `${mdText(c.what)} ${formatSeconds(c.seconds)}`).join(', ')}.`);
  }
  if (lt.freezes.length > 0) lines.push('', `Freezes on the way (a release waits while one holds): ${lt.freezes.map(mdText).join('; ')}.`);
  return lines;
}

/**
 * The fleet report's lead time table, slowest first.
 * @internal
 */
export function fleetLeadTimeLines(apps: IPlatformApp[]): string[] {
  const timed = apps.filter(a => a.leadTime !== undefined)
    .sort((a, b) => b.leadTime!.seconds - a.leadTime!.seconds || a.appName.localeCompare(b.appName));
  if (timed.length === 0) return [];
  return [
    '', '## Lead times (slowest first)', '',
    'The least time from a new artifact to a verified release on every cluster of the app (see each `<app>.plan.md`); approvals are counted, not estimated.', '',
    '| app | lead time | approvals | discovery | biggest contributor |', '| --- | --- | --- | --- | --- |',
    ...timed.map(a => {
      const lt = a.leadTime!;
      const top = lt.contributors[0];
      return `| ${mdText(a.appName)} | ${formatSeconds(lt.seconds)} | ${lt.approvals.length} | ${mdText(discoveryText(lt))} `
        + `| ${top ? `${mdText(top.what)} ${formatSeconds(top.seconds)}` : ''} |`;
    }),
  ];
}

/** A receiver and where it is declared: the platform's ClusterConfig or an app's ProjectConfig. @internal */
export interface DeclaredReceiver {
  readonly receiver: WebhookReceiver;
  /** The Kargo Project of an app's own receiver; undefined for the platform's. */
  readonly project?: string;
}

/**
 * The receivers to register upstream and the Secrets they need. Kargo derives each URL from its
 * external webhook server's base URL, the receiver kind and a SHA-256 of the project (empty for
 * the cluster), the receiver name and the Secret's value (pkg/webhook/external/receiver.go,
 * `NewReceiver`, `getDetails`, `buildWebhookPath`), so only Kargo can say it: it writes it to the
 * config's `status.webhookReceivers[].url`, once the Secret holds its key (without it the whole
 * config is not Ready and no receiver of it works).
 * @internal
 */
export function receiverLines(receivers: DeclaredReceiver[]): string[] {
  if (receivers.length === 0) return [];
  const rows = receivers.map(({ receiver: r, project }) => {
    const where = project === undefined ? 'clusterconfig cluster' : `projectconfig ${project} -n ${project}`;
    const namespace = project ?? SYSTEM_RESOURCES_NAMESPACE;
    const secret = `${mdCode(r.secretName)} in ${mdCode(namespace)}, key ${mdCode(r.secretKey)}`
      + (r.secretSource === undefined ? ' (create it)' : ` (written empty; filled by ${mdText(r.secretSource)})`);
    const url = `kubectl get ${where} -o jsonpath='{.status.webhookReceivers[?(@.name=="${r.name}")].url}'`;
    return `| ${mdText(r.name)} | ${project === undefined ? 'platform' : `project ${mdText(project)}`} | ${r.kind} | ${secret} `
      + `| ${r.ready ? 'yes' : 'no: covered Warehouses poll every 5m0s'} | ${r.repoUrls.map(mdCode).join(', ')} | ${mdCode(url)} |`;
  });
  return [
    '', '## Webhook receivers to register', '',
    'Each receiver needs its Secret, holding the key named below: until it does, Kargo reports the config not `Ready` and none of its '
      + 'receivers works. Then register each receiver as a webhook of the repositories it covers (push events; package events for '
      + 'registries). Its URL is `<Kargo external webhook server base URL>/<kind>/<sha256 of project, name and secret>`, so Kargo '
      + 'reports it in the status of the config. Declare a receiver `ready` once it works: only then do the Warehouses it covers '
      + 'poll at the fallback interval instead of every 5 minutes.'
      + (receivers.some(({ receiver }) => receiver.kind === WebhookReceiverKind.GENERIC)
        ? ' A generic receiver takes any sender (e.g. an Amazon EventBridge API destination for ECR pushes): '
          + 'send it the event as a JSON body, from which its expression reads the repository.'
        : ''),
    '', '| receiver | scope | kind | Secret | ready | register for | URL |', '| --- | --- | --- | --- | --- | --- | --- |', ...rows,
  ];
}
