import { IConstruct } from 'constructs';

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
