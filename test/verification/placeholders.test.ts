import { describe, expect, test } from 'vitest';
import { Comparison, Verification } from '../../src/verification';
import { fillPlaceholders, rolloutsTagsIn, synthPlaceholdersIn, usesClusterPlaceholder } from '../../src/verification/placeholders';
import { problemsOf } from '../support/verification-fixtures';

describe('the two kinds of placeholders', () => {
  test('{name} is filled at synth; braces next to braces or $ pass through (PromQL, JSONPath, shell, Kargo)', () => {
    const text = 'sum(up{job="api",cluster="{cluster}"}) {$.status} ${HOME} ${{ ctx.stage }} {{args.x}} {stage}';
    expect(synthPlaceholdersIn(text)).toEqual(['cluster', 'stage']);
    expect(fillPlaceholders(text, { cluster: 'gcp-1', stage: 'prod' }))
      .toBe('sum(up{job="api",cluster="gcp-1"}) {$.status} ${HOME} ${{ ctx.stage }} {{args.x}} prod');
    // a placeholder without a value stays as written, for the checks to report
    expect(fillPlaceholders('{region}/{clustr}', { region: 'eu' })).toBe('eu/{clustr}');
  });

  test('{{args.<name>}} is left for Argo Rollouts; any other tag is reported, and a Kargo expression holds none', () => {
    expect(rolloutsTagsIn('{{args.version}} {{ args.token }} {{stage}} ${{ vars.x }}')).toEqual({ args: ['version', 'token'], other: ['stage'] });
  });

  test('only the cluster variables make a check differ between the clusters of a wave', () => {
    expect([usesClusterPlaceholder('https://x.{region}.example.com'), usesClusterPlaceholder('https://x.example.com/{stage}/{namespace}')])
      .toEqual([true, false]);
  });
});

describe('checkText: placeholders and argument references', () => {
  test('fails if a check references an undeclared argument', () => {
    expect(problemsOf(Verification.http({ name: 'health', url: 'https://x.{cluster}.example.com/?v={{args.version}}' }))).toEqual([
      'verification "health": http url references an undeclared argument {{args.version}}, got "https://x.{cluster}.example.com/?v={{args.version}}"; '
      + 'declare it in args (e.g. args: { \'version\': VerificationArg.value(\'...\') }); declared: project, stage',
    ]);
  });

  test('fails if a job env references an undeclared argument', () => {
    expect(problemsOf(Verification.job({ image: 'i:1', env: { TARGET: '{{args.target}}' } })).join('\n'))
      .toContain('job env TARGET references an undeclared argument {{args.target}}');
  });

  test('fails if a check uses an unknown placeholder', () => {
    expect(problemsOf(Verification.prometheus({ name: 'p', address: 'http://p:9090', query: 'up{cluster="{clustr}"}', threshold: 1, comparison: Comparison.EQUAL }))).toEqual([
      'verification "p": prometheus query uses unknown placeholder {clustr}, got "up{cluster=\\"{clustr}\\"}"; '
      + 'use one of {cluster}, {region}, {provider}, {accelerator}, {tier}, {stage}, {namespace}, or {{args.clustr}} for an argument',
    ]);
  });

  test('fails if a check holds a Rollouts tag that is not an arg, or a Kargo expression', () => {
    const problems = problemsOf(Verification.http({ name: 'h', url: 'https://x.{cluster}.example.com/{{stage}}/${{ ctx.stage }}' }));
    expect(problems).toEqual([
      'verification "h": http url holds a Kargo expression, got "https://x.{cluster}.example.com/{{stage}}/${{ ctx.stage }}"; '
      + 'Kargo does not evaluate checks: declare an arg with VerificationArg.expression() and reference it as {{args.<name>}}',
      'verification "h": http url uses {{stage}}, which Argo Rollouts cannot resolve, got "https://x.{cluster}.example.com/{{stage}}/${{ ctx.stage }}"; '
      + 'only {{args.<name>}} references are allowed, did you mean {stage} (filled at synth)?',
    ]);
  });
});
