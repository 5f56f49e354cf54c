// cdk8s's App, validating once: README.md in this folder says what it changes, line by line, and
// which tests fail when cdk8s changes under it.
import * as fs from 'fs';
import * as path from 'path';
import { ApiObject, App, AppProps, Chart, DependencyGraph, Names, YamlOutputType } from 'cdk8s';
import { ManifestYaml } from './manifest-yaml';

/**
 * Properties for `PlatformSynthApp`; the same as cdk8s's `AppProps`.
 */
export interface PlatformSynthAppProps extends AppProps {}

/**
 * A cdk8s `App` whose synthesis takes time linear in the size of the platform: it writes the same
 * files, with the same content, as `App`, for any constructs (not only this library's).
 *
 * cdk8s 2.70's `App.synth()` renders each chart with `Chart.toJson()`, which resolves the
 * dependencies of the whole app and validates the whole app again before it renders that chart
 * (`App._synthChart`): with a chart per app and per cluster that runs its own Argo CD, a platform
 * of a thousand apps validates itself thousands of times. This app has cdk8s resolve and validate
 * once, renders each chart's objects with their own `toJson()`, as `Chart.toJson()` does, and
 * writes them with a YAML emitter that writes what cdk8s's `Yaml.stringify` writes.
 *
 * Use it in place of `App` in the program cdk8s runs; nothing else changes. `FILE_PER_CHART` (the
 * default) and `FILE_PER_APP` output are written this way; the other `yamlOutputType`s are left to
 * `App.synth()`.
 *
 * @example
 * const app = new PlatformSynthApp();
 * // ... fleets, pipelines, PlatformApps, PlatformStandards ...
 * app.synth();
 * PlatformReport.write(app);
 */
export class PlatformSynthApp extends App {
  /** `recordConstructMetadata` as cdk8s's constructor reads it (cdk8s keeps its own private). */
  private readonly recordMetadata: boolean;
  /** The documents the last synth() wrote, by object (see `synthesizedJson`). */
  private readonly written = new Map<ApiObject, unknown>();

  constructor(props: PlatformSynthAppProps = {}) {
    super(props);
    this.recordMetadata = props.recordConstructMetadata ?? process.env.CDK8S_RECORD_CONSTRUCT_METADATA === 'true';
  }

  /** @internal */
  public _synthesized(obj: ApiObject): unknown {
    return this.written.get(obj);
  }

  /**
   * Synthesizes all manifests to the output directory: dependencies resolved and the app
   * validated once, then each chart written.
   */
  public synth(): void {
    const perApp = this.yamlOutputType === YamlOutputType.FILE_PER_APP;
    if (!perApp && this.yamlOutputType !== YamlOutputType.FILE_PER_CHART) {
      super.synth();
      return;
    }
    // validations may render objects (load limits): they must not be handed the last synth's
    this.written.clear();
    this.prepare();
    // only now: a definition that fails validation leaves no output directory at all (`cdk8s synth`
    // deletes the old one before it runs the app, so an empty one would replace it)
    fs.mkdirSync(this.outdir, { recursive: true });
    const charts = this.charts;
    // once dependencies are resolved, a chart depends on another exactly when cdk8s numbers the files
    const numbered = charts.some(chart => chart.node.dependencies.some(d => Chart.of(d) !== chart));
    const yaml = new ManifestYaml();
    const objects: ApiObject[] = [];
    const appDocs: unknown[] = [];
    charts.forEach((chart, i) => {
      const docs = this.render(chart, objects);
      if (perApp) {
        appDocs.push(...docs);
      } else {
        const name = numbered ? `${String(i).padStart(4, '0')}-${Names.toDnsLabel(chart)}` : Names.toDnsLabel(chart);
        fs.writeFileSync(path.join(this.outdir, name + this.outputFileExtension), yaml.stringify(docs), { encoding: 'utf8' });
      }
    });
    if (perApp && charts.length > 0) {
      fs.writeFileSync(path.join(this.outdir, `app${this.outputFileExtension}`), yaml.stringify(appDocs), { encoding: 'utf8' });
    }
    if (this.recordMetadata) {
      const resources: Record<string, { path: string }> = {};
      for (const o of objects) resources[o.name] = { path: o.node.path };
      fs.writeFileSync(path.join(this.outdir, 'construct-metadata.json'), JSON.stringify({ version: '1.0.0', resources }));
    }
  }

  /**
   * Has cdk8s resolve the app's dependencies and validate the app, once: `Chart.toJson()` does both
   * for the whole app before it renders its own chart, and an empty chart renders nothing.
   */
  private prepare(): void {
    let id = 'PlatformSynthApp.prepare';
    while (this.node.tryFindChild(id)) id += '_';
    const empty = new Chart(this, id);
    try {
      empty.toJson();
    } finally {
      this.node.tryRemoveChild(id);
    }
  }

  /**
   * What `chart.toJson()` returns, but for preparing the app again: the chart's own objects (not
   * those of nested charts) in dependency order, each rendered by its `toJson()`. A chart class
   * that overrides `toJson()` (the hook cdk8s's `App.synth()` calls) is rendered by it.
   */
  private render(chart: Chart, objects: ApiObject[]): unknown[] {
    const own = new DependencyGraph(chart.node).topology().filter((x): x is ApiObject => x instanceof ApiObject && Chart.of(x) === chart);
    objects.push(...own);
    if (chart.toJson !== Chart.prototype.toJson) return Object.values(chart.toJson());
    return own.map(obj => {
      const json = obj.toJson();
      this.written.set(obj, json);
      return json;
    });
  }
}
