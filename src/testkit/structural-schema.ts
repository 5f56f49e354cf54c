/**
 * Converts a CRD `openAPIV3Schema` (Kubernetes structural schema) into a draft-07 JSON Schema that
 * ajv validates the way the API server would: unknown fields are errors where the server would
 * prune them, int-or-string and nullable are spelled out, and CEL rules / list-map keys are kept
 * for the custom keywords registered in `ajv-setup.ts`.
 */

/** Formats registered in `ajv-setup.ts`; any other (Kubernetes knows many) is ignored like the API server's openapi validator mostly does. */
export const KNOWN_FORMATS = ['date-time', 'date', 'email', 'uri', 'hostname', 'ipv4', 'ipv6', 'uuid', 'byte', 'int32', 'int64', 'float', 'double', 'password'];

const VALUE_KEYWORDS = [
  'enum', 'pattern', 'minLength', 'maxLength', 'minimum', 'maximum', 'multipleOf',
  'minItems', 'maxItems', 'uniqueItems', 'minProperties', 'maxProperties', 'required',
];

export interface ConvertOptions {
  /** Root of a Kubernetes object: `metadata` and `status` are checked elsewhere, with better messages. */
  readonly root?: boolean;
}

export function toJsonSchema(schema: any, options: ConvertOptions = {}): any {
  return convert(schema, false, options.root ?? false);
}

/**
 * `insideCombinator`: anyOf/oneOf/allOf/not branches of a structural schema only carry value
 * validations for the fields declared outside them, so they must not forbid unknown fields.
 */
function convert(node: any, insideCombinator: boolean, root: boolean): any {
  if (node === null || typeof node !== 'object') {
    return {};
  }
  const out: any = valueKeywords(node, root);
  const preserveUnknown = node['x-kubernetes-preserve-unknown-fields'] === true;

  if (node.properties !== undefined) {
    out.properties = {};
    for (const [name, child] of Object.entries<any>(node.properties)) {
      out.properties[name] = root && (name === 'metadata' || name === 'status') ? {} : convert(child, insideCombinator, false);
    }
  }
  if (node['x-kubernetes-embedded-resource'] === true) {
    // An embedded object's metadata is ObjectMeta however the CRD spells it.
    out.properties = {
      apiVersion: { type: 'string' },
      kind: { type: 'string' },
      ...out.properties,
      metadata: { type: 'object' },
    };
  }
  if (node.additionalProperties !== undefined) {
    out.additionalProperties = typeof node.additionalProperties === 'object'
      ? convert(node.additionalProperties, insideCombinator, false)
      : node.additionalProperties;
  } else if (!preserveUnknown && !insideCombinator && isObjectSchema(node)) {
    // The API server prunes (or with strict field validation, rejects) every undeclared field,
    // including all fields of an object schema that declares none.
    out.additionalProperties = false;
  }
  if (node.items !== undefined) {
    out.items = convert(node.items, insideCombinator, false);
  }
  for (const combinator of ['anyOf', 'oneOf', 'allOf']) {
    if (Array.isArray(node[combinator])) {
      out[combinator] = node[combinator].map((branch: any) => convert(branch, true, false));
    }
  }
  if (node.not !== undefined) {
    out.not = convert(node.not, true, false);
  }

  if (node['x-kubernetes-list-type'] === 'set') {
    out.uniqueItems = true;
  }
  if (node['x-kubernetes-list-type'] === 'map' && Array.isArray(node['x-kubernetes-list-map-keys'])) {
    out['x-kubernetes-list-map-keys'] = node['x-kubernetes-list-map-keys'];
  }
  if (Array.isArray(node['x-kubernetes-validations']) && node['x-kubernetes-validations'].length > 0) {
    out['x-kubernetes-validations'] = node['x-kubernetes-validations'];
  }
  return out;
}

/** The type and the value validations of one node, in JSON Schema's spelling. */
function valueKeywords(node: any, root: boolean): any {
  const out: any = {};

  if (node['x-kubernetes-int-or-string'] === true) {
    out.type = ['integer', 'string'];
  } else if (node.type !== undefined) {
    out.type = node.type;
  }
  if (node.nullable === true && out.type !== undefined) {
    out.type = [...(Array.isArray(out.type) ? out.type : [out.type]), 'null'];
  }
  for (const keyword of VALUE_KEYWORDS) {
    if (node[keyword] !== undefined) {
      out[keyword] = node[keyword];
    }
  }
  if (Array.isArray(out.required) && node.properties) {
    // The API server applies defaults before validating, so a required field with a default may be
    // omitted. A missing root metadata is reported by the ObjectMeta check.
    out.required = out.required.filter((name: string) => node.properties[name]?.default === undefined && !(root && name === 'metadata'));
  }
  if (node.nullable === true && Array.isArray(out.enum) && !out.enum.includes(null)) {
    out.enum = [...out.enum, null];
  }
  // OpenAPI 3.0 spells exclusive bounds as booleans next to minimum/maximum.
  if (node.exclusiveMinimum === true && typeof node.minimum === 'number') {
    delete out.minimum;
    out.exclusiveMinimum = node.minimum;
  }
  if (node.exclusiveMaximum === true && typeof node.maximum === 'number') {
    delete out.maximum;
    out.exclusiveMaximum = node.maximum;
  }
  if (typeof node.format === 'string' && KNOWN_FORMATS.includes(node.format)) {
    out.format = node.format;
  }
  return out;
}

function isObjectSchema(node: any): boolean {
  return node.type === 'object' || (node.type === undefined && node.properties !== undefined);
}

/**
 * Moves every large subschema into `definitions` and refers to it, sharing identical ones.
 * The ApplicationSet CRD repeats the whole Application spec in every generator's `template`
 * (and again inside matrix/merge): inlined, ajv needs seconds to compile it; shared, a fraction.
 * Combinator branches stay inline, which keeps their errors under the combinator's schemaPath.
 */
export function shareLargeSubschemas(schema: any, minChars = 2000): any {
  const definitions: Record<string, any> = {};
  const idsByText = new Map<string, string>();
  const visit = (node: any, shareable: boolean): any => {
    if (node === null || typeof node !== 'object' || Array.isArray(node)) {
      return node;
    }
    const out: any = { ...node };
    if (node.properties) {
      out.properties = Object.fromEntries(Object.entries(node.properties).map(([k, v]) => [k, visit(v, true)]));
    }
    if (node.additionalProperties && typeof node.additionalProperties === 'object') {
      out.additionalProperties = visit(node.additionalProperties, true);
    }
    if (node.items) {
      out.items = visit(node.items, true);
    }
    if (!shareable) {
      return out;
    }
    const text = JSON.stringify(out);
    if (text.length < minChars) {
      return out;
    }
    let id = idsByText.get(text);
    if (id === undefined) {
      id = `s${idsByText.size}`;
      idsByText.set(text, id);
      definitions[id] = out;
    }
    return { $ref: `#/definitions/${id}` };
  };
  const root = visit(schema, false);
  return Object.keys(definitions).length > 0 ? { ...root, definitions } : root;
}
