// A mirror of cdk8s 2.70.0 `App.synth()` (lib/app.js) that imports nothing else of src/; README.md
// in this folder maps each function onto cdk8s's, and test/synth-app.test.ts fails when they drift.
import * as fs from 'fs';
import * as path from 'path';
import { ApiObject, App, AppProps, Chart, DependencyGraph, Names, YamlOutputType } from 'cdk8s';
import { IConstruct } from 'constructs';
import { ManifestYaml } from './manifest-yaml';

/**
 * Properties for `PlatformSynthApp`; the same as cdk8s's `AppProps`.
 */
export interface PlatformSynthAppProps extends AppProps {}

/**
 * A cdk8s `App` whose synthesis takes time linear in the size of the platform: writes the same
 * files, with the same content, as `App`, for any constructs (not only this library's).
 *
 * cdk8s's `App.synth()` writes each chart through `Chart.toJson()`, which resolves the
 * dependencies of the whole app and validates the whole app again before rendering that one
 * chart (cdk8s `lib/app.ts`, `App._synthChart`): with one chart per app and per cluster that
 * runs its own Argo CD, a platform of a thousand apps validates itself thousands of times.
 * This app validates once, resolves dependencies once, then renders each chart's objects
 * (only that chart's subtree) and writes them with a YAML emitter that produces cdk8s's bytes
 * without the `yaml` package's document model.
 *
 * Use it in place of `App` in the program cdk8s runs; nothing else changes.
 *
 * `FILE_PER_CHART` (the default) and `FILE_PER_APP` output are written this way; the other
 * `yamlOutputType`s are left to `App.synth()`.
 *
 * @example
 * const app = new PlatformSynthApp();
 * // ... fleets, pipelines, PlatformApps, PlatformStandards ...
 * app.synth();
 * PlatformReport.write(app);
 */
export class PlatformSynthApp extends App {
  /** Whether synth writes `construct-metadata.json` (cdk8s keeps this private). */
  private readonly writeMetadata: boolean;
  /** The documents the last synth() wrote, by object (see `synthesizedJson`). */
  private readonly written = new Map<ApiObject, unknown>();

  constructor(props: PlatformSynthAppProps = {}) {
    super(props);
    this.writeMetadata = props.recordConstructMetadata ?? process.env.CDK8S_RECORD_CONSTRUCT_METADATA === 'true';
  }

  /** @internal */
  public _synthesized(obj: ApiObject): unknown {
    return this.written.get(obj);
  }

  private render(obj: ApiObject): unknown {
    const json = obj.toJson();
    this.written.set(obj, json);
    return json;
  }

  /**
   * Synthesizes all manifests to the output directory: validates the app once, resolves
   * dependencies once, then writes each chart.
   */
  public synth(): void {
    if (this.yamlOutputType !== YamlOutputType.FILE_PER_CHART && this.yamlOutputType !== YamlOutputType.FILE_PER_APP) {
      super.synth();
      return;
    }
    // validation may render objects too (load limits): it must see the objects as they are now
    this.written.clear();
    const all = this.node.findAll();
    validateAll(all);
    // only now: a definition that fails validation leaves no output directory at all (`cdk8s synth`
    // deletes the old one before it runs the app, so an empty one would replace it)
    fs.mkdirSync(this.outdir, { recursive: true });
    const hasDependantCharts = resolveDependencies(all);
    const order = dependencyFreeOrder(all);
    const charts = order?.charts ?? this.charts;
    const chartObjects = (chart: Chart) => order ? order.objects.get(chart) ?? [] : objectsInDependencyOrder(chart);
    const written: ApiObject[] = [];
    this.writeCharts({ charts, chartObjects, hasDependantCharts, written });
    if (this.writeMetadata) {
      const resources: Record<string, { path: string }> = {};
      for (const o of written) resources[o.name] = { path: o.node.path };
      fs.writeFileSync(path.join(this.outdir, 'construct-metadata.json'), JSON.stringify({ version: '1.0.0', resources }));
    }
  }

  private writeCharts(w: ChartWriting): void {
    const { charts, chartObjects, hasDependantCharts, written } = w;
    const yaml = new ManifestYaml();
    if (this.yamlOutputType === YamlOutputType.FILE_PER_APP) {
      const docs: unknown[] = [];
      for (const chart of charts) {
        const objects = chartObjects(chart);
        written.push(...objects);
        for (const o of objects) docs.push(this.render(o));
      }
      if (charts.length > 0) {
        fs.writeFileSync(path.join(this.outdir, `app${this.outputFileExtension}`), yaml.stringify(docs), { encoding: 'utf8' });
      }
    } else {
      let index = 0;
      for (const chart of charts) {
        // cdk8s numbers the files when any chart depends on another, so they sort in apply order
        const name = hasDependantCharts ? `${String(index++).padStart(4, '0')}-${Names.toDnsLabel(chart)}` : Names.toDnsLabel(chart);
        const objects = chartObjects(chart);
        if (this.writeMetadata) written.push(...objects);
        fs.writeFileSync(path.join(this.outdir, name + this.outputFileExtension), yaml.stringify(objects.map(o => this.render(o))), { encoding: 'utf8' });
      }
    }
  }
}

