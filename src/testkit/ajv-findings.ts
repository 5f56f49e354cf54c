import { ErrorObject } from 'ajv';
import { Finding, show } from './finding';
import { joinPointer, valueAtPointer } from './json-pointer';
import { containsKargoExpression } from './kargo-expressions';

export interface AjvFindingsOptions {
  /** Prefix for every path: where the validated value sits in the object. */
  readonly basePath: string;
  /** The validated value, to look up what an error points at. */
  readonly data: unknown;
  /**
   * Kargo step configs are validated after expression evaluation: a `${{ }}` string may become any
   * type, so only structural errors around it (unknown or missing keys) are certain.
   */
  readonly expressionAware?: boolean;
}

// Errors about the object around a value, not the value itself: valid whatever an expression yields.
const STRUCTURAL_KEYWORDS = new Set(['required', 'additionalProperties', 'unevaluatedProperties', 'dependentRequired']);
const COMBINATORS = new Set(['oneOf', 'anyOf']);

export function findingsFromAjv(errors: readonly ErrorObject[] | null | undefined, options: AjvFindingsOptions): Finding[] {
  let remaining = [...(errors ?? [])];
  if (options.expressionAware) {
    remaining = remaining.filter((e) => STRUCTURAL_KEYWORDS.has(e.keyword) || !containsKargoExpression(valueAtPointer(options.data, e.instancePath)));
  }
  remaining = foldCombinators(remaining);
  return remaining.map((e) => toFinding(e, options.basePath));
}

/**
 * ajv reports every failing branch of a oneOf/anyOf; the reader needs one line: which alternative
 * came closest and why. A branch whose errors were all suppressed counts as passing.
 */
function foldCombinators(errors: ErrorObject[]): ErrorObject[] {
  const combinators = errors
    .filter((e) => COMBINATORS.has(e.keyword))
    .sort((a, b) => a.schemaPath.length - b.schemaPath.length);
  const dropped = new Set<ErrorObject>();
  const replaced = new Map<ErrorObject, ErrorObject>();
  for (const combinator of combinators) {
    if (dropped.has(combinator)) {
      continue;
    }
    const prefix = combinator.schemaPath + '/';
    const nested = errors.filter((e) => e !== combinator && e.schemaPath.startsWith(prefix));
    nested.forEach((e) => dropped.add(e));
    const passing = (combinator.params as { passingSchemas?: number[] | null }).passingSchemas;
    if (Array.isArray(passing)) {
      // oneOf with more than one matching branch: there is nothing "closest" to report.
      replaced.set(combinator, { ...combinator, message: `matches alternatives ${passing.join(' and ')} of a oneOf; it must match exactly one` });
      continue;
    }
    const branchCount = Array.isArray(combinator.schema) ? combinator.schema.length : 0;
    const byBranch: ErrorObject[][] = Array.from({ length: branchCount }, () => []);
    for (const e of nested) {
      const index = Number(e.schemaPath.slice(prefix.length).split('/')[0]);
      if (index >= 0 && index < branchCount) {
        byBranch[index].push(e);
      }
    }
    if (byBranch.some((branch) => branch.length === 0)) {
      dropped.add(combinator);
      continue;
    }
    const closest = byBranch.reduce((best, branch) => (branch.length < best.length ? branch : best));
    const reasons = closest.map((e) => {
      const relative = e.instancePath.slice(combinator.instancePath.length);
      return (relative ? `${relative}: ` : '') + describe(e);
    }).join('; ');
    replaced.set(combinator, {
      ...combinator,
      message: `matches none of the ${branchCount} alternatives (${combinator.keyword}); closest alternative #${byBranch.indexOf(closest)} fails with: ${reasons}`,
    });
  }
  return errors.filter((e) => !dropped.has(e)).map((e) => replaced.get(e) ?? e);
}

function toFinding(error: ErrorObject, basePath: string): Finding {
  const params = error.params as Record<string, any>;
  switch (error.keyword) {
    case 'additionalProperties':
      return { path: joinPointer(basePath + error.instancePath, params.additionalProperty), message: `unknown field "${params.additionalProperty}"` };
    case 'required':
      return { path: joinPointer(basePath + error.instancePath, params.missingProperty), message: `missing required field "${params.missingProperty}"` };
    case 'oneOf':
    case 'anyOf':
      // Already rewritten by foldCombinators: naming the closest alternative beats dumping the value.
      return { path: basePath + error.instancePath, message: error.message ?? `must match ${error.keyword}` };
    case 'x-kubernetes-validations':
    case 'x-kubernetes-list-map-keys':
      return { path: basePath + error.instancePath + (params.relativePath ?? ''), message: error.message ?? 'failed validation' };
    default:
      return { path: basePath + error.instancePath, message: describe(error) };
  }
}

function describe(error: ErrorObject): string {
  const params = error.params as Record<string, any>;
  const value = show(error.data);
  switch (error.keyword) {
    case 'additionalProperties':
      return `unknown field "${params.additionalProperty}"`;
    case 'required':
      return `missing required field "${params.missingProperty}"`;
    case 'enum':
      return `${value} is not one of ${(params.allowedValues as unknown[]).map(show).join(', ')}`;
    case 'const':
      return `${value} must be ${show(params.allowedValue)}`;
    case 'type':
      return `${value} must be ${Array.isArray(params.type) ? params.type.join(' or ') : params.type}`;
    case 'pattern':
      return `${value} does not match pattern ${params.pattern}`;
    case 'format':
      return `${value} is not a valid ${params.format === 'byte' ? 'base64 value (format byte)' : params.format}`;
    default:
      return `${value} ${(error.message ?? 'is invalid').replace(/\bNOT\b/g, 'not')}`;
  }
}
