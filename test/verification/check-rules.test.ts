import { Duration } from 'cdk8s';
import { describe, expect, test } from 'vitest';
import { Comparison, Verification, VerificationArg } from '../../src/verification';
import { problemsOf, render } from '../support/verification-fixtures';

describe('the first measurement of a probe that can end on it waits 5 s', () => {
  // Kargo v1.11.2 drops the update event of an AnalysisRun that ends before the Stage recorded it
  // (check-rules.ts FIRST_MEASUREMENT_DELAY): a run must outlast the Stage's status write
  const delays = (check: Verification) => render([check]).templates[0].spec.metrics.map((m: any) => m.initialDelay);
  const probe = { url: 'https://x.{cluster}.example.com/health' };

  test.each([
    ['failureLimit 0', { failureLimit: 0 }],
    ['count 1', { count: 1, failureLimit: 0 }],
  ])('an HTTP or Prometheus check with %s', (_, timing) => {
    expect(new Set(delays(Verification.http({ ...probe, ...timing })))).toEqual(new Set(['5s']));
    expect(new Set(delays(Verification.prometheus({ address: 'http://p:9090', query: 'up', threshold: 1, comparison: Comparison.EQUAL, ...timing }))))
      .toEqual(new Set(['5s']));
  });

  test('not with the defaults, not over a delay of its own, not for a Job (its run lasts the Job)', () => {
    expect(new Set(delays(Verification.http(probe)))).toEqual(new Set([undefined]));
    expect(new Set(delays(Verification.http({ ...probe, failureLimit: 0, initialDelay: Duration.seconds(30) })))).toEqual(new Set(['30s']));
    expect(delays(Verification.job({ name: 'smoke', image: 'smoke:1' }))).toEqual([undefined]);
  });
});

