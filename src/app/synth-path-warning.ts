import { Chart } from 'cdk8s';
import { IConstruct } from 'constructs';

/**
 * From about this many charts on, validating the whole app once per chart costs as much as the
 * rest of the synthesis. Measured with `bench/synth-once.ts` (CPU of the process, define and
 * synth): 99 charts (100 clusters × 33 apps) 3.2 s with cdk8s's `App` against 1.8 s with
 * `PlatformSynthApp`; 901 charts (100 × 300) 42.0 s against 6.9 s. The extra grows with the
 * square of the charts; a small app is not worth a warning.
 */
export const SLOW_SYNTH_CHARTS = 100;

/** The apps (construct roots) already watched: one watch, so one warning, per app. */
const watched = new WeakSet<IConstruct>();

/**
 * Tells the user once, on stderr, when the app they synthesize validates itself again for every
 * chart: cdk8s's `App.synth()` and `Testing.synth(chart)` write each chart through
 * `Chart.toJson()`, which validates the whole app first (cdk8s 2.70.0 `lib/app.js`,
 * `App._synthChart` and `validate`). `PlatformSynthApp` validates once, so a second validation
 * pass is what tells the two apart, without looking at the app's class.
 */
export function warnOnPerChartValidation(scope: IConstruct): void {
  const root = scope.node.root;
  if (watched.has(root)) return;
  watched.add(root);
  let passes = 0;
  root.node.addValidation({
    validate: () => {
      passes++;
      if (passes !== 2) return [];
      const charts = root.node.findAll().filter(c => Chart.isChart(c)).length;
      if (charts >= SLOW_SYNTH_CHARTS) {
        console.warn(
          `warning: cdk8s's App validates the whole app again for each of its ${charts} charts, so synthesis time grows ` +
          'with the square of the platform; synthesize with PlatformSynthApp in place of App (same files, one validation)',
        );
      }
      return [];
    },
  });
}
