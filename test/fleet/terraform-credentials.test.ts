import { describe, expect, test } from 'vitest';
import { isCredentialKey, isCredentialValue, redactUrl } from '../../src/fleet/terraform-credentials';
import { CREDENTIAL_SHAPES } from '../support/credentials';
import { errorOf } from '../support/fixtures';
import { GOOD, OTHER, parse, SOURCE } from '../support/terraform-output';

describe('fails if an entry holds credentials, without showing them', () => {
  const SECRET = 'sup3r-s3cret-v4lue';
  const cases: Array<[string, object, string]> = [
    ['token', { token: SECRET }, 'token'],
    ['bearer_token', { bearer_token: SECRET }, 'bearer_token'],
    ['client_key', { client_key: SECRET }, 'client_key'],
    ['client_certificate', { client_certificate: SECRET }, 'client_certificate'],
    ['password', { password: SECRET }, 'password'],
    ['kubeconfig', { kubeconfig: SECRET }, 'kubeconfig'],
    ['kube_config (azurerm)', { kube_config: [{ host: 'h', client_key: SECRET }] }, 'kube_config'],
    ['secret_access_key', { secret_access_key: SECRET }, 'secret_access_key'],
    ['private_key', { private_key: SECRET }, 'private_key'],
    ['a camelCase key', { clientKeyData: SECRET }, 'clientKeyData'],
    ['a key inside auth', { auth: { type: 'eks', cluster_name: 'h100-prod-01', token: SECRET } }, 'auth.token'],
    ['an exec env variable', { auth: { type: 'exec', command: 'oci', env: { AWS_SECRET_ACCESS_KEY: SECRET } } }, 'auth.env["AWS_SECRET_ACCESS_KEY"]'],
    ['a label', { labels: { 'example.com/token': SECRET } }, 'labels["example.com/token"]'],
    ['a JWT value', { auth: { type: 'exec', command: 'kubectl', args: ['--token', `eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJhcmdvY2QifQ.${SECRET}`] } }, 'auth.args[1]'],
    ['a private key in ca_data', { ca_data: Buffer.from(`-----BEGIN RSA PRIVATE KEY-----\n${SECRET}\n-----END RSA PRIVATE KEY-----\n`).toString('base64') }, 'ca_data'],
  ];
  test.each(cases)('%s', (_, extra, field) => {
    const message = errorOf(() => parse([{ ...GOOD, ...extra }]));
    expect(message).toMatch(new RegExp(`^${SOURCE}: clusters\\[0\\] \\("aws-use1-h100-prod-01"\\): ${field.replace(/[[\].]/g, '\\$&')} (is|looks like) a credential, got <redacted>; `
      + 'credentials are never accepted from terraform output .*workload identity .*exec plugin'));
    expect(message).not.toContain(SECRET);
    expect(message).not.toContain(Buffer.from(SECRET).toString('base64').slice(0, 12));
  });

  // what the key names and token shapes above do not catch, the library's one rule does
  test.each(CREDENTIAL_SHAPES.map(shape => [shape.name, shape] as const))('%s in an exec argument', (_, shape) => {
    const message = errorOf(() => parse([{ ...GOOD, auth: { type: 'exec', command: 'argocd-k8s-auth', args: ['--token', shape.text] } }]));
    expect(message).toMatch(/clusters\[0\] \("aws-use1-h100-prod-01"\): auth(\.args\[1\] (is|looks like) a credential|: args\[1\] holds secret material)/);
    expect(message).not.toContain(shape.secret);
  });

  test('an empty credential attribute, as a typed Terraform object writes it', () => {
    expect(errorOf(() => parse([{ ...GOOD, auth: { type: 'eks', token: null } }])))
      .toContain('clusters[0] ("aws-use1-h100-prod-01"): auth.token is a credential, got null; credentials are never accepted');
  });

  test('credentials in the endpoint URL', () => {
    const message = errorOf(() => parse([{ ...GOOD, endpoint: `https://admin:${SECRET}@10.0.0.1` }, { ...OTHER, endpoint: `https://10.0.0.2/?token=${SECRET}` }]));
    expect(message).toContain('clusters[0] ("aws-use1-h100-prod-01"): endpoint must not carry credentials, got "https://<redacted>@10.0.0.1/"; credentials are never accepted');
    expect(message).toContain('clusters[1] ("gcp-euw4-h100-prod-02"): endpoint must not carry credentials, got "https://10.0.0.2/?<redacted>"');
    expect(message).not.toContain(SECRET);
  });

  test('secrets under unknown fields stay hidden in the unknown-field message', () => {
    const message = errorOf(() => parse([{ ...GOOD, extra: { note: 'x', password: SECRET } }]));
    expect(message).toContain('extra.password is a credential, got <redacted>');
    expect(message).toContain('extra is not a known field, got {"note":"x","password":"<redacted>"}');
    expect(message).not.toContain(SECRET);
  });
});

describe('what counts as a credential', () => {
  test('by key, in any spelling: tokens, passwords, kubeconfigs, client and private keys, secrets', () => {
    expect(['token', 'bearer_token', 'access_tokens', 'kubeConfig', 'kube_admin_config', 'clientKeyData', 'client_secret', 'api_key', 'private_key']
      .filter(k => !isCredentialKey(k))).toEqual([]);
    // a key or token in a name that is not one
    expect(['cluster_name', 'keyring', 'monkey_business', 'tokenizer_version', 'region'].filter(isCredentialKey)).toEqual([]);
  });

  test('by value: JWTs, EKS tokens, private keys plain or base64-encoded; a CA certificate is none', () => {
    const key = '-----BEGIN RSA PRIVATE KEY-----\nabc\n-----END RSA PRIVATE KEY-----\n';
    expect(['Bearer eyJhbGciOi.eyJzdWIiOi.sig', 'k8s-aws-v1.aHR0cHM6Ly9zdHM', key, Buffer.from(key).toString('base64')].map(isCredentialValue))
      .toEqual([true, true, true, true]);
    expect(isCredentialValue(Buffer.from('-----BEGIN CERTIFICATE-----\nabc\n-----END CERTIFICATE-----\n').toString('base64'))).toBe(false);
  });

  test('a URL is shown without its userinfo and query', () => {
    expect(redactUrl(new URL('https://admin:pw@10.0.0.1:6443/api?token=x'))).toBe('https://<redacted>@10.0.0.1:6443/api?<redacted>');
  });
});
