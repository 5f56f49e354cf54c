import { describe, expect, test } from 'vitest';
import { Artifact, ManifestSource, PlatformAppProps } from '../../src';
import { scanTextForSecrets } from '../../src/testkit';
import { findSecrets, redactSecrets, SECRET_MASK } from '../../src/util/redact';
import { appError } from '../support/app-error';
import { CREDENTIAL_SHAPES } from '../support/credentials';

const PAT = 'ghp_abcdefghijklmnopqrstuvwxyz0123456789';
const SECRET_URLS: Array<[string, string, string]> = [
  ['user:password', 'https://alice:s3cret@github.com/acme/x.git', 's3cret'],
  ['a ?token= query', 'https://github.com/acme/x.git?token=s3cret', 's3cret'],
  ['a ?private_token= query', 'https://gitlab.example.com/acme/x.git?private_token=glpat-abcdefghijklmnopqrst', 'glpat-abcdefghijklmnopqrst'],
  ['a GitHub PAT as the user', `https://${PAT}@github.com/acme/x.git`, PAT],
  ['a GitHub PAT with x-access-token', `https://x-access-token:${PAT}@github.com/acme/x.git`, PAT],
];

describe('no error message echoes a credential it refuses', () => {
  describe.each(SECRET_URLS)('%s', (_, url, secret) => {
    test.each<[string, (u: string) => Partial<PlatformAppProps>]>([
      ['source', u => ({ source: ManifestSource.helm({ repoUrl: u, path: 'chart' }) })],
      ['releaseRepo', u => ({ releaseRepo: u })],
      ['a git artifact', u => ({ artifacts: [Artifact.image('ghcr.io/acme/api'), Artifact.git(u)] })],
      ['a chart artifact', u => ({ artifacts: [Artifact.image('ghcr.io/acme/api'), Artifact.helmChart(u, { name: 'x' })] })],
    ])('given as %s', (_field, props) => {
      const message = appError(props(url));
      expect(message).toMatch(/must not carry credentials|holds secret material/);
      expect(message).toContain('***');
      expect(message).not.toContain(secret);
    });
  });

  test('the redaction covers userinfo, credential query parameters and known token shapes, and nothing else', () => {
    expect(redactSecrets('got "https://alice:s3cret@github.com/acme/x.git"')).toBe('got "https://***@github.com/acme/x.git"');
    expect(redactSecrets('https://h/x?ref=main&access_token=abc&sig=zzz')).toBe('https://h/x?ref=main&access_token=***&sig=***');
    expect(redactSecrets(`token ${PAT} and github_pat_11ABCDEFG0123456789_abcdefghijklmnop`)).toBe('token *** and ***');
    expect(redactSecrets('key AKIAIOSFODNN7EXAMPLE')).toBe('key ***');
    const harmless = 'image ghcr.io/acme/api@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef; https://github.com/acme/x.git?ref=main';
    expect(redactSecrets(harmless)).toBe(harmless);
  });
});

describe('every credential shape', () => {
  test.each(CREDENTIAL_SHAPES.map(s => [s.name, s] as const))('%s is found and masked, in any surrounding text', (_, shape) => {
    for (const text of [shape.text, `got ${JSON.stringify(shape.text)}; fix it`, `| ${shape.text} |`]) {
      expect(findSecrets(text).length).toBeGreaterThan(0);
      const redacted = redactSecrets(text);
      expect(redacted).toContain(SECRET_MASK);
      expect(redacted).not.toContain(shape.secret);
    }
  });

  test.each(CREDENTIAL_SHAPES.filter(s => s.secretlint).map(s => [s.name, s] as const))('%s: secretlint finds it too, and nothing secretlint finds is left by the redaction', async (_, shape) => {
    expect(await scanTextForSecrets(shape.text)).not.toEqual([]);
    expect(await scanTextForSecrets(redactSecrets(shape.text))).toEqual([]);
  });

  test('what is not a credential is left alone: SSH remotes, image digests, e-mail addresses, references, public certificates', () => {
    for (const text of [
      'git@github.com:acme/x.git', 'ssh://git@github.com/acme/x.git', 'ghcr.io/acme/api:1.0@sha256:0123456789abcdef', 'nginx:1.25@sha256:abcd',
      'https://acme@dev.azure.com/acme/p/_git/r', 'contact: oncall@acme.example', 'token: ${{ secret("x").token }}', 'password: $(PASSWORD)',
      'LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCg==', '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----', 'key `secret` of Secret kargo-webhook',
      'https://github.com/acme/x.git?ref=main', 'risk-free disk-pressure task-runner',
      // the library's own fixes name a header's scheme and the call that references a Secret
      "headers: { 'X-Token': 'Bearer {{args.token}}' } with args: { token: VerificationArg.secret('<secret>', '<key>') }",
    ]) expect(findSecrets(text)).toEqual([]);
  });

  test('a value that only looks like the start of a reference is still a credential', () => {
    for (const text of ['password=hunter2(', 'token: abc.def(ghi', 'password: Bearer2x', 'secret=Basic-x1y2z3']) {
      expect(findSecrets(text)).toHaveLength(1);
    }
  });
});