interface ChartWriting {
  readonly charts: Chart[];
  readonly chartObjects: (chart: Chart) => ApiObject[];
  /** Whether any chart depends on another: cdk8s then numbers the files. */
  readonly hasDependantCharts: boolean;
  /** The objects written, for `construct-metadata.json`. */
  readonly written: ApiObject[];
}

/** Every construct's validations, as cdk8s's `validate(app)` runs them and words the error. */
function validateAll(all: IConstruct[]): void {
  const errors: string[] = [];
  for (const child of all) {
    for (const error of child.node.validate()) errors.push(`[${child.node.path}] ${error}`);
  }
  if (errors.length > 0) {
    throw new Error(`Validation failed with the following errors:\n  ${errors.join('\n  ')}`);
  }
}

/**
 * cdk8s's `resolveDependencies(app)`, over one list of the app's constructs: nested charts and
 * dependencies across charts become chart dependencies, construct dependencies become
 * dependencies between the ApiObjects beneath them. Adding a dependency twice is a no-op, which
 * is why cdk8s can afford to repeat this per chart and this app need not.
 * @returns whether any chart depends on another
 */
function resolveDependencies(all: IConstruct[]): boolean {
  let hasDependantCharts = false;
  const charts = all.filter((c): c is Chart => Chart.isChart(c));
  for (const parent of charts) {
    for (const child of parent.node.children) {
      if (Chart.isChart(child)) {
        parent.node.addDependency(child);
        hasDependantCharts = true;
      }
    }
  }
  for (const dep of dependencies(all)) {
    const sourceChart = Chart.of(dep.source);
    const targetChart = Chart.of(dep.target);
    if (sourceChart !== targetChart) {
      sourceChart.node.addDependency(targetChart);
      hasDependantCharts = true;
    }
  }
  // the second pass sees the chart dependencies the first one added, as in cdk8s
  const objectsBelow = new Map<IConstruct, ApiObject[]>();
  const below = (c: IConstruct, chart: Chart) => {
    let found = objectsBelow.get(c);
    if (!found) {
      found = c.node.findAll().filter((x): x is ApiObject => x instanceof ApiObject && Chart.of(x) === chart);
      objectsBelow.set(c, found);
    }
    return found;
  };
  for (const dep of dependencies(all)) {
    const targets = below(dep.target, Chart.of(dep.target));
    const sources = below(dep.source, Chart.of(dep.source));
    for (const target of targets) {
      for (const source of sources) {
        if (target !== source) source.node.addDependency(target);
      }
    }
  }
  return hasDependantCharts;
}

function dependencies(all: IConstruct[]): { source: IConstruct; target: IConstruct }[] {
  const deps: { source: IConstruct; target: IConstruct }[] = [];
  for (const source of all) {
    for (const target of source.node.dependencies) deps.push({ source, target });
  }
  return deps;
}

/**
 * When no construct depends on another, cdk8s's dependency graphs put the charts (`App.charts`)
 * and each chart's ApiObjects (`chartToKube`) in the order of their paths as the graph's
 * vertex map holds them, which is the pre-order of the tree: take both from the one list of
 * constructs instead of building a graph per chart. Undefined when that does not hold (there
 * are dependencies, or a top-level id is an array index, which a JavaScript object would
 * reorder).
 */
function dependencyFreeOrder(all: IConstruct[]): { charts: Chart[]; objects: Map<Chart, ApiObject[]> } | undefined {
  if (all.some(c => c.node.dependencies.length > 0 || /^(0|[1-9][0-9]*)$/.test(c.node.path))) return undefined;
  const charts: Chart[] = [];
  const objects = new Map<Chart, ApiObject[]>();
  for (const c of all) {
    if (Chart.isChart(c)) {
      charts.push(c);
      objects.set(c, []);
    } else if (c instanceof ApiObject) {
      objects.get(Chart.of(c))!.push(c);
    }
  }
  return { charts, objects };
}

/** The chart's own ApiObjects (not those of nested charts), in dependency order, as cdk8s's `chartToKube`. */
function objectsInDependencyOrder(chart: Chart): ApiObject[] {
  return new DependencyGraph(chart.node).topology()
    .filter((x): x is ApiObject => x instanceof ApiObject && Chart.of(x) === chart);
}
