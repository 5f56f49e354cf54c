import * as fs from 'fs';
import * as path from 'path';
import { describe, expect, test } from 'vitest';
import { run } from '../../src/cli';
import { recordingIo } from '../support/cli-fixtures';
import { ROOT, tempDir } from '../support/cli-temp-dirs';

describe('validate severities and unchecked kinds', () => {
  const deployment = 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n  namespace: web\nspec: {}\n---\napiVersion: v1\nkind: Service\nmetadata:\n  name: web\n  namespace: web\n';
  const custom = 'apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w\n';

  test('core Kubernetes kinds are unchecked, never errors', async () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, 'web.yaml'), deployment);
    const { out, err, io } = recordingIo(ROOT);
    expect(await run(['validate', dir], io)).toBe(0);
    expect(out).toEqual([]);
    expect(err.join('')).toBe(`no problems below ${path.relative(ROOT, dir)}; unchecked: 1 Deployment, 1 Service\n`);
  }, 60_000);

  test('fails if a custom resource has no schema, unless --ignore-missing-schemas or --skip-kind', async () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, 'w.yaml'), custom);
    const rel = path.relative(ROOT, dir);
    const strict = recordingIo(ROOT);
    expect(await run(['validate', dir], strict.io)).toBe(1);
    expect(strict.out.join('')).toBe(`${rel}/w.yaml Widget/w /: no pinned schema for example.com/v1/Widget\n`);
    const ignored = recordingIo(ROOT);
    expect(await run(['validate', '--ignore-missing-schemas', dir], ignored.io)).toBe(0);
    expect(ignored.err.join('')).toBe(`no problems below ${rel}; unchecked: 1 Widget\n`);
    const skipped = recordingIo(ROOT);
    expect(await run(['validate', '--skip-kind', 'Widget', dir], skipped.io)).toBe(0);
    expect(skipped.err.join('')).toBe(`no problems below ${rel}; unchecked: 1 Widget\n`);
  }, 60_000);
});

test('validate: what depends on the chart (helm-template-capabilities) warns, exit 0', async () => {
  const dir = tempDir();
  fs.copyFileSync(path.join(ROOT, 'manifests', 'fleet.k8s.yaml'), path.join(dir, 'fleet.k8s.yaml'));
  const app = fs.readFileSync(path.join(ROOT, 'manifests', 'docs-preview.k8s.yaml'), 'utf8');
  const withoutKubeVersion = app.replace('        kubeVersion: ${{ quote(vars.kubeVersion) }}\n', '');
  expect(withoutKubeVersion).not.toBe(app);
  fs.writeFileSync(path.join(dir, 'docs-preview.k8s.yaml'), withoutKubeVersion);
  const { out, err, io } = recordingIo(ROOT);
  expect(await run(['validate', dir], io)).toBe(0);
  const lines = out.join('').trim().split('\n');
  expect(lines.length).toBeGreaterThan(0);
  for (const line of lines) expect(line).toMatch(/^warning: .* helm-template renders client-only without kubeVersion .*\(live: helm-template-capabilities\)$/);
  expect(err.join('')).toBe(`no problems below ${path.relative(ROOT, dir)}; ${lines.length} warning(s)\n`);
  const json = recordingIo(ROOT);
  await run(['validate', '--json', dir], json.io);
  expect(JSON.parse(json.out.join('')).issues.map((i: any) => [i.severity, i.code])).toEqual(lines.map(() => ['warning', 'helm-template-capabilities']));
}, 60_000);

test('the README\'s "Use it in your own project" example validates without an error', async () => {
  const dir = tempDir();
  // examples/consumer/platform.ts (the README shows it verbatim) on this worktree's library
  const source = fs.readFileSync(path.join(ROOT, 'examples', 'consumer', 'platform.ts'), 'utf8');
  const local = source.replace("from 'cdk8s-gitops-platform';", `from ${JSON.stringify(path.join(ROOT, 'src', 'index.ts'))};`);
  expect(local).not.toBe(source);
  fs.writeFileSync(path.join(dir, 'platform.ts'), local);
  const { definePlatform } = await import(path.join(dir, 'platform.ts'));
  const { App } = await import('cdk8s');
  const app = new App({ outdir: path.join(dir, 'dist') });
  definePlatform(app);
  app.synth();
  const { out, err, io } = recordingIo(dir);
  expect(await run(['validate', 'dist'], io)).toBe(0);
  // no error; the one warning is true of the example: its clusters declare no API versions
  expect(out.join('').split('\n').filter(Boolean).map((l) => l.replace(/: helm-template .*\(live: /, ': … (live: '))).toEqual([
    'warning: dist/checkout-api.k8s.yaml PromotionTask/checkout-api/render-cluster /spec/steps/0/config: … (live: helm-template-capabilities)',
  ]);
  expect(err.join('')).toBe('no problems below dist; 1 warning(s)\n');
}, 120_000);
