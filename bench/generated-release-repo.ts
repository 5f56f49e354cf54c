/**
 * A release repository for a synthesized platform, as its promotions would leave it: for every
 * app and Kargo Stage the branch `rendered/<app>/<stage>` with Kargo's empty first commit, then
 * one commit per promotion holding `<cluster>/manifests.yaml` for each cluster of the Stage and
 * the message of the Stage's own `git-commit` step, evaluated for the promoted Freight by the
 * test kit's model of Kargo's expressions. Written with one `git fast-import`.
 */
import * as fs from 'fs';
import * as path from 'path';
import { load } from 'js-yaml';
import { fastImport, ImportCommit } from './git-fast-import';
import { releasesOf } from '../src/cli/status/fleet-status';
import { loadStatusPlan } from '../src/cli/status/status-plan';
import { SimulatedFreight } from '../src/testkit/model/freight';
import { evaluateTemplate } from '../src/testkit/model/template';
import { listYamlFiles } from '../src/testkit/yaml-files';

export interface GeneratedReleaseRepo {
  readonly branches: number;
  readonly commits: number;
  /** App × cluster pairs rendered on some branch. */
  readonly rendered: number;
}

const T0 = Date.parse('2026-06-01T08:00:00Z') / 1000;

/**
 * Writes the release repository of the platform synthesized in `synthDir` into `gitDir`:
 * `promotions` promotions per Stage (Freight generations 1…n: image tags 1.1.0, 1.2.0, …), one
 * fewer on the Stages named `*broad*` (the last wave has not been promoted yet).
 */
export function generateReleaseRepo(synthDir: string, gitDir: string, promotions = 3): GeneratedReleaseRepo {
  const plan = loadStatusPlan(synthDir);
  const messages = commitMessages(synthDir);
  const commits: ImportCommit[] = [];
  const heads = new Map<string, string>();
  let rendered = 0;
  for (const app of plan.apps) {
    const subscriptions = (plan.artifacts.get(app.name) ?? []).map((a) => ({ [a.kind]: { repoURL: a.repoUrl, name: a.name } }));
    const warehouse = { metadata: { name: app.name }, spec: { subscriptions } };
    const byStage = new Map<string, string[]>();
    for (const r of releasesOf(app)) byStage.set(r.kargoStage, [...byStage.get(r.kargoStage) ?? [], r.path]);
    for (const [stage, folders] of byStage) {
      const branch = `rendered/${app.name}/${stage}`;
      let parent = `${branch}#0`;
      commits.push({ key: parent, parents: [], files: {}, message: 'Initial commit', time: T0 });
      const count = stage.includes('broad') ? promotions - 1 : promotions;
      for (let gen = 1; gen <= count; gen++) {
        const freight = SimulatedFreight.of(warehouse, gen);
        freight.alias = `release-${gen}`;
        const env = { ctx: { project: app.project, stage, promotion: `${stage}.${gen}`, targetFreight: { name: freight.name, alias: freight.alias } } };
        const message = String(evaluateTemplate(messages.get(`${app.project}/${stage}`)!, env, freight.functions()));
        const version = `1.${gen}.0`;
        const files = Object.fromEntries(folders.map((f) => [`${f}/manifests.yaml`, manifests(app.name, f, version)]));
        const key = `${branch}#${gen}`;
        commits.push({ key, parents: [parent], files, message, time: T0 + gen * 86_400 + commits.length });
        parent = key;
      }
      heads.set(branch, parent);
      if (count > 0) rendered += folders.length;
    }
  }
  fs.rmSync(gitDir, { recursive: true, force: true });
  fastImport(gitDir, commits, heads);
  return { branches: heads.size, commits: commits.length, rendered };
}

function manifests(app: string, cluster: string, version: string): string {
  return [
    'apiVersion: apps/v1',
    'kind: Deployment',
    `metadata: {name: ${app}, namespace: ${app}, labels: {gitops-platform.io/cluster: ${cluster}}}`,
    `spec: {template: {spec: {containers: [{name: ${app}, image: "ghcr.io/acme/${app}:${version}"}]}}}`,
    '',
  ].join('\n');
}

/**
 * The `git-commit` message template of every Stage, by `<project>/<stage>`: the step is cut out of
 * each Stage document and parsed alone (parsing whole Stages of a fleet takes minutes).
 */
function commitMessages(synthDir: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const file of listYamlFiles(synthDir)) {
    for (const doc of fs.readFileSync(file, 'utf8').split(/^---$/m)) {
      if (!/^kind: Stage$/m.test(doc)) continue;
      const name = /^ {2}name: (\S+)$/m.exec(doc)?.[1];
      const namespace = /^ {2}namespace: (\S+)$/m.exec(doc)?.[1];
      const step = /^( +)- as: commit\n[\s\S]*?(?=^\1- |\n[^ \n])/m.exec(doc)?.[0];
      if (!name || !namespace || !step) continue;
      const parsed = load(step.replace(new RegExp(`^${' '.repeat(step.indexOf('-'))}`, 'gm'), '')) as any[];
      out.set(`${namespace}/${name}`, parsed[0].config.message);
    }
  }
  return out;
}

if (require.main === module) {
  const [synthDir, gitDir] = process.argv.slice(2);
  console.log(generateReleaseRepo(path.resolve(synthDir), path.resolve(gitDir)));
}
