import { normalizeRepo } from './status-filters';
import { AppStatus, ArtifactOutput, ClusterStatus, clustersOf, ReleaseOutput, StatusOutput } from './status-model';
import { RecordedArtifact } from '../../contracts/release-record';
import { mdCode, mdText } from '../../util/markdown';

/** Clusters a table cell names before `and N more` (the JSON lists every one). */
export const CLUSTERS_PER_CELL = 6;

/**
 * The Markdown of `status`: a person reads it in a pull request or a chat. One table per app:
 * a row per stage and wave, clusters with the same release on one row, a column per artifact;
 * a version other than the first row's is bold, and what needs a look (not rendered yet, left
 * behind, changed by hand, drift) is flagged with ⚠ under the table.
 */
export function renderStatus(output: StatusOutput): string {
  const lines: string[] = [];
  if (output.query) lines.push(...queryLines(output));
  else lines.push('# Release status', '', summaryLine(output));
  lines.push('', ...sourceLines(output));
  if (!output.query) for (const app of output.apps) lines.push('', ...appLines(app, output.live !== undefined));
  return `${lines.join('\n')}\n`;
}

function summaryLine(output: StatusOutput): string {
  const s = output.summary;
  const parts = [`${s.rendered} rendered`];
  if (s.notRendered) parts.push(`⚠ ${s.notRendered} not rendered yet`);
  if (s.orphans) parts.push(`⚠ ${s.orphans} folder(s) left behind`);
  if (s.drifted !== undefined) parts.push(s.drifted ? `⚠ ${s.drifted} drifted` : 'no drift');
  return `${s.clusters} cluster(s) of ${output.apps.length} app(s): ${parts.join(', ')}.`;
}

function sourceLines(output: StatusOutput): string[] {
  const lines = output.repositories.map((r) => (r.fetched
    ? `Read ${r.branches} release branch(es) of ${mdCode(r.url)}, fetched from ${mdCode(r.readFrom)}.`
    : `Read ${r.branches} release branch(es) of ${mdCode(r.url)} in ${mdCode(r.readFrom)}, as of its last fetch.`));
  if (output.live) lines.push(`Live: Argo CD and Kargo on ${mdCode(output.live.server)} (context ${mdCode(output.live.context)}).`);
  return lines;
}

interface Row {
  readonly stage: string;
  readonly wave: string;
  readonly clusters: ClusterStatus[];
}

/** The clusters of each wave, grouped by what they run. */
function rowsOf(app: AppStatus): Row[] {
  const rows: Row[] = [];
  for (const stage of app.stages) {
    for (const wave of stage.waves) {
      const groups = new Map<string, ClusterStatus[]>();
      for (const c of wave.clusters) {
        const key = c.state === 'rendered' ? `r ${releaseKey(app.artifacts, c.release)}` : `n ${c.reason}`;
        groups.set(key, [...groups.get(key) ?? [], c]);
      }
      for (const clusters of groups.values()) rows.push({ stage: stage.name, wave: wave.name, clusters });
    }
  }
  return rows;
}

function releaseKey(artifacts: ArtifactOutput[], r: ReleaseOutput | undefined): string {
  if (!r) return 'unrecorded';
  return [r.freight, r.commitsAfter > 0, ...artifacts.map((a) => versionText(a, r))].join(' ');
}

/** A recorded artifact's version as a cell shows it: the tag (with the digest for an image followed by digest), the chart version, a short commit. */
export function versionText(a: ArtifactOutput, r: { readonly artifacts: RecordedArtifact[] } | undefined): string {
  const x = r?.artifacts.find((v) => sameArtifact(a, v));
  if (!x) return '';
  if (x.kind === 'git') return x.version.slice(0, 7);
  if (x.kind === 'image' && a.byDigest && x.digest) return `${x.version}@${x.digest.replace(/^sha256:/, '').slice(0, 12)}`;
  return x.version;
}

