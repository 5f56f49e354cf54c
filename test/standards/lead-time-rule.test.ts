import { Duration } from 'cdk8s';
import { describe, expect, test } from 'vitest';
import { PlatformApp, PlatformStandards, StandardsRules } from '../../src';
import { appProps, world } from '../support/fixtures';

// the fixtures' standard pipeline: dev, staging, then prod in canary and broad waves after a 30m soak each
function review(options: Parameters<typeof StandardsRules.maxLeadTime>[0]) {
  const w = world();
  const app = new PlatformApp(w.app, 'api', appProps(w));
  const standards = new PlatformStandards(w.app, 'standards', { rules: [StandardsRules.maxLeadTime(options)], disabledRules: ['prod-verification'] });
  return { app, violations: standards.review().filter(v => v.ruleId === 'max-lead-time') };
}

describe('StandardsRules.maxLeadTime', () => {
  test('an app within every limit passes', () => {
    const { app, violations } = review({ limit: Duration.hours(2), production: Duration.hours(2), stages: { dev: Duration.minutes(10) } });
    expect(app.leadTime!.seconds).toBeLessThanOrEqual(2 * 3600);
    expect(violations).toEqual([]);
  });

  test('fails if the lead time is longer than the limit, naming the biggest contributors', () => {
    const { app, violations } = review({ limit: Duration.minutes(40) });
    expect(app.leadTime!.seconds).toBe(5 * 60 + 30 * 60 + 30 * 60);
    expect(violations.map(v => v.message)).toEqual([
      'lead time is longer than the limit of 40m (biggest contributors: staging: soak 30m, prod-canary: soak 30m, discovery: polling every 5m0s 5m), '
        + 'got "1h5m"; shorten the soaks or checks on the critical path, declare webhook receivers for the polled repositories, or exempt the app with the reason',
    ]);
  });

  test('fails if a production stage, or a named stage, takes longer than its limit', () => {
    const { violations } = review({ production: Duration.minutes(30), stages: { staging: Duration.minutes(20) } });
    expect(violations.map(v => v.message.split(', got')[0] + ', got' + v.message.split(', got')[1].split(';')[0])).toEqual([
      'lead time to stage "prod" is longer than the limit of 30m (biggest contributors: staging: soak 30m, prod-canary: soak 30m, discovery: polling every 5m0s 5m), got "1h5m"',
      'lead time to stage "staging" is longer than the limit of 20m (biggest contributors: staging: soak 30m, discovery: polling every 5m0s 5m), got "35m"',
    ]);
  });
});
