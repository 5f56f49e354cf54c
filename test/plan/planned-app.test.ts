import { Chart, Testing } from 'cdk8s';
import { describe, expect, test } from 'vitest';
import { PlatformApp } from '../../src';
import { isPlannedApp, markPlannedApp } from '../../src/plan/planned-app';
import { synthApp } from '../support/fixtures';

describe('planned apps', () => {
  test('a PlatformApp is found by its mark, which any chart answers instanceof for and a plain chart lacks', () => {
    const { app } = synthApp();
    const chart = new Chart(Testing.app(), 'other');
    expect([isPlannedApp(app), PlatformApp.isPlatformApp(app)]).toEqual([true, true]);
    expect([isPlannedApp(chart), PlatformApp.isPlatformApp(chart), isPlannedApp(undefined), isPlannedApp('api')]).toEqual([false, false, false, false]);
  });

  test('another IPlatformApp marked by the library is found too (the standards and the report find apps by the mark)', () => {
    const chart = new Chart(Testing.app(), 'custom');
    markPlannedApp(chart as never);
    expect(isPlannedApp(chart)).toBe(true);
    // the mark is shared across copies of the library: a registered symbol, not a module-local one
    expect(Symbol.for('cdk8s-gitops-platform.PlatformApp') in chart).toBe(true);
  });
});
