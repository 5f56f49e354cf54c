import * as fs from 'fs';
import * as YAML from 'yaml';
import { requireCrdsDir } from './crds-dir';
import { show } from './finding';
import { ManifestIssue } from './manifest-issue';
import { ObjectValidator } from './object-validator';
import { readCrdsDir, shippedSchemaBundle } from './schema-bundle';
import { listYamlFiles } from './yaml-files';

/**
 * Options for `ManifestValidator.load()`.
 */
export interface ManifestValidatorOptions {
  /**
   * A directory of CRDs and Kargo JSON Schemas to validate against instead of the pinned ones
   * (laid out as `<system>/*.yaml` and `kargo/schemas/{promotion-steps,subscriptions}/*.json`).
   * @default - the schemas of the pinned releases shipped in the package (`imports/schema-bundle.json`)
   */
  readonly crdsDir?: string;
}

// Compiling the schemas is the expensive part; every load() for the same schemas shares it.
const SHIPPED = '';
const validatorsByDir = new Map<string, ObjectValidator>();

/**
 * Validates synthesized Kubernetes objects against the pinned upstream schemas: CRD structural
 * schemas (unknown fields, types, enums, patterns, CEL rules), ObjectMeta, Kargo promotion step
 * configs and Warehouse subscriptions, Kargo and Argo CD admission rules, built-in kinds, and
 * secret material that must not be committed to Git.
 */
export class ManifestValidator {
  /**
   * Returns the validator for the pinned schemas (or a CRDs directory), creating it on first use.
   * @throws when a given CRDs directory does not exist
   */
  public static load(options: ManifestValidatorOptions = {}): ManifestValidator {
    const crdsDir = options.crdsDir === undefined ? SHIPPED : requireCrdsDir(options.crdsDir);
    let validator = validatorsByDir.get(crdsDir);
    if (!validator) {
      validator = new ObjectValidator(crdsDir === SHIPPED ? shippedSchemaBundle() : readCrdsDir(crdsDir));
      validatorsByDir.set(crdsDir, validator);
    }
    return new ManifestValidator(validator);
  }

  private constructor(private readonly validator: ObjectValidator) {}

  /**
   * Validates objects such as those returned by `Testing.synth(chart)`, in order.
   * @param source what to name as the issues' source
   */
  public validateObjects(objects: any[], source: string = 'inline'): ManifestIssue[] {
    const issues: ManifestIssue[] = [];
    for (const obj of objects) {
      const identity = identityOf(obj);
      for (const finding of this.validator.validate(obj)) {
        issues.push({ source, ...identity, path: finding.path, message: finding.message });
      }
    }
    return issues;
  }

  /**
   * Validates a multi-document YAML text; a document that does not parse is an issue.
   * @param source what to name as the issues' source
   */
  public validateYaml(text: string, source: string = 'inline'): ManifestIssue[] {
    const issues: ManifestIssue[] = [];
    YAML.parseAllDocuments(text).forEach((doc, index) => {
      if (doc.errors.length > 0) {
        const reason = doc.errors.map((e) => e.message.split('\n')[0]).join('; ');
        issues.push({ source, apiVersion: '', kind: '', name: '', path: '', message: `yaml document ${index + 1} does not parse: ${reason}` });
        return;
      }
      const obj = doc.toJS();
      // `---` separators around nothing produce empty documents, which kubectl skips too.
      if (obj !== null && obj !== undefined) {
        issues.push(...this.validateObjects([obj], source));
      }
    });
    return issues;
  }

  /**
   * Validates one YAML file.
   */
  public validateFile(file: string): ManifestIssue[] {
    return this.validateYaml(fs.readFileSync(file, 'utf8'), file);
  }

  /**
   * Validates every `*.yaml` / `*.yml` file below a directory, in path order.
   */
  public validateDirectory(dir: string): ManifestIssue[] {
    return listYamlFiles(dir).flatMap((file) => this.validateFile(file));
  }
}

/**
 * Validates every YAML file below a directory (see `ManifestValidator.validateDirectory`).
 */
export function validateManifests(dir: string, options: ManifestValidatorOptions = {}): ManifestIssue[] {
  return ManifestValidator.load(options).validateDirectory(dir);
}

function identityOf(obj: any): { apiVersion: string; kind: string; name: string; namespace?: string } {
  const text = (value: unknown) => (typeof value === 'string' ? value : value === undefined ? '' : show(value));
  const metadata = obj !== null && typeof obj === 'object' && obj.metadata !== null && typeof obj.metadata === 'object' ? obj.metadata : {};
  const identity = {
    apiVersion: text(obj?.apiVersion),
    kind: text(obj?.kind),
    name: text(metadata.name ?? metadata.generateName),
  };
  return metadata.namespace === undefined ? identity : { ...identity, namespace: text(metadata.namespace) };
}