function sameArtifact(a: ArtifactOutput, v: RecordedArtifact): boolean {
  return a.kind === v.kind && normalizeRepo(a.repoUrl) === normalizeRepo(v.repoUrl) && (a.name ?? '') === (v.name ?? '');
}

function appLines(app: AppStatus, live: boolean): string[] {
  const rows = rowsOf(app);
  const reference = rows.find((r) => r.clusters[0].release)?.clusters[0].release;
  const referenceRow = rows.find((r) => r.clusters[0].release);
  const header = ['stage', 'wave', 'clusters', ...app.artifacts.map((a) => `${mdText(a.label)} (${a.kind})`), 'Freight', 'promoted', ...(live ? ['Argo CD'] : [])];
  let bold = false;
  const body = rows.map((row) => {
    const first = row.clusters[0];
    const cells = app.artifacts.map((a) => {
      const v = versionText(a, first.release);
      if (!v) return first.state === 'rendered' ? '?' : '–';
      const differs = reference !== undefined && v !== versionText(a, reference);
      bold ||= differs;
      return differs ? `**${mdCode(v)}**` : mdCode(v);
    });
    return `| ${mdText(row.stage)} | ${mdText(row.wave)} | ${clusterList(row.clusters.map((c) => c.cluster))} | ${cells.join(' | ')} | ${freightCell(first)} | ${promotedCell(row.clusters)} |${live ? ` ${liveCell(row.clusters)} |` : ''}`;
  });
  const lines = [
    `## ${mdText(app.name)}`,
    '',
    `Release repository ${app.releaseRepos.map(mdCode).join(', ')}.`,
    '',
    `| ${header.join(' | ')} |`,
    `| ${header.map(() => '---').join(' | ')} |`,
    ...body,
  ];
  const notes = [
    ...(bold && referenceRow ? [`**Bold**: another version than ${mdText(referenceRow.stage)}/${mdText(referenceRow.wave)}'s.`] : []),
    ...orphanNotes(app),
    ...handNotes(app),
    ...unchangedNotes(app),
    ...(live ? liveNotes(app) : []),
  ];
  return notes.length > 0 ? [...lines, '', ...notes.map((n) => `- ${n}`)] : lines;
}

function clusterList(names: string[]): string {
  const shown = names.slice(0, CLUSTERS_PER_CELL).map(mdText).join(', ');
  return names.length > CLUSTERS_PER_CELL ? `${shown} and ${names.length - CLUSTERS_PER_CELL} more` : shown;
}

function freightCell(c: ClusterStatus): string {
  if (c.state === 'not-rendered') {
    const why = c.reason === 'no-branch' ? `no branch ${mdCode(c.branch)} yet` : `not on ${mdCode(c.branch)} yet`;
    const still = c.renderedOn ? `; still on ${c.renderedOn.map(mdCode).join(', ')}` : '';
    return `⚠ **not rendered yet** (${why}${still})`;
  }
  if (!c.release) return `⚠ no release record on ${mdCode(c.branch)}`;
  const name = mdCode(c.release.freight.slice(0, 7));
  return c.release.freightAlias ? `${name} ${mdText(c.release.freightAlias)}` : name;
}

function promotedCell(clusters: ClusterStatus[]): string {
  const times = [...new Set(clusters.map((c) => c.release?.promotedAt).filter((t): t is string => t !== undefined))].sort();
  if (times.length === 0) return '–';
  const short = (t: string) => t.replace('T', ' ').replace(/:\d\dZ$/, 'Z');
  return times.length === 1 ? short(times[0]) : `${short(times[0])} to ${short(times[times.length - 1])}`;
}

