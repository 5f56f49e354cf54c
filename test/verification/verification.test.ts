import { Duration } from 'cdk8s';
import { describe, expect, test } from 'vitest';
import { Comparison, Verification, VerificationKind } from '../../src/verification';

describe('Verification', () => {
  test('each factory makes a check of its kind, named after the kind unless given a name (a template by its own name)', () => {
    const checks = [
      Verification.http({ url: 'https://x.{cluster}.example.com' }),
      Verification.prometheus({ address: 'http://p:9090', query: 'up{cluster="{cluster}"}', threshold: 1, comparison: Comparison.EQUAL }),
      Verification.job({ image: 'ghcr.io/acme/smoke:1' }),
      Verification.fromTemplate('platform-smoke'),
    ];
    expect(checks.map(c => [c.kind, c.name, c._problems])).toEqual([
      [VerificationKind.HTTP, 'http', []], [VerificationKind.PROMETHEUS, 'prometheus', []], [VerificationKind.JOB, 'job', []],
      [VerificationKind.TEMPLATE, 'platform-smoke', []],
    ]);
  });

  test('a check is measured per cluster when its text uses a cluster placeholder, and once per Stage otherwise', () => {
    expect(Verification.http({ url: 'https://x.{cluster}.example.com' })._perCluster).toBe(true);
    expect(Verification.http({ url: 'https://status.example.com/{stage}' })._perCluster).toBe(false);
    expect(Verification.fromTemplate('t')._perCluster).toBe(false);
  });

  test('renders one cluster\'s metric with the check\'s timing and the placeholders filled; a template reference has no metric', () => {
    const check = Verification.http({ name: 'health', url: 'https://x.{cluster}.example.com', count: 3, interval: Duration.seconds(30) });
    const [metric] = check._renderMetrics('health-c1', { cluster: 'c1' }, {});
    expect(metric).toMatchObject({ name: 'health-c1', count: 3, interval: '30s', provider: { web: { url: 'https://x.c1.example.com' } } });
    expect(() => Verification.fromTemplate('t')._renderMetrics('t', {}, {})).toThrow('verification is a template reference and has no metric, got "t"');
  });
});
