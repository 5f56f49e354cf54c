import { Chart } from 'cdk8s';
import { IConstruct } from 'constructs';

/**
 * From this many charts on, validating the whole app once per chart costs more than the
 * synthesis itself. cdk8s's plain `App` costs about 26 s more than `PlatformSynthApp` at 901
 * charts (100 clusters × 300 apps), and the extra grows with the square of the charts: about
 * 0.3 s at 100 charts, too little to tell anyone about below that.
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
