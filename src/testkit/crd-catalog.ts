import Ajv, { ValidateFunction } from 'ajv';
import { BundledCrd } from './schema-bundle';
import { shareLargeSubschemas, toJsonSchema } from './structural-schema';

/** A custom resource kind served by one of the pinned CRDs. */
export interface CrdKind {
  readonly group: string;
  readonly kind: string;
  readonly namespaced: boolean;
  /** Where the CRD came from, relative to the CRDs directory. */
  readonly source: string;
}

/**
 * Index of the pinned CRDs of a schema bundle (see `schema-bundle.ts`). Compiling happens lazily,
 * once per kind and version.
 */
export class CrdCatalog {
  private readonly kinds = new Map<string, BundledCrd>();
  private readonly validators = new Map<string, ValidateFunction | Error>();

  constructor(crds: readonly BundledCrd[], private readonly ajv: Ajv) {
    for (const crd of crds) {
      const key = `${crd.group}/${crd.kind}`;
      // The bundle lists CRDs in precedence order: the first definition of a kind wins.
      if (!this.kinds.has(key)) {
        this.kinds.set(key, crd);
      }
    }
  }

  public find(group: string, kind: string): CrdKind | undefined {
    return this.kinds.get(`${group}/${kind}`);
  }

  /** Versions the CRD serves. */
  public versions(crd: CrdKind): string[] {
    return this.crd(crd).versions.map((v) => v.name);
  }

  /** The raw `openAPIV3Schema` of a served version, or undefined. */
  public openApiSchema(crd: CrdKind, version: string): any {
    return this.crd(crd).versions.find((v) => v.name === version)?.schema;
  }

  /** Compiled validator for one served version; an Error when the schema cannot be compiled. */
  public validator(crd: CrdKind, version: string): ValidateFunction | Error | undefined {
    const key = `${crd.group}/${version}/${crd.kind}`;
    let validator = this.validators.get(key);
    if (validator === undefined) {
      const schema = this.openApiSchema(crd, version);
      if (schema === undefined) {
        return undefined;
      }
      try {
        validator = this.ajv.compile(shareLargeSubschemas(toJsonSchema(schema, { root: true })));
      } catch (err) {
        validator = new Error(`cannot compile the schema of ${key} from ${crd.source}: ${(err as Error).message}`);
      }
      this.validators.set(key, validator);
    }
    return validator;
  }

  private crd(crd: CrdKind): BundledCrd {
    return this.kinds.get(`${crd.group}/${crd.kind}`)!;
  }
}
