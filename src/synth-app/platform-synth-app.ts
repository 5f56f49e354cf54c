// README.md in this folder: what differs from cdk8s, line by line, and the tests that catch its changes
import * as fs from 'fs';
import * as path from 'path';
import { ApiObject, App, AppProps, Chart, DependencyGraph, Names, YamlOutputType } from 'cdk8s';
import { IConstruct } from 'constructs';
import { ManifestYaml } from './manifest-yaml';
import { FileWriter } from '../io/file-writer';

/** Properties for `PlatformSynthApp`: cdk8s's `AppProps`. */
export interface PlatformSynthAppProps extends AppProps {}

/**
 * A cdk8s `App` that writes the same files as `App`, for any constructs, in time linear in the size of the platform.
 *
 * cdk8s's `App.synth()` renders each chart with `Chart.toJson()`, which resolves and validates the whole app
 * again first. This app has cdk8s do both once, renders each chart's objects with their own `toJson()`, and
 * writes them with a YAML emitter that writes the bytes of cdk8s's `Yaml.stringify`. `yamlOutputType`s other
 * than `FILE_PER_CHART` (the default) and `FILE_PER_APP` are left to `App.synth()`.
 *
 * @example
 * const app = new PlatformSynthApp();
 * // ... fleets, pipelines, PlatformApps, PlatformStandards ...
 * app.synth();
 * PlatformReport.write(app);
 */
export class PlatformSynthApp extends App {
  /** @internal what `app`'s last `synth()` wrote for `obj`, if `app` is a PlatformSynthApp (for the fleet report) */
  public static _synthesizedJson(app: IConstruct, obj: ApiObject): unknown {
    return app instanceof PlatformSynthApp ? app.written.get(obj) : undefined;
  }

  private readonly recordMetadata: boolean; // as cdk8s's constructor reads it: cdk8s keeps its own private
  private readonly written = new Map<ApiObject, unknown>();

  constructor(props: PlatformSynthAppProps = {}) {
    super(props);
    this.recordMetadata = props.recordConstructMetadata ?? process.env.CDK8S_RECORD_CONSTRUCT_METADATA === 'true';
  }

  /** Synthesizes all manifests to the output directory, the app validated once. */
  public synth(): void {
    const perApp = this.yamlOutputType === YamlOutputType.FILE_PER_APP;
    if (!perApp && this.yamlOutputType !== YamlOutputType.FILE_PER_CHART) return super.synth();
    this.written.clear(); // validations may render objects (load limits): not from the last synth
    this.prepare();
    // after validation: a failed synth leaves no directory to replace the one `cdk8s synth` deleted
    fs.mkdirSync(this.outdir, { recursive: true });
    const all = this.node.findAll();
    // without dependencies, DependencyGraph's topology is the order of its vertices, paths as keys of an
    // object (cdk8s 2.70.0 lib/dependency.js:22-58), which is findAll()'s: ids are keys of an object too
    const plain = !all.some(c => c.node.dependencies.length > 0);
    const charts = plain ? all.filter(Chart.isChart) : this.charts;
    // once dependencies are resolved, a chart depends on another exactly when cdk8s numbers the files
    const numbered = charts.some(chart => chart.node.dependencies.some(d => Chart.of(d) !== chart));
    const yaml = new ManifestYaml();
    const objects: ApiObject[] = [], appDocs: unknown[] = [];
    const files = FileWriter.open(perApp ? 1 : charts.length); // large outputs: written on another core
    const write = (name: string, docs: unknown[]) => files.write(path.join(this.outdir, name + this.outputFileExtension), yaml.stringify(docs));
    try {
      charts.forEach((chart, i) => {
        const docs = this.render(chart, plain ? chart.node.findAll() : new DependencyGraph(chart.node).topology(), objects);
        if (perApp) appDocs.push(...docs);
        else write(numbered ? `${String(i).padStart(4, '0')}-${Names.toDnsLabel(chart)}` : Names.toDnsLabel(chart), docs);
      });
      if (perApp && charts.length > 0) write('app', appDocs);
    } catch (e) {
      files.close({ quiet: true }); // what was handed over is written before synth() throws its own error
      throw e;
    }
    files.close();
    if (this.recordMetadata) {
      const resources: Record<string, { path: string }> = {};
      for (const o of objects) resources[o.name] = { path: o.node.path };
      fs.writeFileSync(path.join(this.outdir, 'construct-metadata.json'), JSON.stringify({ version: '1.0.0', resources }));
    }
  }

  /** Has cdk8s resolve and validate the whole app once: `Chart.toJson()` does, and an empty chart renders nothing. */
  private prepare(): void {
    let id = 'PlatformSynthApp.prepare';
    while (this.node.tryFindChild(id)) id += '_';
    const empty = new Chart(this, id);
    try { empty.toJson(); } finally { this.node.tryRemoveChild(id); }
  }

  /** `chart.toJson()` without preparing the app again: the chart's own objects (not those of nested charts) in
   *  dependency order, each by its `toJson()`; a chart class's own `toJson()` if it has one. */
  private render(chart: Chart, ordered: IConstruct[], objects: ApiObject[]): unknown[] {
    const own = ordered.filter((x): x is ApiObject => x instanceof ApiObject && Chart.of(x) === chart);
    objects.push(...own);
    if (chart.toJson !== Chart.prototype.toJson) return Object.values(chart.toJson());
    const docs = own.map(obj => obj.toJson());
    own.forEach((obj, i) => this.written.set(obj, docs[i]));
    return docs;
  }
}
