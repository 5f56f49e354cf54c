import { ValidateFunction } from 'ajv';
import Ajv2020 from 'ajv/dist/2020';
import { findingsFromAjv } from './ajv-findings';
import { createKargoAjv } from './ajv-setup';
import { Finding } from './finding';

// Kargo's schemas have no $id and refer to each other by file name; giving every file an id under
// one base makes `argocd-common.json#/definitions/...` resolve like it does upstream.
const BASE_URI = 'https://kargo.schemas.invalid/';

/**
 * Kargo's JSON Schemas for promotion step configs (`promotion-steps/<step>-config.json`) and
 * Warehouse subscriptions (`subscriptions/<type>.json`), keyed by their path below
 * `kargo/schemas/`, compiled on first use.
 */
export class KargoJsonSchemas {
  private readonly ajv: Ajv2020;
  private readonly stepNames: Set<string>;
  private readonly subscriptionTypes: Set<string>;
  private readonly compiled = new Map<string, ValidateFunction | Error>();

  constructor(schemas: Record<string, any>) {
    this.ajv = createKargoAjv();
    this.stepNames = new Set(this.addFolder(schemas, 'promotion-steps')
      .filter((f) => f.endsWith('-config.json'))
      .map((f) => f.slice(0, -'-config.json'.length)));
    this.subscriptionTypes = new Set(this.addFolder(schemas, 'subscriptions').map((f) => f.slice(0, -'.json'.length)));
  }

  public hasStep(step: string): boolean {
    return this.stepNames.has(step);
  }

  public hasSubscriptionType(type: string): boolean {
    return this.subscriptionTypes.has(type);
  }

  /** Validates a step's `config` after expression evaluation: `${{ }}` strings may stand for any type. */
  public validateStepConfig(step: string, config: unknown, basePath: string): Finding[] {
    return this.validate(`promotion-steps/${step}-config.json`, config, basePath, true);
  }

  public validateSubscription(type: string, subscription: unknown, basePath: string): Finding[] {
    return this.validate(`subscriptions/${type}.json`, subscription, basePath, false);
  }

  private validate(file: string, data: unknown, basePath: string, expressionAware: boolean): Finding[] {
    const validator = this.validator(file);
    if (validator instanceof Error) {
      return [{ path: basePath, message: validator.message }];
    }
    if (validator(data)) {
      return [];
    }
    return findingsFromAjv(validator.errors, { basePath, data, expressionAware });
  }

  private validator(file: string): ValidateFunction | Error {
    let validator = this.compiled.get(file);
    if (validator === undefined) {
      try {
        validator = this.ajv.getSchema(BASE_URI + file) ?? new Error(`no pinned kargo schema ${file}`);
      } catch (err) {
        validator = new Error(`cannot compile kargo schema ${file}: ${(err as Error).message}`);
      }
      this.compiled.set(file, validator);
    }
    return validator;
  }

  /** Registers every schema of a folder (compiled lazily by getSchema); returns the file names. */
  private addFolder(schemas: Record<string, any>, folder: string): string[] {
    const files = Object.keys(schemas)
      .filter((name) => name.startsWith(`${folder}/`))
      .map((name) => name.slice(folder.length + 1))
      .sort();
    for (const file of files) {
      // A copy: the bundle is shared by every validator and ajv keeps the schema it is given.
      const schema = { ...schemas[`${folder}/${file}`] };
      // One file declares draft-07, which uses no keyword that 2020-12 reads differently.
      delete schema.$schema;
      schema.$id = `${BASE_URI}${folder}/${file}`;
      this.ajv.addSchema(schema);
    }
    return files;
  }
}
