import * as fs from 'fs';
import * as path from 'path';
import { App, Duration } from 'cdk8s';
import { IConstruct } from 'constructs';
import { controllerLoadMarkdown } from './controller-load-markdown';
import { DeclaredReceiver, fleetLeadTimeLines, leadTimeLines, receiverLines } from './lead-time-report';
import { PlatformApp } from '../app/platform-app';
import { ArgoCdTopologyKind } from '../fleet/argocd-topology';
import { ClusterFleet } from '../fleet/cluster-fleet';
import { controllerLoadOf } from '../load/controller-load';
import { JoinKind } from '../pipeline/join';
import { IPlatformApp, isPlannedApp } from '../plan/planned-app';
import { hasOwnNamespace, ReleasePlan } from '../plan/release-plan';
import { toGoDuration } from '../util/duration';
import { mdCode, mdText, mermaidText } from '../util/markdown';
import { redactSecrets } from '../util/redact';

/**
 * Human-readable companions of the synthesized YAML, for review in pull requests: each app's
 * release plan (a Mermaid graph of its promotion track and a table of stages, clusters, gates and
 * checks) and the fleet's controller shard report. One file per app and one for the fleet, so a
 * change to one app changes only that app's files.
 *
 * @example
 * app.synth();
 * PlatformReport.write(app); // <app>.plan.md and <fleet>.fleet.md next to the YAML
 */
export class PlatformReport {
  /** The release plan of one app, as Markdown with a Mermaid graph. */
  public static renderApp(app: IPlatformApp): string {
    const plan = app.plan;
    const lines: string[] = [
      `# ${plan.app}`,
      '',
      `Owned by team ${mdText(app.owner.team)} (${mdText(app.owner.contact)}). Kargo Project ${mdCode(plan.project)}; `
        + `deployed to namespace ${mdCode(plan.destinationNamespace)} on ${plan.clusters.length} cluster(s)${stageNamespaces(plan)}.`,
      '',
      '```mermaid',
      'flowchart LR',
      `  warehouse[("Warehouse ${mermaidText(plan.app)}")]`,
    ];
    for (const stage of plan.stages) {
      const frozen = stage.freezes.length > 0 ? `<br/>frozen: ${stage.freezes.map(f => mermaidText(f.reason)).join('; ')}` : '';
      lines.push(`  subgraph stage_${id(stage.name)}["${mermaidText(stage.name)}: ${stage.controlFlow ? 'control flow' : stage.approval}${stage.production ? ', production' : ''}${frozen}"]`);
      for (const wave of stage.waves) {
        const where = wave.argoCd === ArgoCdTopologyKind.CENTRAL ? 'central Argo CD' : `own Argo CD, shard ${wave.kargoShard}`;
        lines.push(wave.controlFlow
          ? `    ${id(wave.kargoStage)}{{"${mermaidText(wave.kargoStage)}<br/>control flow"}}`
          : `    ${id(wave.kargoStage)}["${mermaidText(wave.kargoStage)}<br/>${wave.clusters.length} cluster(s), ${where}"]`);
      }
      lines.push('  end');
    }
    // the critical path of the lead time in bold (==>), its Stages highlighted
    const critical = app.leadTime?.criticalPath ?? [];
    const arrow = (from: string | undefined, to: string) =>
      (critical.indexOf(to) >= 0 && critical.indexOf(to) === (from === undefined ? 0 : critical.indexOf(from) + 1) ? '==>' : '-->');
    for (const wave of plan.stages.flatMap(s => s.waves)) {
      if (wave.upstreams.length === 0) {
        lines.push(`  warehouse ${arrow(undefined, wave.kargoStage)} ${id(wave.kargoStage)}`);
      }
      const label = [wave.join === JoinKind.ANY_OF ? 'any of' : '', wave.soak ? `soak ${wave.soak}` : ''].filter(l => l !== '').join(', ');
      for (const up of wave.upstreams) {
        lines.push(`  ${id(up)} ${arrow(up, wave.kargoStage)}${label ? `|${mermaidText(label)}|` : ''} ${id(wave.kargoStage)}`);
      }
    }
    if (critical.length > 0) lines.push('  classDef critical stroke-width:3px', `  class ${critical.map(id).join(',')} critical`);
    lines.push('```', '', '| Kargo Stage | gate | soak | checks | earliest | release branch | clusters |',
      '| --- | --- | --- | --- | --- | --- | --- |');
    for (const stage of plan.stages) {
      for (const wave of stage.waves) {
        const gate = wave.controlFlow ? `control flow${wave.join === JoinKind.ANY_OF ? ', any of upstreams' : ''}`
          : `${stage.approval}${stage.gated ? ` (${stage.promoters.map(mdText).join(', ')})` : ''}`;
        // a soak is waited in the upstreams' verification: the upstream's checks say so
        const soak = wave.soak === undefined ? '' : `${wave.soak} (waited in the checks of ${wave.upstreams.join(', ')})`;
        const checks = [...wave.controlFlow ? [] : stage.verification, ...wave.verificationSoak ? [`soak ${wave.verificationSoak}`] : []];
        lines.push(`| ${mdText(wave.kargoStage)} | ${gate} | ${mdText(soak)} | ${checks.map(mdText).join(', ')} | ${earliest(wave.earliestSeconds)} `
          + `| ${wave.releaseBranch ? mdCode(wave.releaseBranch) : ''} | ${wave.clusters.map(mdText).join(', ')} |`);
      }
    }
    lines.push('', 'Earliest: how long after a release Freight can reach the Stage, from the soaks on the way; promotions, '
      + 'and checks that take longer than a soak, add to it.');
    if (app.leadTime) lines.push(...leadTimeLines(app.leadTime));
    lines.push(...freezeLines(plan));
    lines.push('', `Artifacts: ${app.artifacts.map(a => `${a.kind} ${mdCode(a.repoUrl)}`).join(', ')}.`);
    if (app.exemptions.length > 0) {
      lines.push('', 'Standards exemptions:', '', ...app.exemptions.map(e => `- ${mdCode(e.ruleId)}: ${mdText(e.justification)}`));
    }
    return redactSecrets(`${lines.join('\n')}\n`);
  }

