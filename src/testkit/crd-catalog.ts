import * as fs from 'fs';
import * as path from 'path';
import Ajv, { ValidateFunction } from 'ajv';
import * as YAML from 'yaml';
import { shareLargeSubschemas, toJsonSchema } from './structural-schema';

/** A custom resource kind served by one of the pinned CRDs. */
export interface CrdKind {
  readonly group: string;
  readonly kind: string;
  readonly namespaced: boolean;
  readonly file: string;
}

interface CrdHeader extends CrdKind {
  /** The whole CRD, parsed on first use: the Argo CD ApplicationSet CRD alone takes ~0.4 s to parse. */
  document?: any;
}

/**
 * Index of the CRD files in the pinned CRDs directory (`<dir>/<system>/*.yaml`; deeper folders,
 * such as Kargo's `unreleased-main/` and `schemas/`, are not CRDs of the pinned releases).
 * Parsing and compiling happen lazily, once per kind and version.
 */
export class CrdCatalog {
  private readonly kinds = new Map<string, CrdHeader>();
  private readonly validators = new Map<string, ValidateFunction | Error>();

  constructor(crdsDir: string, private readonly ajv: Ajv) {
    for (const system of listSorted(crdsDir).filter((entry) => fs.statSync(path.join(crdsDir, entry)).isDirectory())) {
      const systemDir = path.join(crdsDir, system);
      for (const file of listSorted(systemDir).filter((f) => /\.ya?ml$/.test(f))) {
        for (const header of readHeaders(path.join(systemDir, file))) {
          const key = `${header.group}/${header.kind}`;
          // Sorted traversal makes the first definition of a kind win deterministically.
          if (!this.kinds.has(key)) {
            this.kinds.set(key, header);
          }
        }
      }
    }
  }

  public find(group: string, kind: string): CrdKind | undefined {
    return this.kinds.get(`${group}/${kind}`);
  }

  /** Versions the CRD serves. */
  public versions(crd: CrdKind): string[] {
    return crdVersions(this.document(crd)).filter((v) => v.served !== false).map((v) => String(v.name));
  }

  /** The raw `openAPIV3Schema` of a served version, or undefined. */
  public openApiSchema(crd: CrdKind, version: string): any {
    const doc = this.document(crd);
    const entry = crdVersions(doc).find((v) => v.name === version && v.served !== false);
    if (!entry) {
      return undefined;
    }
    return entry.schema?.openAPIV3Schema ?? doc.spec?.validation?.openAPIV3Schema ?? {};
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
        validator = new Error(`cannot compile the schema of ${key} from ${crd.file}: ${(err as Error).message}`);
      }
      this.validators.set(key, validator);
    }
    return validator;
  }

  private document(crd: CrdKind): any {
    const header = this.kinds.get(`${crd.group}/${crd.kind}`)!;
    if (header.document === undefined) {
      header.document = YAML.parseAllDocuments(fs.readFileSync(header.file, 'utf8'))
        .map((d) => d.toJS({ maxAliasCount: -1 }))
        .find((d) => d?.spec?.group === crd.group && d?.spec?.names?.kind === crd.kind) ?? {};
    }
    return header.document;
  }
}

function crdVersions(doc: any): any[] {
  return Array.isArray(doc?.spec?.versions) ? doc.spec.versions : [];
}

function listSorted(dir: string): string[] {
  return fs.readdirSync(dir).sort();
}

/**
 * Reads group, kind and scope without parsing the (huge) schemas: controller-gen writes them
 * before `versions:`. Falls back to a full parse for files laid out differently.
 */
function readHeaders(file: string): CrdHeader[] {
  const text = fs.readFileSync(file, 'utf8');
  const singleDocument = !/^---\s*$/m.test(text.replace(/^---\s*\n/, ''));
  const versionsAt = text.search(/^ {2}versions:/m);
  if (singleDocument && versionsAt > 0) {
    try {
      const header = toHeader(YAML.parse(text.slice(0, versionsAt)), file);
      if (header) {
        return [header];
      }
    } catch {
      // fall through to the full parse
    }
  }
  return YAML.parseAllDocuments(text)
    .map((d) => d.toJS({ maxAliasCount: -1 }))
    .map((doc) => {
      const header = toHeader(doc, file);
      if (header) {
        header.document = doc;
      }
      return header;
    })
    .filter((h): h is CrdHeader => h !== undefined);
}

function toHeader(doc: any, file: string): CrdHeader | undefined {
  if (doc?.kind !== 'CustomResourceDefinition' || typeof doc.spec?.group !== 'string' || typeof doc.spec?.names?.kind !== 'string') {
    return undefined;
  }
  return { group: doc.spec.group, kind: doc.spec.names.kind, namespaced: doc.spec.scope !== 'Cluster', file };
}
