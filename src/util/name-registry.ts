import { IConstruct } from 'constructs';
import { fail } from './errors';

const registries = new WeakMap<IConstruct, Map<string, string>>();

/**
 * Claims names that must be unique across the whole cdk8s app (Argo CD objects share one
 * namespace; Kargo Projects are cluster-wide). Returns the owner that already holds the name,
 * or undefined when the claim succeeded.
 * @internal
 */
export function claimName(scope: IConstruct, kind: string, name: string, owner: string): string | undefined {
  const root = scope.node.root;
  let registry = registries.get(root);
  if (!registry) {
    registry = new Map();
    registries.set(root, registry);
  }
  const key = `${kind}/${name}`;
  const holder = registry.get(key);
  if (holder !== undefined && holder !== owner) return holder;
  registry.set(key, owner);
  return undefined;
}

/** Charts are synthesized into one directory, one file per chart id. @internal */
export const OUTPUT_CHART = 'output chart';

/**
 * Claims a chart id (hence an output file) before the chart is defined, so a clash with another
 * app's chart, per-cluster chart or fleet names its owner instead of failing as a duplicate
 * construct.
 * @internal
 */
export function claimChartId(scope: IConstruct, id: string, owner: string): void {
  const holder = claimName(scope, OUTPUT_CHART, id, owner);
  if (holder) {
    fail(owner, 'construct id', id, `is already the output chart of ${holder}`, 'give it an id no other chart uses');
  }
}
