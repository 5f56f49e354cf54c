import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { ApiObject, App, Chart } from 'cdk8s';
import { afterEach, describe, expect, test } from 'vitest';
import { PlatformSynthApp } from '../../src';

const ROOT = path.join(__dirname, '..', '..');
const scratch: string[] = [];

function outdir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'synth-app-'));
  scratch.push(dir);
  return dir;
}

afterEach(() => {
  for (const dir of scratch.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

/** Every file the app writes, by name. */
function synthesized(app: App): Map<string, string> {
  const a = new Chart(app, 'a');
  const b = new Chart(app, 'b');
  new ApiObject(a, 'first', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'first' } });
  new ApiObject(b, 'second', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'second' } }).node.addDependency(a);
  app.synth();
  return new Map(fs.readdirSync(app.outdir).sort().map(f => [f, fs.readFileSync(path.join(app.outdir, f), 'utf-8')]));
}

describe('synth-app mirrors the cdk8s it names', () => {
  // the mirror restates cdk8s internals: a cdk8s upgrade must make someone read lib/app.js again
  test('the installed cdk8s is the version src/synth-app/README.md says it mirrors', () => {
    const installed = JSON.parse(fs.readFileSync(path.join(ROOT, 'node_modules', 'cdk8s', 'package.json'), 'utf-8')).version;
    const readme = fs.readFileSync(path.join(ROOT, 'src', 'synth-app', 'README.md'), 'utf-8');
    expect(readme.match(/mirrors \*\*cdk8s (\S+)\*\*/)?.[1]).toBe(installed);
  });

  test('construct metadata, as cdk8s App writes it', () => {
    const cdk8s = synthesized(new App({ outdir: outdir(), recordConstructMetadata: true }));
    const linear = synthesized(new PlatformSynthApp({ outdir: outdir(), recordConstructMetadata: true }));
    expect([...linear.keys()]).toEqual(['0000-a.k8s.yaml', '0001-b.k8s.yaml', 'construct-metadata.json']);
    expect(linear).toEqual(cdk8s);
  });
});
