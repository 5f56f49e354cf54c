import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { describe, expect, test } from 'vitest';
import * as YAML from 'yaml';
import { formatIssues, validateManifests } from '../../src/testkit';
import { application, issuesOf, linesOf, project, promotionTask, stage, validator } from '../support/testkit-objects';

describe('ManifestValidator', () => {
  describe('yaml, files and directories', () => {
    test('reports a missing metadata once', () => {
      const app = application('demo:test');
      delete app.metadata;
      expect(linesOf(app)).toEqual(['/metadata: metadata is required']);
    });

    test('reports a document that does not parse and validates the others', () => {
      const text = ['apiVersion: kargo.akuity.io/v1alpha1\nkind: Project\nmetadata: {name: demo}', 'a: [1', '', 'apiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: demo}'].join('\n---\n');
      const issues = validator.validateYaml(text, 'x.yaml');
      expect(formatIssues(issues).split('\n').map((line) => line.split(':')[0])).toEqual([
        'x.yaml - /',
        'x.yaml Pod/demo/p /',
      ]);
      expect(issues.map((i) => i.message.split(':')[0])).toEqual(['yaml document 2 does not parse', 'no pinned schema for v1/Pod']);
    });

    test('validates every yaml file below a directory in path order', () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'testkit-'));
      try {
        fs.mkdirSync(path.join(dir, 'b'));
        fs.writeFileSync(path.join(dir, 'b', 'app.yml'), YAML.stringify(project({ spec: {} })));
        fs.writeFileSync(path.join(dir, 'a.yaml'), YAML.stringify(stage({ bogus: 1 })));
        fs.writeFileSync(path.join(dir, 'notes.txt'), 'not yaml: [');
        const issues = validateManifests(dir);
        expect(formatIssues(issues)).toBe([
          `${path.join(dir, 'a.yaml')} Stage/demo/test /spec/bogus: unknown field "bogus"`,
          `${path.join(dir, 'b', 'app.yml')} Project/demo /spec: unknown field "spec"`,
        ].join('\n'));
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    });

    test('orders issues of one object by path, numerically for list indexes', () => {
      const steps = Array.from({ length: 12 }, (_, i) => ({ uses: 'git-clear', as: `clear-${i}`, config: {} }));
      const paths = issuesOf(promotionTask(steps)).map((i) => i.path);
      expect(paths).toEqual(steps.map((_, i) => `/spec/steps/${i}/config/path`));
    });
  });
});
