import * as fs from 'fs';
import * as path from 'path';
import { describe, expect, test } from 'vitest';
import { PlatformApp } from '../../src';
import { run } from '../../src/cli';
import { scanForSecrets, scanTextForSecrets } from '../../src/testkit';
import { findSecrets } from '../../src/util/redact';
import { recordingIo } from '../support/cli-fixtures';
import { ROOT, tempDir } from '../support/cli-temp-dirs';
import { APP_FIELDS, CREDENTIAL_SHAPES } from '../support/credentials';
import { appProps, errorOf, world } from '../support/fixtures';

// Everything the library writes, scanned for credentials by two rules that share no code: the
// library's own (src/util/redact.ts) and secretlint's recommended preset (the test kit's scan).
// The property test (test/property/synth.test.ts) does the same for every generated case.

const MANIFESTS = path.join(ROOT, 'manifests');

/** What either scanner finds in `text`: nothing, for everything the library writes. */
async function credentialsIn(text: string, name: string): Promise<string[]> {
  return [
    ...findSecrets(text).map(s => `${name}: ${s.kind} at ${s.start}`),
    ...(await scanTextForSecrets(text, name)).map(f => `${name}: secretlint ${f.what} at line ${f.line}`),
  ];
}

describe('nothing the library writes holds a credential', () => {
  test('the examples\' manifests and reports (manifests/)', async () => {
    expect(await scanForSecrets(MANIFESTS)).toEqual([]);
    const found: string[] = [];
    for (const file of fs.readdirSync(MANIFESTS)) found.push(...await credentialsIn(fs.readFileSync(path.join(MANIFESTS, file), 'utf8'), file));
    expect(found).toEqual([]);
  }, 120_000);

  test('plan (Markdown and --json) and validate --json of the examples', async () => {
    const empty = tempDir();
    const outputs: Array<[string, string]> = [];
    for (const args of [['plan', '--base-dir', empty, '--head-dir', MANIFESTS], ['plan', '--json', '--base-dir', empty, '--head-dir', MANIFESTS], ['validate', '--json', MANIFESTS]]) {
      const { out, err, io } = recordingIo(ROOT);
      await run(args, io);
      outputs.push([args.join(' '), out.join('') + err.join('')]);
    }
    expect(outputs.map(([name, text]) => [name, text.length > 100])).toEqual(outputs.map(([name]) => [name, true]));
    const found: string[] = [];
    for (const [name, text] of outputs) found.push(...await credentialsIn(text, name));
    expect(found).toEqual([]);
  }, 240_000);

  test('the messages of the bad-input tests: every credential shape in every free-text field', async () => {
    const messages: string[] = [];
    for (const shape of CREDENTIAL_SHAPES) {
      for (const [, props] of APP_FIELDS) {
        messages.push(errorOf(() => {
          const w = world();
          new PlatformApp(w.app, 'api', appProps(w, props(shape.text)));
        }));
      }
    }
    const all = messages.join('\n');
    for (const shape of CREDENTIAL_SHAPES) expect(all).not.toContain(shape.secret);
    expect(await credentialsIn(all, 'messages')).toEqual([]);
  }, 120_000);
});

describe('the test kit\'s scan of a user\'s own output', () => {
  const pat = CREDENTIAL_SHAPES.find(s => s.name.startsWith('a GitHub token (ghp_)'))!;
  const key = CREDENTIAL_SHAPES.find(s => s.name.startsWith('an RSA private key'))!;

  function plantedDir(): string {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, 'app.k8s.yaml'), [
      'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: fine\n  namespace: app\ndata:\n  a: b\n',
      `apiVersion: v1\nkind: Secret\nmetadata:\n  name: leaked\n  namespace: app\nstringData:\n  token: ${pat.text}\n`,
    ].join('---\n'));
    fs.writeFileSync(path.join(dir, 'app.plan.md'), `# app\n\nsigning key:\n\n${key.text}\n`);
    return dir;
  }

  test('scanForSecrets names the file, the object and the line of each credential, never the credential', async () => {
    const issues = await scanForSecrets(plantedDir());
    expect(issues.map(i => [path.basename(i.source), i.kind, i.name])).toEqual([['app.k8s.yaml', 'Secret', 'leaked'], ['app.plan.md', '', '']]);
    expect(issues[0].message).toMatch(/^secret material at line 15 column 10 \(secretlint github: GITHUB_TOKEN\); manifests are committed to Git/);
    expect(issues[1].message).toMatch(/^secret material at line 5 column 1 \(secretlint privatekey: PrivateKey\)/);
    expect(JSON.stringify(issues)).not.toContain(pat.secret);
  }, 60_000);

  test('validate fails on them, and prints no credential', async () => {
    const { out, err, io } = recordingIo(ROOT);
    expect(await run(['validate', '--json', plantedDir()], io)).toBe(1);
    const printed = out.join('') + err.join('');
    expect(JSON.parse(out.join('')).issues.filter((i: any) => /secretlint/.test(i.message))).toHaveLength(2);
    expect(printed).not.toContain(pat.secret);
    expect(printed).not.toContain(key.secret);
  }, 120_000);
});