function liveCell(clusters: ClusterStatus[]): string {
  const counts = new Map<string, number>();
  for (const c of clusters) {
    const l = c.live;
    const text = !l ? '–' : l.argoCd === 'own-argo-cd' ? 'own Argo CD' : l.argoCd === 'missing' ? '⚠ no Application' : `${l.sync ?? '?'} ${l.health ?? '?'}`;
    counts.set(text, (counts.get(text) ?? 0) + 1);
  }
  return [...counts].map(([text, n]) => (clusters.length > 1 ? `${mdText(text)} ×${n}` : mdText(text))).join(', ');
}

function orphanNotes(app: AppStatus): string[] {
  const byBranch = new Map<string, string[]>();
  for (const o of app.orphans) {
    const where = o.targetedOn.length > 0 ? ` (now on ${o.targetedOn.map(mdCode).join(', ')})` : ' (no longer targeted)';
    byBranch.set(o.branch, [...byBranch.get(o.branch) ?? [], `${mdText(o.cluster)}${where}`]);
  }
  return [...byBranch].map(([branch, folders]) => `⚠ left behind on ${mdCode(branch)}: ${folders.join(', ')}; its next promotion removes them`);
}

function handNotes(app: AppStatus): string[] {
  const branches = new Map<string, number>();
  for (const c of clustersOf(app)) if (c.release && c.release.commitsAfter > 0) branches.set(c.branch, c.release.commitsAfter);
  return [...branches].map(([branch, n]) => `⚠ ${mdCode(branch)} has ${n} commit(s) after its last promotion that record no release (made by hand?)`);
}

function unchangedNotes(app: AppStatus): string[] {
  const unchanged = clustersOf(app).filter((c) => c.changed && c.changed.commitsAgo > 0);
  if (unchanged.length === 0) return [];
  const shown = unchanged.slice(0, CLUSTERS_PER_CELL).map((c) =>
    `${mdText(c.cluster)} (${c.changed!.atLeast ? 'at least ' : ''}${c.changed!.commitsAgo} promotion(s) ago, ${c.changed!.at.slice(0, 10)})`);
  const more = unchanged.length > CLUSTERS_PER_CELL ? ` and ${unchanged.length - CLUSTERS_PER_CELL} more` : '';
  return [`Not changed by the latest promotion of their branch: ${shown.join(', ')}${more}.`];
}

function liveNotes(app: AppStatus): string[] {
  return clustersOf(app).flatMap((c) => (c.live?.drift ?? []).map((d) => `⚠ drift on ${mdText(c.cluster)}: ${mdText(d)}`));
}

function queryLines(output: StatusOutput): string[] {
  const q = output.query!;
  const lines = [
    `# ${mdCode(q.release)}: on ${q.having} of ${q.selected} selected cluster(s)`,
    '',
    q.all ? 'Every selected cluster has it.' : q.having === 0 ? 'No selected cluster has it.' : `${q.lacking} selected cluster(s) lack it.`,
  ];
  const listed = (c: ClusterStatus) => (q.mode === 'has' ? c.has === true : c.has === false);
  const rows: string[] = [];
  for (const app of output.apps) {
    for (const stage of app.stages) {
      for (const wave of stage.waves) {
        const groups = new Map<string, ClusterStatus[]>();
        for (const c of wave.clusters.filter(listed)) {
          const what = c.state === 'not-rendered' ? '⚠ not rendered yet' : app.artifacts.map((a) => versionText(a, c.release)).filter(Boolean).map(mdCode).join(', ') || '?';
          groups.set(what, [...groups.get(what) ?? [], c]);
        }
        for (const [what, clusters] of groups) rows.push(`| ${mdText(app.name)} | ${mdText(stage.name)} | ${mdText(wave.name)} | ${clusterList(clusters.map((c) => c.cluster))} | ${what} |`);
      }
    }
  }
  if (rows.length > 0) lines.push('', `| app | stage | wave | clusters ${q.mode === 'has' ? 'with' : 'without'} it | ${q.mode === 'has' ? 'versions' : 'what they have'} |`, '| --- | --- | --- | --- | --- |', ...rows);
  return lines;
}