describe('the rules every check kind shares', () => {
  test('fails if a credential header is a literal, without showing it', () => {
    const problems = problemsOf(Verification.http({ name: 'h', url: 'https://x.{cluster}.example.com', headers: { Authorization: 'Bearer s3cr3t-t0ken' } }));
    expect(problems).toEqual([
      'verification "h": http header "Authorization" looks like a credential, got a literal value; put it in a Kubernetes Secret in the project namespace: '
      + 'headers: { \'Authorization\': \'Bearer {{args.token}}\' } with args: { token: VerificationArg.fromSecret(\'<secret>\', \'<key>\') }',
    ]);
    expect(problems.join()).not.toContain('s3cr3t');
  });

  test('fails if a credential header references an arg that is not a Secret', () => {
    expect(problemsOf(Verification.http({
      url: 'https://x.{cluster}.example.com', headers: { 'X-Api-Key': '{{args.key}}' }, args: { key: VerificationArg.value('abc') },
    })).join('\n')).toContain('http header "X-Api-Key" looks like a credential but {{args.key}} does not come from a Secret; declare it with VerificationArg.fromSecret');
    expect(problemsOf(Verification.job({ name: 'j', image: 'i:1', env: { DB_PASSWORD: '{{args.stage}}' } }))).toEqual([
      'verification "j": job env DB_PASSWORD looks like a credential but {{args.stage}} does not come from a Secret; declare it with VerificationArg.fromSecret(\'<secret>\', \'<key>\')',
    ]);
  });

  test('a credential reference to a misspelt arg reports the undeclared arg only', () => {
    expect(problemsOf(Verification.http({
      name: 'h', url: 'https://x.example.com', headers: { Authorization: 'Bearer {{args.tokn}}' }, args: { token: VerificationArg.fromSecret('s', 'k') },
    }))).toEqual([
      'verification "h": http header "Authorization" references an undeclared argument {{args.tokn}}, got "Bearer {{args.tokn}}"; '
      + 'declare it in args (e.g. args: { \'tokn\': VerificationArg.value(\'...\') }); declared: project, stage, token',
    ]);
  });

  test('fails if a header value looks like a bearer token under any name', () => {
    expect(problemsOf(Verification.prometheus({
      address: 'http://p:9090', query: 'up', threshold: 1, comparison: Comparison.EQUAL, headers: { 'X-Forward': 'Bearer abcdefghijkl' },
    })).join('\n')).toContain('prometheus header "X-Forward" looks like a credential');
  });

  test('fails if a credential env is a literal, without showing it', () => {
    const problems = problemsOf(Verification.job({ name: 'smoke', image: 'i:1', env: { API_TOKEN: 'hunter2' } }));
    expect(problems).toEqual([
      'verification "smoke": job env API_TOKEN looks like a credential, got a literal value; put it in a Kubernetes Secret in the project namespace: '
      + 'env: { API_TOKEN: \'{{args.api-token}}\' } with args: { \'api-token\': VerificationArg.fromSecret(\'<secret>\', \'<key>\') }',
    ]);
    expect(problems.join()).not.toContain('hunter2');
  });

  test('fails if a secret arg is used where it would leak (url, query, job args, part of an env value)', () => {
    const token = { token: VerificationArg.fromSecret('s', 'k') };
    expect(problemsOf(Verification.http({ name: 'h', url: 'https://x.{cluster}.example.com/?t={{args.token}}', args: token }))).toEqual([
      'verification "h": http url references a secret argument, got "{{args.token}}"; secrets may only be used in headers (or a whole job env value): error messages and logs show the url',
    ]);
    expect(problemsOf(Verification.prometheus({ address: 'http://p', query: 'x{t="{{args.token}}"}', threshold: 1, comparison: Comparison.EQUAL, args: token })).join())
      .toContain('prometheus query references a secret argument, got "{{args.token}}"');
    expect(problemsOf(Verification.job({ image: 'i:1', containerArgs: ['--token={{args.token}}'], args: token })).join())
      .toContain('job containerArgs[0] references a secret argument, got "{{args.token}}"');
    expect(problemsOf(Verification.job({ image: 'i:1', env: { AUTH_HEADER: 'Bearer {{args.token}}' }, args: token })).join())
      .toContain('job env AUTH_HEADER references a secret argument, got "{{args.token}}"');
  });

  test('fails if durations are not positive whole seconds', () => {
    expect(problemsOf(Verification.http({
      name: 'h', url: 'https://x.example.com', interval: Duration.millis(1500), initialDelay: Duration.seconds(0), timeout: Duration.millis(500),
    }))).toEqual([
      'verification "h": http interval must be a positive whole number of seconds, got "1.5s"; use e.g. Duration.seconds(30)',
      'verification "h": http initialDelay must be a positive whole number of seconds, got "0s"; use e.g. Duration.seconds(30)',
      'verification "h": http timeout must be a positive whole number of seconds, got "0.5s"; use e.g. Duration.seconds(30)',
    ]);
    expect(problemsOf(Verification.job({ name: 'j', image: 'i:1', activeDeadline: Duration.millis(10) }))).toEqual([
      'verification "j": job activeDeadline must be a positive whole number of seconds, got "0.01s"; use e.g. Duration.seconds(30)',
    ]);
  });

  test('fails if counts and limits are invalid', () => {
    expect(problemsOf(Verification.http({ name: 'h', url: 'https://x.example.com', count: 0 }))).toEqual([
      'verification "h": http count must be a whole number of at least 1, got 0',
    ]);
    expect(problemsOf(Verification.http({ name: 'h', url: 'https://x.example.com', count: 2.5 }))).toEqual([
      'verification "h": http count must be a whole number of at least 1, got 2.5',
    ]);
    expect(problemsOf(Verification.http({ name: 'h', url: 'https://x.example.com', failureLimit: -1 }))).toEqual([
      'verification "h": http failureLimit must be a whole number of at least 0, got -1',
    ]);
    expect(problemsOf(Verification.job({ name: 'j', image: 'i:1', failureLimit: 1 }))).toEqual([
      'verification "j": job failureLimit must be less than count (1), got 1; otherwise the check can never fail',
    ]);
    expect(problemsOf(Verification.job({ name: 'j', image: 'i:1', backoffLimit: -1, user: 0 }))).toEqual([
      'verification "j": job backoffLimit must be a whole number of at least 0, got -1',
      'verification "j": job user must be a whole number above 0 (not root), got 0; use e.g. 65532',
    ]);
  });

  test('fails if a generated check declares a built-in arg, or an arg with a bad name', () => {
    expect(problemsOf(Verification.http({ name: 'h', url: 'https://x.example.com', args: { 'stage': VerificationArg.value('x'), '1st': VerificationArg.value('y') } }))).toEqual([
      'verification "h": arg name is built in ({{args.stage}} is always the Kargo stage), got "stage"; remove it from args, or pick another name',
      'verification "h": arg name must start with a letter and consist of letters, digits, \'_\' and \'-\', got "1st"',
    ]);
  });
});
