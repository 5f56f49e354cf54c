import * as fs from 'fs';
import * as path from 'path';
import { describe, expect, test } from 'vitest';
import * as YAML from 'yaml';
import { findingCodes, setSource, simulateControllers } from '../src/testkit';

/*
 * The emitter changes recommended for issue 8 part 1 that the emitters do not make yet, applied
 * by hand to today's manifests/: with them the controller model finds nothing. (The AppProject
 * Namespace, pull-request, OCI, timeout, helm-template and HTTP JSON guard fixes are in the emitters now.)
 */

const MANIFESTS = path.join(__dirname, '..', 'manifests');
const CA = 'LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCg==';

function load(): any[] {
  return fs.readdirSync(MANIFESTS).filter((f) => f.endsWith('.yaml')).sort().flatMap((f) =>
    YAML.parseAllDocuments(fs.readFileSync(path.join(MANIFESTS, f), 'utf8')).map((d) => d.toJS()).filter((o) => o).map((o) => {
      setSource(o, f);
      return o;
    }));
}

const stepsOf = (o: any): any[] => (o.kind === 'Stage' ? (o.spec.promotionTemplate?.spec.steps ?? []) : o.spec.steps);

/** 2. Every cluster Secret carries its cluster's CA. */
function addCa(o: any): void {
  if (o.kind !== 'Secret' || !o.stringData?.config) return;
  const config = JSON.parse(o.stringData.config);
  config.tlsClientConfig = { ...config.tlsClientConfig, caData: config.tlsClientConfig?.caData ?? CA };
  o.stringData.config = JSON.stringify(config);
}

/** 8. A subscribed git repository is checked out and read by the render (model-server's config). */
function useEveryGitArtifact(objects: any[]): void {
  const repo = 'https://github.com/acme/model-config.git';
  for (const o of objects.filter((x) => x.kind === 'Stage' && x.metadata.namespace === 'model-server')) {
    stepsOf(o).splice(1, 0, { uses: 'git-clone', as: 'clone-config', config: { repoURL: repo, checkout: [{ commit: `\${{ commitFrom('${repo}').ID }}`, path: './config' }] } });
  }
  const task = objects.find((x) => x.kind === 'PromotionTask' && x.metadata.namespace === 'model-server');
  stepsOf(task).find((s: any) => s.uses === 'helm-template').config.valuesFiles.push('./config/serving/values.yaml');
}

describe('controller model: the recommended emitter changes', () => {
  test('leave none of the problems of issue 8 in manifests/', () => {
    const objects = load();
    for (const o of objects) {
      addCa(o);
    }
    useEveryGitArtifact(objects);
    const findings = simulateControllers(objects);
    expect(findings.map((f) => `${f.code} ${f.source} ${f.kind}/${f.name} ${f.path}: ${f.message}`).slice(0, 5)).toEqual([]);
    expect(findingCodes(findings)).toEqual([]);
  });
});
