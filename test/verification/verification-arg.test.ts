import { describe, expect, test } from 'vitest';
import { Verification, VerificationArg } from '../../src/verification';
import { expectValid, GATEWAY_IMAGE, health, problemsOf, render } from '../support/verification-fixtures';

describe('args wiring', () => {
  test('template args are declared without value (Kargo passes them) or read from a Secret; Kargo passes the rest', () => {
    const rendered = render([Verification.http({
      name: 'version',
      url: 'https://gateway.{cluster}.example.com/version?expect={{args.version}}&commit={{ args.commit }}&p={{args.project}}&s={{args.stage}}&r={{args.run}}',
      headers: { Authorization: 'Bearer {{args.token}}' },
      args: {
        version: VerificationArg.imageTag(GATEWAY_IMAGE),
        commit: VerificationArg.commit('https://github.com/acme/gateway.git/'),
        run: VerificationArg.expression('vars.runId'),
        token: VerificationArg.fromSecret('gateway-probe', 'token'),
        unused: VerificationArg.value('x'),
      },
    })]);
    expectValid(rendered);
    expect(rendered.templates[0].spec.args).toEqual([
      { name: 'commit' },
      { name: 'project' },
      { name: 'run' },
      { name: 'stage' },
      { name: 'token', valueFrom: { secretKeyRef: { name: 'gateway-probe', key: 'token' } } },
      { name: 'version' },
    ]);
    expect(rendered.stageVerification.args).toEqual([
      { name: 'commit', value: '${{ quote(commitFrom(\'https://github.com/acme/gateway.git\').ID) }}' },
      { name: 'project', value: '${{ quote(ctx.project) }}' },
      { name: 'run', value: '${{ quote(vars.runId) }}' },
      { name: 'stage', value: '${{ quote(ctx.stage) }}' },
      { name: 'version', value: '${{ quote(imageFrom(\'ghcr.io/acme/gateway\').Tag) }}' },
    ]);
  });

  test('analysisRunMetadata labels the AnalysisRun with the app and the Stage', () => {
    expect(render([health()]).stageVerification.analysisRunMetadata).toEqual({
      labels: { 'gitops-platform.io/app': 'gateway', 'gitops-platform.io/stage': 'prod-canary', 'gitops-platform.io/pipeline-stage': 'prod' },
    });
  });

  test('checks sharing an arg with the same value pass it once', () => {
    const version = () => ({ version: VerificationArg.imageTag(GATEWAY_IMAGE) });
    const checks = [
      Verification.http({ name: 'a', url: 'https://a.{cluster}.example.com/?v={{args.version}}', args: version() }),
      Verification.http({ name: 'b', url: 'https://b.{cluster}.example.com/?v={{args.version}}', args: version() }),
    ];
    expect(problemsOf(...checks)).toEqual([]);
    const rendered = render(checks);
    expectValid(rendered);
    expect(rendered.stageVerification.args).toEqual([{ name: 'version', value: '${{ quote(imageFrom(\'ghcr.io/acme/gateway\').Tag) }}' }]);
  });

  test('fails if an arg expression does not compile as Kargo compiles verification args (expr-lang v1.17.8, its functions)', () => {
    expect(VerificationArg.expression("imageFrom('ghcr.io/acme/api').Tag + '-' + ctx.stage")._problems).toEqual([]);
    expect(VerificationArg.expression("semverDiff(vars.from, vars.to) != 'none' ? 'x' : 'y'")._problems).toEqual([]);
    expect(VerificationArg.expression('ctx.stage +')._problems).toEqual([
      'arg expression does not compile with expr-lang v1.17.8 and the functions Kargo gives verification args (unexpected token Bracket(")") (1:19), '
      + 'in ${{ quote(ctx.stage +) }}), got "ctx.stage +"; fix the expression, e.g. "ctx.stage" or "imageFrom(\'ghcr.io/acme/api\').Tag"',
    ]);
    // imageFrom takes a repository URL (and an origin): Kargo's declared parameter types decide
    expect(VerificationArg.expression('imageFrom(42).Tag')._problems).toEqual([expect.stringMatching(/cannot use int as argument \(type string\) to call imageFrom/)]);
  });

  test('plain arg values may use {stage}', () => {
    const rendered = render([Verification.http({ url: 'https://x.{cluster}.example.com/?env={{args.env}}', args: { env: VerificationArg.value('{stage}-eu') } })]);
    expect(rendered.stageVerification.args).toEqual([{ name: 'env', value: 'prod-eu' }]);
  });

  test('no checks: no templates and no verification', () => {
    expect(render([])).toEqual({ templates: [], stageVerification: undefined, problems: [] });
  });

  test('a valid list of checks has no problems', () => {
    expect(problemsOf(health(), Verification.fromTemplate('load-test'))).toEqual([]);
  });
});
