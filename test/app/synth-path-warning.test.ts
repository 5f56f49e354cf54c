import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { App, Chart } from 'cdk8s';
import { afterEach, expect, test, vi } from 'vitest';
import { ClusterFleet, PlatformApp, PlatformSynthApp } from '../../src';
import { SLOW_SYNTH_CHARTS } from '../../src/app/synth-path-warning';
import { appProps, SMALL_FLEET, standardPipeline } from '../support/fixtures';

const outdirs: string[] = [];
afterEach(() => {
  vi.restoreAllMocks();
  for (const dir of outdirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

/** Synthesizes two PlatformApps and enough empty charts for `charts` in all; returns what synth warned. */
function warningsOf(make: (outdir: string) => App, charts: number): string[] {
  const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'synth-path-'));
  outdirs.push(outdir);
  const app = make(outdir);
  const fleet = new ClusterFleet(app, 'fleet', { clusters: SMALL_FLEET });
  const pipeline = standardPipeline(app);
  new PlatformApp(app, 'api', appProps({ app, fleet, pipeline }));
  new PlatformApp(app, 'web', appProps({ app, fleet, pipeline }));
  const before = app.node.findAll().filter(c => Chart.isChart(c)).length;
  for (let i = before; i < charts; i++) new Chart(app, `extra-${i}`);
  const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
  app.synth();
  return warn.mock.calls.map(args => String(args[0]));
}

test(`cdk8s's App with ${SLOW_SYNTH_CHARTS} charts: one warning that names the count and PlatformSynthApp`, () => {
  const warnings = warningsOf(outdir => new App({ outdir }), SLOW_SYNTH_CHARTS);
  expect(warnings).toEqual([
    `warning: cdk8s's App validates the whole app again for each of its ${SLOW_SYNTH_CHARTS} charts, so synthesis time grows ` +
    'with the square of the platform; synthesize with PlatformSynthApp in place of App (same files, one validation)',
  ]);
});

test('PlatformSynthApp with as many charts: no warning', () => {
  expect(warningsOf(outdir => new PlatformSynthApp({ outdir }), SLOW_SYNTH_CHARTS)).toEqual([]);
});

test(`cdk8s's App with fewer than ${SLOW_SYNTH_CHARTS} charts: no warning`, () => {
  expect(warningsOf(outdir => new App({ outdir }), SLOW_SYNTH_CHARTS - 1)).toEqual([]);
});