  /**
   * The fleet's clusters by topology, its application controller shards, the lead time of each
   * of `apps` (slowest first) and the webhook receivers to register upstream, as Markdown.
   */
  public static renderFleet(fleet: ClusterFleet, apps: IPlatformApp[] = []): string {
    const clusters = fleet.clusters;
    const own = clusters.filter(c => c.argoCd.kind === ArgoCdTopologyKind.PER_CLUSTER);
    const lines = [
      `# Fleet ${fleet.fleetName}`,
      '',
      `${clusters.length} clusters: ${clusters.length - own.length} on the central Argo CD (namespace \`${fleet.argoCdNamespace}\`), `
        + `${own.length} with their own Argo CD.`,
    ];
    const report = fleet.reportShards();
    if (report) {
      lines.push('', `## Application controller shards (imbalance ${report.imbalancePercent}%)`, '',
        '| shard | Applications | clusters |', '| --- | --- | --- |',
        ...report.shards.map(s => `| ${s.shard} | ${s.applications} | ${s.clusters.length} |`));
    }
    if (own.length > 0) {
      lines.push('', '## Clusters with their own Argo CD', '', '| cluster | Kargo shard | Argo CD namespace |', '| --- | --- | --- |',
        ...own.map(c => `| ${c.name} | ${c.kargoShard} | ${c.argoCd.namespace} |`));
    }
    lines.push(...fleetLeadTimeLines(apps));
    const receivers: DeclaredReceiver[] = [
      ...(fleet.webhookReceivers ?? []).map(receiver => ({ receiver })),
      ...apps.flatMap(a => (PlatformApp.isPlatformApp(a) ? a.webhookReceivers : []).map(receiver => ({ receiver, project: a.plan.project }))),
    ];
    lines.push(...receiverLines(receivers));
    lines.push(...timeZoneLines(apps));
    return redactSecrets(`${lines.join('\n')}\n`);
  }

  /**
   * The load the synthesized objects of every app and fleet under `scope`'s root put on Argo CD
   * (per instance and application-controller shard), Kargo (per shard), the registries and Git
   * hosts the Warehouses poll, and the release repositories, as Markdown.
   */
  public static renderControllerLoad(scope: IConstruct): string {
    return redactSecrets(`${controllerLoadMarkdown(controllerLoadOf(scope.node.root)).join('\n').replace(/^\n/, '')}\n`);
  }

