import { HostLanguage } from './host-language';

// The parts of a message that are the user's own code: field names and the calls a fix suggests.
// They are data here, rendered once per message in the language of the program that runs the
// library (HostLanguage.current()), so a Python user reads `ca_data` and
// `EksAuthOptions(cluster_name=...)` where a TypeScript user reads `caData` and `{ clusterName }`.

/** Something of a message that each language writes its own way. @internal */
export interface Spelled {
  /** @internal */
  spell(language: HostLanguage): string;
}

/**
 * A field as the user's code names it: words of prose (verbatim) and prop paths (in their
 * TypeScript spelling; each language renders its own), joined by spaces, e.g. `auth caData`.
 * @internal
 */
export class FieldName implements Spelled {
  /** @param _parts prose words, and prop paths as arrays of TypeScript names */
  public constructor(public readonly _parts: ReadonlyArray<string | ReadonlyArray<string | number>>) {}

  public spell(language: HostLanguage): string {
    return this._parts.map(p => (typeof p === 'string' ? p : language.propPath(p))).join(' ');
  }
}

/**
 * A prop path, `prop('auth', 'caData')`: `auth.caData` in TypeScript and Java, `auth.ca_data` in
 * Python, `Auth.CaData` in Go and .NET; a number is an index (`prop('exemptions', 0, 'ruleId')`).
 * @internal
 */
export function prop(...names: Array<string | number>): FieldName {
  return new FieldName([names]);
}

/**
 * A field named by prose and props, e.g. `field('eks', prop('clusterName'))` (`eks clusterName`,
 * `eks cluster_name`) or `field(prop('auth'), prop('caData'))` (`auth caData`).
 * @internal
 */
export function field(...parts: Array<string | FieldName>): FieldName {
  return new FieldName(parts.flatMap(p => (typeof p === 'string' ? [p] : p._parts)));
}

/** A piece of code in a hint. @internal */
export interface Code extends Spelled {
  /** @internal the fields of a struct literal, which Python passes as keyword arguments */
  readonly structFields?: ReadonlyArray<readonly [string, Code]>;
}

const spelled = (spell: (language: HostLanguage) => string): Code => ({ spell });

/** A string literal. @internal */
export function str(value: string): Code {
  return spelled(l => l.string(value));
}

/**
 * A string literal as messages show values (JSON, `"ring"`), for a hint that repeats the user's
 * value: Go wraps it, `jsii.String("ring")`.
 * @internal
 */
export function json(value: string): Code {
  return spelled(l => (l === HostLanguage.GO ? `jsii.String(${JSON.stringify(value)})` : JSON.stringify(value)));
}

/** A number literal. @internal */
export function num(value: number): Code {
  return spelled(l => l.number(value));
}

/** A string the user fills in: `'<EKS cluster name>'`. @internal */
export function placeholder(what: string): Code {
  return str(`<${what}>`);
}

/** What the user fills in, shown as `...` in every language. @internal */
export const ETC: Code = spelled(() => '...');

/** A static constant of an enum-like class, `constant('Tier', 'DEV')`. @internal */
export function constant(type: string, name: string): Code {
  return spelled(l => l.constant(type, name));
}

/**
 * A member of an enum, `enumMember('PushedRepositoryType', 'GIT')`: Go names it
 * `PushedRepositoryType_GIT` (a constant, where a static member of a class is a function).
 * @internal
 */
export function enumMember(type: string, name: string): Code {
  return spelled(l => (l === HostLanguage.GO ? `${type}_${name}` : `${type}.${name}`));
}

/** A list literal. @internal */
export function list(...items: Code[]): Code {
  return spelled(l => l.list(items.map(i => i.spell(l))));
}

/** A struct literal of the named struct type, fields in their TypeScript spelling. @internal */
export function struct(type: string, fields: Record<string, Code> = {}): Code {
  const entries = Object.entries(fields);
  return {
    structFields: entries,
    spell: l => l.struct(type, entries.map(([n, v]) => [n, v.spell(l)])),
  };
}

/**
 * A struct literal that names its fields and leaves their values to the user: `{ caData }` in
 * TypeScript (shorthand), `ClusterTlsOptions(ca_data=...)` in Python.
 * @internal
 */
export function shorthand(type: string, ...names: string[]): Code {
  const filled = struct(type, Object.fromEntries(names.map(n => [n, ETC])));
  return {
    structFields: filled.structFields,
    spell: l => (l === HostLanguage.TYPESCRIPT ? `{ ${names.join(', ')} }` : filled.spell(l)),
  };
}

/**
 * Code the library cannot build from parts, written out for each language: a standard-library
 * idiom such as base64-encoding a string.
 * @internal
 */
export function idiom(byLanguage: Record<'typescript' | 'python' | 'java' | 'go' | 'dotnet', string>): Code {
  return spelled(l => byLanguage[l.name as keyof typeof byLanguage]);
}

/** A call of a static method, `call('ClusterAuth', 'eks', struct(...), struct(...))`. @internal */
export function call(type: string, method: string, ...args: Code[]): Code {
  return spelled(l => {
    const last = args[args.length - 1]?.structFields;
    return l.call(type, method, args.map(a => a.spell(l)), last?.map(([n, v]) => [n, v.spell(l)] as const));
  });
}

/** A constructor call, `newObject('DeployFreeze', struct(...))`: Python `DeployFreeze(reason=...)`, Go `NewDeployFreeze(...)`. @internal */
export function newObject(type: string, ...args: Code[]): Code {
  return spelled(l => {
    const last = args[args.length - 1]?.structFields;
    return l.construct(type, args.map(a => a.spell(l)), last?.map(([n, v]) => [n, v.spell(l)] as const));
  });
}

/** A call of a method of an object the user has: `addStage()`, Python `add_stage()`. @internal */
export function memberCall(method: string, ...args: Code[]): Code {
  return spelled(l => l.memberCall(method, args.map(a => a.spell(l))));
}

/**
 * Prose with code in it, rendered for the running program's language: the text a fix or a
 * problem says, e.g. hint`use ${call(...)}` or hint`set ${prop('kubernetesVersion')} on them`.
 * Interpolated strings are prose (a value `show()` rendered, a name), kept as they are.
 * @internal
 */
export function hint(text: TemplateStringsArray, ...parts: Array<Spelled | string>): string {
  const language = HostLanguage.current();
  return text.reduce((out, literal, i) => {
    const part = parts[i - 1];
    return out + (typeof part === 'string' ? part : part.spell(language)) + literal;
  });
}

/** A field name as the running program's language spells it. @internal */
export function fieldText(name: string | Spelled): string {
  return typeof name === 'string' ? name : name.spell(HostLanguage.current());
}
