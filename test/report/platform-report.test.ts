import { Duration } from 'cdk8s';
import { describe, expect, test } from 'vitest';
import { DeployFreeze, FreezeSchedule, PlatformApp, PlatformReport } from '../../src';
import { appProps, SMALL_FLEET, world } from '../support/fixtures';
import { yearEnd } from '../support/freezes';

test('the <app>.plan.md report escapes a freeze reason in the table and in the Mermaid graph', () => {
  const reason = 'audit | "Q4" <b>`x`</b>';
  const w = world(SMALL_FLEET, { freezes: [new DeployFreeze({ reason, schedule: FreezeSchedule.cron('0 0 20 12 *', Duration.days(14)), stages: ['prod'] })] });
  const md = PlatformReport.renderApp(new PlatformApp(w.app, 'api', appProps(w)));
  expect(md).not.toContain('<b>');
  const row = md.split('\n').find((l) => l.startsWith('| prod |'))!;
  expect(row).toBe('| prod | audit \\| "Q4" &lt;b&gt;\\`x\\`&lt;/b&gt; | `0 0 20 12 *` for 336h (UTC) | no | pipeline |');
  // a table row keeps its five cells: no unescaped | inside
  expect(row.split(/(?<!\\)\|/).length - 2).toBe(5);
  expect(md).toContain('frozen: audit #124; #quot;Q4#quot; #lt;b#gt;#96;x#96;#lt;/b#gt;"]');
});

test('the fleet report lists the time zones the freezes make the Kargo controller load, which its image lacks', () => {
  const w = world(SMALL_FLEET, {
    freezes: [new DeployFreeze({ reason: 'year end', schedule: FreezeSchedule.cron('0 0 20 12 *', Duration.days(14)), timeZone: 'Europe/Berlin', stages: ['prod'] })],
  });
  const app = new PlatformApp(w.app, 'api', appProps(w));
  const report = PlatformReport.renderFleet(w.fleet, [app]);
  expect(report).toContain('## Time zones the Kargo controller must load');
  expect(report).toContain('- `Europe/Berlin`: api');
  expect(PlatformReport.renderFleet(world().fleet, [])).not.toContain('Time zones');
});

describe('PlatformReport.renderApp', () => {
  test('the plan report shows freezes per stage', () => {
    const w = world(SMALL_FLEET, { freezes: [yearEnd()] });
    const md = PlatformReport.renderApp(new PlatformApp(w.app, 'api', appProps(w)));
    expect(md).toContain('subgraph stage_s_prod["prod: manual, production<br/>frozen: year-end freeze"]');
    expect(md).toContain('| prod | year-end freeze | `0 0 20 12 *` for 336h (UTC) | no | pipeline |');
  });
});
