import { ArgoCdTransition } from './argocd-transition';
import { ActiveFreeze, ChangeViolation, describeWindow } from './change-rules';
import { ManifestObject } from './manifest-set';
import { describeFieldChange, fieldChanges } from './object-fields';
import { AppChange, Before, FleetChange, ObjectChanges, PlanChange, StageChange } from './release-diff';
import { RiskFlag } from './risk-flags';
import { mdCode, mdText } from '../util/markdown';

const LIST_LIMIT = 20;
/** Changed fields shown per `~` object. */
const FIELD_LIMIT = 10;
/** Unaffected apps named before the rest are only counted. */
export const UNAFFECTED_LIMIT = 10;
/** GitHub's limit for an issue or pull-request comment body, in characters. */
export const COMMENT_LIMIT = 65_536;
/** The hidden first line of a PR comment, so a bot can find and update its own comment. */
export const COMMENT_MARKER = '<!-- cdk8s-gitops-platform:plan -->';

/** What the plan shows besides the change and the rules. */
export interface PlanExtras {
  /** Risk flags (see `riskFlags`). */
  readonly risks?: RiskFlag[];
  /** A sentence under the title, e.g. that the base has no platform. */
  readonly note?: string;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
const code = (s: string) => mdCode(s);
const list = (values: string[]) => (values.length === 0 ? '(none)' : values.map(mdText).join(', '));
const before = (b: Before<string[]>) => `${list(b.before)} → ${list(b.after)}`;
// per-cluster branches make long lists; the objects list below names every one
const capped = (values: string[], limit = 4) => (values.length <= limit ? values.join(', ')
  : `${values.slice(0, limit).join(', ')} and ${values.length - limit} more`);
const names = (values: string[]) => values.map(mdText);
const count = (o: ObjectChanges) => o.added.length + o.changed.length + o.removed.length;

/** One sentence per affected app: what a reviewer needs to know first (user text escaped for Markdown). */
export function summaryOf(app: AppChange): string {
  const name = mdText(app.app);
  if (app.status === 'added') return `${name}: new app (${plural(app.after?.clusters.length ?? 0, 'cluster')}, ${plural(app.objects.added.length, 'object')})`;
  if (app.status === 'removed') return `${name}: removed (${plural(app.before?.clusters.length ?? 0, 'cluster')}, ${plural(app.objects.removed.length, 'object')})`;
  const parts: string[] = [];
  for (const s of app.stages) {
    const stage = mdText(s.stage);
    if (s.status === 'added') parts.push(`new stage ${stage}`);
    else if (s.status === 'removed') parts.push(`stage ${stage} removed`);
    else if (s.waveCount.before !== s.waveCount.after) parts.push(`${stage} ${s.waveCount.before} → ${plural(s.waveCount.after, 'wave')}`);
    if (s.gates) parts.push(`${stage} gate ${before(s.gates)}`);
  }
  if (app.leadTime) parts.push(`lead time ${mdText(app.leadTime.before)} → ${mdText(app.leadTime.after)}`);
  if (app.clustersAdded.length) parts.push(`+${plural(app.clustersAdded.length, 'cluster')}`);
  if (app.clustersRemoved.length) parts.push(`−${plural(app.clustersRemoved.length, 'cluster')}`);
  if (movedClusters(app).length) parts.push('clusters moved between waves');
  const artifacts = app.artifactsAdded.length + app.artifactsRemoved.length + app.artifactsChanged.length;
  if (artifacts) parts.push(`${plural(artifacts, 'artifact')} changed`);
  const o = app.objects;
  const objects = [o.added.length && `${o.added.length} added`, o.changed.length && `${o.changed.length} changed`, o.removed.length && `${o.removed.length} removed`].filter(Boolean);
  parts.push(`objects: ${objects.join(', ')}`);
  return `${name}: ${parts.join('; ')}`;
}

/** Renders a change as Markdown for a pull-request comment. */
export function renderPlan(change: PlanChange, violations: ChangeViolation[], baseLabel: string, freezes: ActiveFreeze[] = [],
  extras: PlanExtras = {}): string {
  const { summary, details } = planSections(change, violations, baseLabel, freezes, extras);
  return joinLines([...summary, ...details]);
}

/**
 * The plan as a pull-request comment: the hidden marker first (a bot updates the comment that
 * starts with it instead of adding one per push), at most `COMMENT_LIMIT` characters. When the
 * whole plan does not fit, the summary (apps, broken standards, risks, freezes) stays and the
 * per-app details are replaced by a pointer to the full report.
 */
export function renderComment(change: PlanChange, violations: ChangeViolation[], baseLabel: string, freezes: ActiveFreeze[] = [],
  extras: PlanExtras & { readonly reportFile?: string } = {}): string {
  const { summary, details } = planSections(change, violations, baseLabel, freezes, extras);
  const whole = joinLines([COMMENT_MARKER, ...summary, ...details]);
  if (whole.length <= COMMENT_LIMIT) return whole;
  const where = extras.reportFile ? `the full report is in ${mdCode(extras.reportFile)}` : 'pass `--report <file>` to keep the full report';
  const pointer = ['', `_The details of ${plural(change.apps.length, 'app')} do not fit into a comment (${whole.length} characters, at most ${COMMENT_LIMIT}): ${where}._`];
  let kept = [COMMENT_MARKER, ...summary];
  // a summary of thousands of apps can itself be too long: keep its head
  while (joinLines([...kept, ...pointer]).length > COMMENT_LIMIT) kept = kept.slice(0, Math.floor(kept.length * 0.9));
  return joinLines([...kept, ...pointer]);
}

function joinLines(lines: string[]): string {
  const out = [...lines];
  while (out[out.length - 1] === '') out.pop();
  return out.join('\n') + '\n';
}

function planSections(change: PlanChange, violations: ChangeViolation[], baseLabel: string, freezes: ActiveFreeze[],
  extras: PlanExtras): { summary: string[]; details: string[] } {
  const lines: string[] = [];
  const affected = change.apps.length;
  lines.push(`## Release plan against ${code(baseLabel)}`, '');
  if (extras.note) lines.push(mdText(extras.note), '');
  if (affected === 0 && !change.fleet) {
    lines.push('No app and no cluster changes.', '');
  }
  for (const app of change.apps) lines.push(`- **${summaryOf(app)}**`);
  if (change.fleet) lines.push(`- **fleet: ${fleetSummary(change.fleet)}**`);
  if (affected || change.fleet) lines.push('');
  lines.push(`Unaffected: ${unaffected(change.unaffected)}${change.fleet ? '' : '; the fleet is unchanged'}.`, '');

  if (violations.length) {
    lines.push(`### ${plural(violations.length, 'change standard')} broken`, '');
    for (const v of violations) lines.push(`- ${code(v.ruleId)} ${mdText(v.message)}. To satisfy: ${mdText(v.fix)}.`);
    lines.push('');
  }
  lines.push(...riskLines(extras.risks ?? []));
  lines.push(...freezeLines(freezes));
  const details: string[] = [];
  for (const app of change.apps) details.push(...renderApp(app, change));
  if (change.fleet) details.push(...renderFleet(change.fleet, change));
  return { summary: lines, details };
}

/** A handful of unaffected apps by name, the rest counted. */
function unaffected(apps: string[]): string {
  if (apps.length === 0) return '(none)';
  if (apps.length <= UNAFFECTED_LIMIT) return apps.map(mdText).join(', ');
  return `${apps.slice(0, UNAFFECTED_LIMIT).map(mdText).join(', ')} and ${apps.length - UNAFFECTED_LIMIT} more unaffected`;
}

const RISK_TITLES: Record<RiskFlag['code'], string> = {
  'delete': 'deletes',
  'delete-and-recreate': 'deleted and created again',
  'recreates-applications': 're-creates Applications',
  'production': 'production',
  'wide-change': 'wide change',
};

function riskLines(risks: RiskFlag[]): string[] {
  if (risks.length === 0) return [];
  const lines = [`### ⚠️ ${plural(risks.length, 'risk')} to review`, ''];
  for (const r of risks.slice(0, LIST_LIMIT * 2)) lines.push(`- **${RISK_TITLES[r.code]}** (${mdText(r.app)}): ${mdText(r.message)}`);
  if (risks.length > LIST_LIMIT * 2) lines.push(`- … and ${risks.length - LIST_LIMIT * 2} more (see the JSON output)`);
  lines.push('');
  return lines;
}

/** Each freeze once: windows that say the same for the same app and time merge, their stages joined. */
function freezeLines(freezes: ActiveFreeze[]): string[] {
  const merged = new Map<string, ActiveFreeze>();
  for (const f of freezes) {
    const key = JSON.stringify([f.app, describeWindow(f.window), f.active.start.toISOString(), f.active.end.toISOString(), f.window.manualSync ?? false, f.override ?? '']);
    const seen = merged.get(key);
    merged.set(key, seen ? { ...seen, stages: [...seen.stages, ...f.stages.filter((s) => !seen.stages.includes(s))] } : f);
  }
  if (merged.size === 0) return [];
  const lines = [`### ${plural(merged.size, 'active freeze')}`, ''];
  for (const f of merged.values()) {
    lines.push(`- ${mdText(f.app)}: ${f.stages.map(code).join(', ')} frozen by ${mdText(describeWindow(f.window))} until ${f.active.end.toISOString()}`
      + `${f.window.manualSync ? ' (manual sync allowed)' : ''}${f.override ? `; overridden: ${mdText(f.override)}` : ''}`);
  }
  lines.push('');
  return lines;
}

/** Clusters the app already ran on that a wave gains: they move from another wave. */
function movedClusters(app: AppChange): string[] {
  const waves = app.stages.flatMap((s) => s.waves);
  return [...new Set(waves.flatMap((w) => w.clustersAdded).filter((c) => !app.clustersAdded.includes(c)))].sort();
}

function renderApp(app: AppChange, change: PlanChange): string[] {
  const lines = [`### ${mdText(app.app)}`, ''];
  for (const s of app.stages) lines.push(...renderStage(s));
  lines.push(...renderArgoCd(app.argoCd));
  for (const a of app.artifactsAdded) lines.push(`- artifact added: ${code(a.id)} (${mdText(a.versioning)})`);
  for (const a of app.artifactsRemoved) lines.push(`- artifact removed: ${code(a.id)}`);
  for (const a of app.artifactsChanged) lines.push(`- versioning of ${code(a.id)}: ${mdText(a.before)} → ${mdText(a.after)}`);
  lines.push(`- objects: ${app.objects.added.length} added, ${app.objects.changed.length} changed, ${app.objects.removed.length} removed`
    + (count(app.productionObjects) ? ` (${count(app.productionObjects)} in production)` : ''));
  lines.push(...objectDetails(app.objects, change.base.ofGroup(app.app), change.head.ofGroup(app.app)), '');
  return lines;
}

/**
 * What the central Argo CD does with the change, from the test kit's model of the ApplicationSet
 * controller (argo-cd v3.5.1 applicationset_controller.go `Reconcile`, `createOrUpdateInCluster`,
 * `deleteInCluster`): waves that change in place, owners that change, and what needs a person.
 */
function renderArgoCd(t: ArgoCdTransition): string[] {
  const lines: string[] = [];
  const name = (key: string) => key.replace(/^.*\//, '');
  const central = t.inPlace.filter((m) => m.applicationSet !== '');
  if (central.length) {
    const moves = central.map((m) => `${name(m.application)} ${code(m.stage.before)} → ${code(m.stage.after)}`);
    const sets = [...new Set(central.map((m) => name(m.applicationSet)))].map(code).join(', ');
    lines.push(`- ${plural(central.length, 'Application')} change wave in place (${capped(moves)}): ApplicationSet ${sets} keeps them and, on its `
      + 'next reconcile, rewrites their release branch, `gitops-platform.io/stage` label and `kargo.akuity.io/authorized-stage`; no ownership '
      + 'change. A promotion into the new wave that starts before then does not select them yet');
  }
  const local = t.inPlace.filter((m) => m.applicationSet === '');
  if (local.length) {
    const moves = local.map((m) => `${name(m.application)} on ${m.application.split(':')[0]} ${code(m.stage.before)} → ${code(m.stage.after)}`);
    lines.push(`- ${plural(local.length, 'Application')} of clusters with their own Argo CD change wave in place (${capped(moves)}): each changes `
      + 'when its cluster\'s chart (`<app>--<cluster>.k8s.yaml`) is applied there; until then the new wave\'s Stage does not select it');
  }
  const cleared = new Set(t.cleared);
  const moved = t.ownerChanges.filter((c) => cleared.has(c.application) && !t.removedApplicationSets.includes(c.before));
  if (moved.length) {
    lines.push(`- ${plural(moved.length, 'Application')} change ApplicationSet (${capped(moved.map((c) => name(c.application)))}): the new one is refused `
      + `("already owned") until the old one deletes them; under the ${code(t.policy)} policy that clears on a later reconcile, and the resources `
      + 'stay (`preserveResourcesOnDeletion`)');
  }
  if (t.removedApplicationSets.length) {
    const one = t.removedApplicationSets.length === 1;
    const taken = t.ownerChanges.filter((c) => t.removedApplicationSets.includes(c.before));
    const heirs = [...new Set(taken.map((c) => code(name(c.after))))].join(', ');
    lines.push(`- ApplicationSet${one ? '' : 's'} ${capped(t.removedApplicationSets.map((x) => code(name(x))))} ${one ? 'is' : 'are'} gone from the `
      + `output: whoever applies it must delete ${one ? 'it' : 'them'} (prune). Kubernetes then deletes ${one ? 'its' : 'their'} Applications (the `
      + 'resources stay: no resources finalizer)'
      + (taken.length ? ` and ${heirs} creates ${plural(taken.length, 'Application')} anew, refused as "already owned" until then; left in place, `
        + `${one ? 'it keeps them' : 'they keep them'} for good and ${heirs} stays blocked` : ''));
  }
  for (const f of t.findings) lines.push(`- needs a person (${code(f.code)}): ${f.message}`);
  return lines;
}

function renderStage(s: StageChange): string[] {
  const tag = s.production ? ' (production)' : '';
  const lines: string[] = [];
  if (s.status === 'added') {
    lines.push(`- stage ${code(s.stage)}${tag} added with ${plural(s.waveCount.after, 'wave')}`);
  } else if (s.status === 'removed') {
    lines.push(`- stage ${code(s.stage)}${tag} removed (had ${plural(s.waveCount.before, 'wave')})`);
  } else {
    const waves = s.waveCount.before === s.waveCount.after ? `${plural(s.waveCount.after, 'wave')}` : `${s.waveCount.before} → ${plural(s.waveCount.after, 'wave')}`;
    lines.push(`- stage ${code(s.stage)}${tag}: ${waves}`);
  }
  for (const w of s.waves) {
    const size = `${w.before?.clusters.length ?? 0} → ${plural(w.after?.clusters.length ?? 0, 'cluster')}`;
    const delta = [...w.clustersAdded.map((c) => `+${mdText(c)}`), ...w.clustersRemoved.map((c) => `−${mdText(c)}`)].join(', ');
    const renamed = w.before && w.after && w.before.name !== w.after.name ? ` (was ${code(w.before.name)})` : '';
    const status = w.status === 'changed' ? renamed : ` ${w.status}`;
    const other: string[] = [];
    if (w.before && w.after) {
      // a field that changed the same way in every wave is reported once, for the stage
      for (const [field, label, stageLevel] of [['gates', 'gate', s.gates], ['soak', 'soak', s.soak], ['checks', 'checks', s.checks]] as const) {
        const [x, y] = [w.before[field], w.after[field]];
        if (!stageLevel && x.join() !== y.join()) other.push(`${label} ${list(x)} → ${list(y)}`);
      }
    }
    if (status || delta || other.length) {
      lines.push(`  - wave ${code(w.wave)}${status}: ${size}${delta ? ` (${delta})` : ''}${other.length ? `; ${other.join('; ')}` : ''}`);
    }
  }
  if (s.gates) lines.push(`  - gate: ${before(s.gates)}`);
  if (s.soak) lines.push(`  - soak: ${before(s.soak)}`);
  if (s.checks) lines.push(`  - checks: ${before(s.checks)}`);
  if (s.releaseBranchesAdded.length) lines.push(`  - release branches added: ${capped(s.releaseBranchesAdded.map(code))}`);
  if (s.releaseBranchesRemoved.length) lines.push(`  - release branches removed: ${capped(s.releaseBranchesRemoved.map(code))}`);
  return lines;
}

function fleetSummary(f: FleetChange): string {
  const parts = [
    f.clustersAdded.length && `+${plural(f.clustersAdded.length, 'cluster')}`,
    f.clustersRemoved.length && `−${plural(f.clustersRemoved.length, 'cluster')}`,
    f.clustersChanged.length && `${plural(f.clustersChanged.length, 'cluster')} changed`,
  ].filter(Boolean);
  return parts.length ? parts.join('; ') : `${plural(count(f.objects), 'object')} changed`;
}

function renderFleet(f: FleetChange, change: PlanChange): string[] {
  const lines = ['### fleet', ''];
  if (f.clustersAdded.length) lines.push(`- clusters added: ${names(f.clustersAdded).join(', ')}`);
  if (f.clustersRemoved.length) lines.push(`- clusters removed: ${names(f.clustersRemoved).join(', ')}`);
  for (const c of f.clustersChanged) lines.push(`- cluster ${code(c)} changed: ${capped(names(f.clusterFieldChanges[c] ?? []))}`);
  lines.push(`- objects: ${f.objects.added.length} added, ${f.objects.changed.length} changed, ${f.objects.removed.length} removed`);
  lines.push(...objectDetails(f.objects, change.base.ofGroup('fleet'), change.head.ofGroup('fleet')), '');
  return lines;
}

/**
 * The objects, one per line in an indented code block (literal: no escaping needed but for line
 * breaks), a `~` object followed by its changed fields as JSON pointers with their values
 * (a Secret's data redacted).
 */
function objectDetails(o: ObjectChanges, base: ManifestObject[], head: ManifestObject[]): string[] {
  if (count(o) === 0) return [];
  const flat = (text: string) => text.replace(/\r\n?|\n/g, '\\n');
  const lines = ['', '<details><summary>objects</summary>', ''];
  const byKey = (set: ManifestObject[], key: string) => set.find((x) => x.key === key)?.obj;
  for (const [sign, keys] of [['+', o.added], ['~', o.changed], ['−', o.removed]] as const) {
    for (const key of keys.slice(0, LIST_LIMIT)) {
      lines.push(`    ${sign} ${flat(key)}`);
      if (sign !== '~') continue;
      const fields = fieldChanges(byKey(base, key), byKey(head, key));
      for (const f of fields.slice(0, FIELD_LIMIT)) lines.push(`        ${flat(describeFieldChange(f))}`);
      if (fields.length > FIELD_LIMIT) lines.push(`        … and ${fields.length - FIELD_LIMIT} more field(s)`);
    }
    if (keys.length > LIST_LIMIT) lines.push(`    ${sign} … and ${keys.length - LIST_LIMIT} more`);
  }
  lines.push('', '</details>');
  return lines;
}
