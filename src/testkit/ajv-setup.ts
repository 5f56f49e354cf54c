import Ajv, { ErrorObject } from 'ajv';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { evaluateCelRules, CelRule } from './cel';
import { show } from './finding';
import { KNOWN_FORMATS } from './structural-schema';

const COMMON_OPTIONS = {
  // CRD and Kargo schemas use keywords ajv does not know (x-kubernetes-*, deprecated, ...).
  strict: false,
  allErrors: true,
  // Errors carry the failing value and schema: messages show the value; oneOf folding needs the branches.
  verbose: true,
  // Patterns are Go RE2 syntax; some escapes (`\_`) are invalid in unicode-mode JS regexes.
  unicodeRegExp: false,
  validateSchema: false,
} as const;

/** Draft-07 ajv for converted CRD schemas and the hand-written core-kind schemas. */
export function createCrdAjv(): Ajv {
  // Shared subschemas (see shareLargeSubschemas) must compile to functions of their own.
  const ajv = new Ajv({ ...COMMON_OPTIONS, inlineRefs: false });
  addFormats(ajv, KNOWN_FORMATS as any);
  addKubernetesKeywords(ajv);
  return ajv;
}

/** Draft 2020-12 ajv for Kargo's promotion-step and subscription JSON Schemas. */
export function createKargoAjv(): Ajv2020 {
  const ajv = new Ajv2020({ ...COMMON_OPTIONS });
  addFormats(ajv, ['uri', 'email', 'date-time', 'date', 'hostname', 'ipv4', 'ipv6', 'uuid']);
  return ajv;
}

function addKubernetesKeywords(ajv: Ajv): void {
  ajv.addKeyword({
    keyword: 'x-kubernetes-validations',
    schemaType: 'array',
    errors: true,
    validate: function celValidations(rules: CelRule[], data: unknown): boolean {
      const failures = evaluateCelRules(rules, data);
      (celValidations as any).errors = failures.map((f): Partial<ErrorObject> => ({
        keyword: 'x-kubernetes-validations',
        message: f.message,
        params: { rule: f.rule, relativePath: f.relativePath },
      }));
      return failures.length === 0;
    },
  });
  ajv.addKeyword({
    keyword: 'x-kubernetes-list-map-keys',
    schemaType: 'array',
    type: 'array',
    errors: true,
    validate: function listMapKeys(keys: string[], data: unknown[]): boolean {
      const seen = new Map<string, number>();
      const errors: Array<Partial<ErrorObject>> = [];
      data.forEach((item, index) => {
        if (item === null || typeof item !== 'object') {
          return;
        }
        const key = JSON.stringify(keys.map((k) => (item as Record<string, unknown>)[k] ?? null));
        const first = seen.get(key);
        if (first !== undefined) {
          const keyText = keys.map((k) => `${k}=${show((item as Record<string, unknown>)[k])}`).join(', ');
          errors.push({
            keyword: 'x-kubernetes-list-map-keys',
            message: `duplicate list entry with ${keyText} (same keys as item ${first})`,
            params: { relativePath: `/${index}` },
          });
        } else {
          seen.set(key, index);
        }
      });
      (listMapKeys as any).errors = errors;
      return errors.length === 0;
    },
  });
}
