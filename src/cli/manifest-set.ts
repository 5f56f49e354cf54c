import * as fs from 'fs';
import * as path from 'path';
import * as YAML from 'yaml';
import { PlatformLabels } from '../contracts/labels';
import { listYamlFiles } from '../testkit/yaml-files';
import { describe } from '../util/errors';

/** The name under which the fleet's objects (cluster Secrets and `fleet*.k8s.yaml`) are grouped. */
export const FLEET_GROUP = 'fleet';

/** One synthesized object and where it came from. */
export interface ManifestObject {
  /** The file, relative to the synthesized directory. */
  readonly file: string;
  /** The app (or the fleet) the object belongs to. */
  readonly group: string;
  /** The cluster of a per-cluster Argo CD file (`<app>--<cluster>.k8s.yaml`), else ''. */
  readonly cluster: string;
  /** `[<cluster>] apiVersion kind namespace/name`: unique within a synthesized directory. */
  readonly key: string;
  /** The object. */
  readonly obj: any;
}

/**
 * The objects of a synthesized directory, grouped by app.
 *
 * @example
 * const set = ManifestSet.load('manifests');
 * for (const app of set.groups()) console.log(app, set.ofGroup(app).length);
 */
export class ManifestSet {
  /**
   * Loads every `*.yaml` / `*.yml` below a directory (multi-document, in path order).
   * @throws when a document does not parse
   */
  public static load(dir: string): ManifestSet {
    const objects: ManifestObject[] = [];
    for (const file of listYamlFiles(dir)) {
      const rel = path.relative(dir, file).split(path.sep).join('/');
      objects.push(...ManifestSet.parseFile(rel, fs.readFileSync(file, 'utf8')));
    }
    return new ManifestSet(objects);
  }

  /** Builds a set from objects already in memory (tests, other tools). */
  public static fromObjects(objects: Array<{ file: string; obj: any }>): ManifestSet {
    return new ManifestSet(objects.map(({ file, obj }) => manifestObject(file, obj)));
  }

  /**
   * The objects of one YAML file (multi-document; `rel` is its path in the synthesized directory).
   * @throws when a document does not parse
   * @internal
   */
  public static parseFile(rel: string, text: string): ManifestObject[] {
    const objects: ManifestObject[] = [];
    for (const doc of YAML.parseAllDocuments(text)) {
      if (doc.errors.length > 0) {
        throw new Error(describe(rel, doc.errors[0].message.split('\n')[0], 'does not parse as YAML', 'fix the YAML there'));
      }
      const obj = doc.toJS();
      if (obj !== null && typeof obj === 'object') objects.push(manifestObject(rel, obj));
    }
    return objects;
  }

  /**
   * The group of a file's objects that carry no app label: its name up to `--<cluster>` and the
   * extension (`app-1--c1.k8s.yaml` → `app-1`), and the cluster after `--`.
   * @internal
   */
  public static fileGroup(file: string): { stem: string; cluster: string } {
    const base = path.posix.basename(file).replace(/\.ya?ml$/, '').replace(/\.k8s$/, '');
    const [stem, cluster = ''] = base.split('--');
    return { stem, cluster };
  }

  /**
   * A set of parsed objects plus groups known only by name: their files are byte-identical to the
   * other side's and were not read (see `loadPair`), so `ofGroup` has no objects for them.
   * @internal
   */
  public static of(objects: ManifestObject[], unreadGroups: Iterable<string> = []): ManifestSet {
    return new ManifestSet(objects, unreadGroups);
  }

  // indexed once: a plan at fleet size asks for thousands of groups of tens of thousands of objects
  private readonly byGroup = new Map<string, ManifestObject[]>();
  private readonly groupNames: string[];

  private constructor(public readonly objects: ManifestObject[], unreadGroups: Iterable<string> = []) {
    for (const o of objects) {
      const list = this.byGroup.get(o.group);
      if (list) list.push(o);
      else this.byGroup.set(o.group, [o]);
    }
    this.groupNames = [...new Set([...this.byGroup.keys(), ...unreadGroups])].sort(compare);
  }

  /** The names of the groups, sorted (apps and, when present, the fleet). */
  public groups(): string[] {
    return [...this.groupNames];
  }

  /** The objects of one group. */
  public ofGroup(group: string): ManifestObject[] {
    return [...this.byGroup.get(group) ?? []];
  }
}

function manifestObject(file: string, obj: any): ManifestObject {
  const { stem, cluster } = ManifestSet.fileGroup(file);
  const labels = obj?.metadata?.labels ?? {};
  const isClusterSecret = obj?.kind === 'Secret' && labels['argocd.argoproj.io/secret-type'] === 'cluster';
  const group = isClusterSecret ? FLEET_GROUP : (typeof labels[PlatformLabels.APP] === 'string' ? labels[PlatformLabels.APP] : stem);
  const meta = obj?.metadata ?? {};
  const id = `${obj?.apiVersion ?? ''} ${obj?.kind ?? ''} ${meta.namespace ? `${meta.namespace}/` : ''}${meta.name ?? ''}`;
  return { file, group, cluster, key: cluster ? `[${cluster}] ${id}` : id, obj };
}

/** Plain code-unit order: the same on every machine. */
export function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** JSON with sorted keys: equal objects give equal text whatever their key order. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v) => (v !== null && typeof v === 'object' && !Array.isArray(v)
    ? Object.fromEntries(Object.keys(v).sort(compare).map((k) => [k, v[k]])) : v));
}