  /**
   * Writes `<app>.plan.md` for every app and `<fleet>.fleet.md` for every fleet into the app's
   * output directory, the fleet report followed by the controller load; call it after `app.synth()`.
   */
  public static write(app: App): void {
    const all = app.node.findAll();
    const apps = all.filter(isPlannedApp);
    for (const c of apps) fs.writeFileSync(path.join(app.outdir, `${c.appName}.plan.md`), PlatformReport.renderApp(c));
    let load: string | undefined; // the whole app's, the same in every fleet's file
    for (const c of all.filter(ClusterFleet.isClusterFleet)) {
      const onFleet = apps.filter(a => !PlatformApp.isPlatformApp(a) || a.fleet === c);
      load ??= PlatformReport.renderControllerLoad(app);
      fs.writeFileSync(path.join(app.outdir, `${c.fleetName}.fleet.md`), `${PlatformReport.renderFleet(c, onFleet)}\n${load}`);
    }
  }

  private constructor() {}
}

/**
 * The deploy freezes per stage: when they hold, whether a person may still promote, and the
 * app's override. Whether one is active depends on the time: `cdk8s-gitops-platform plan --now`
 * evaluates that.
 */
function freezeLines(plan: ReleasePlan): string[] {
  const rows = plan.stages.flatMap(s => s.freezes.map(f => `| ${mdText(s.name)} | ${mdText(f.reason)} | ${mdCode(f.schedule)} for ${mdText(f.duration)} (${mdText(f.timeZone)}) `
    + `| ${f.manualSync ? 'yes' : 'no'} | ${f.origin} |`));
  if (rows.length === 0) return [];
  const lines = ['', '## Deploy freezes', '', 'Argo CD deny sync windows on the stage\'s Applications; a Kargo promotion into the stage fails before it pushes while one is open (or opens within the sync timeout), with the reason.', '',
    '| stage | reason | when | manual promotion | from |', '| --- | --- | --- | --- | --- |', ...rows];
  if (plan.freezeOverride) lines.push('', `**Freeze override:** ${mdText(plan.freezeOverride)}`);
  return lines;
}

/**
 * The time zones the apps' freeze steps load in the Kargo controller: expr's `timezone()` is Go's
 * `time.LoadLocation`, and Kargo v1.11.2's controller image carries no zone data (no `tzdata`
 * package, no `timetzdata` build tag), so any zone but UTC errors every promotion into the frozen
 * Stage unless the platform provides it.
 */
function timeZoneLines(apps: IPlatformApp[]): string[] {
  const zones = new Map<string, Set<string>>();
  for (const a of apps) {
    for (const f of a.plan.stages.flatMap(s => s.freezes)) {
      if (f.timeZone === 'UTC') continue;
      zones.set(f.timeZone, (zones.get(f.timeZone) ?? new Set()).add(a.appName));
    }
  }
  if (zones.size === 0) return [];
  return ['', '## Time zones the Kargo controller must load', '',
    'Deploy freezes are checked by the Kargo controller in these zones (Go\'s `time.LoadLocation`). Kargo v1.11.2\'s image has no zone '
      + 'data: mount the zone database into the controller (`/usr/share/zoneinfo`, or `ZONEINFO`), or every promotion into a frozen '
      + 'stage errors, freeze or not.', '',
    ...[...zones].sort(([a], [b]) => a.localeCompare(b)).map(([zone, names]) => `- ${mdCode(zone)}: ${[...names].sort().map(mdText).join(', ')}`)];
}

/** Mermaid node ids: letters, digits and underscores. */
function id(name: string): string {
  return `s_${name.replace(/[^A-Za-z0-9]/g, '_')}`;
}

/** A number of seconds as a Kargo duration, `0` for none. */
function earliest(seconds: number): string {
  return seconds === 0 ? '0' : toGoDuration(Duration.seconds(seconds));
}

/** The stages with a namespace of their own, for the report's first line. */
function stageNamespaces(plan: ReleasePlan): string {
  const own = plan.stages.filter(s => hasOwnNamespace(plan, s));
  return own.length === 0 ? '' : ` (${own.map(s => `stage ${mdText(s.name)} in ${mdCode(s.namespace)}`).join(', ')})`;
}
