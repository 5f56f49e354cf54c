/**
 * The language the user's program is written in, so that a message names fields and calls the
 * way that user's code spells them. The library always runs in Node; a jsii host (the Python,
 * Java, Go or .NET runtime) starts that Node process and says who it is in `JSII_AGENT`:
 * - Python: `Python/<version>` (jsii 1.142.0 `jsii/_kernel/providers/process.py`, `_NodeProcess.start`);
 * - Java: `Java/<java.version>` (jsii-runtime 1.140.0 `software/amazon/jsii/JsiiRuntime.java`,
 *   `startRuntimeIfNeeded`);
 * - Go: `<runtime.Version()>/<GOOS>/<GOARCH>`, e.g. `go1.26.0/linux/amd64` (jsii-runtime-go v1.142.0
 *   `internal/kernel/process/process.go`, `NewProcess`);
 * - .NET: `DotNet/<Environment.Version>` (jsii `Amazon.JSII.Runtime/Services/NodeProcess.cs`, the
 *   `NodeProcess` constructor).
 * TypeScript and JavaScript programs load the library directly: no agent.
 */

/** How one language writes the pieces of a hint. */
interface Syntax {
  /** Python passes a method's last struct argument as keyword arguments (jsii's rule for Python). */
  readonly keywordArguments: boolean;
  /** a prop of a struct or construct, given its TypeScript (camelCase) name */
  prop(name: string): string;
  /** an instance method: `addStage` */
  instanceMethod(name: string): string;
  /** a static method, as called: `ClusterAuth.eks` */
  method(type: string, name: string): string;
  /** a static constant of an enum-like class: `Tier.DEV` */
  constant(type: string, name: string): string;
  string(value: string): string;
  number(value: number): string;
  /** a struct literal; `fields` are [TypeScript name, rendered value] */
  struct(type: string, fields: ReadonlyArray<readonly [string, string]>): string;
  list(items: readonly string[]): string;
}

function words(camel: string): string[] {
  return camel.replace(/([a-z0-9])([A-Z])/g, '$1 $2').split(' ');
}

function snake(camel: string): string {
  return words(camel).map(w => w.toLowerCase()).join('_');
}

function pascal(camel: string): string {
  return camel.charAt(0).toUpperCase() + camel.slice(1);
}

const quoted = (value: string) => JSON.stringify(value);
const fieldList = (fields: ReadonlyArray<readonly [string, string]>, render: (name: string, value: string) => string) =>
  fields.map(([name, value]) => render(name, value)).join(', ');

const TYPESCRIPT: Syntax = {
  instanceMethod: name => name,
  number: String,
  prop: name => name,
  method: (type, name) => `${type}.${name}`,
  constant: (type, name) => `${type}.${name}`,
  string: value => `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`,
  struct: (_type, fields) => (fields.length === 0 ? '{}' : `{ ${fieldList(fields, (n, v) => `${n}: ${v}`)} }`),
  list: items => `[${items.join(', ')}]`,
  keywordArguments: false,
};

const PYTHON: Syntax = {
  instanceMethod: snake,
  number: String,
  prop: snake,
  method: (type, name) => `${type}.${snake(name)}`,
  constant: (type, name) => `${type}.${name}`,
  string: quoted,
  struct: (type, fields) => `${type}(${fieldList(fields, (n, v) => `${snake(n)}=${v}`)})`,
  list: items => `[${items.join(', ')}]`,
  keywordArguments: true,
};

const JAVA: Syntax = {
  instanceMethod: name => name,
  number: String,
  prop: name => name,
  method: (type, name) => `${type}.${name}`,
  constant: (type, name) => `${type}.${name}`,
  string: quoted,
  struct: (type, fields) => `${type}.builder()${fields.map(([n, v]) => `.${n}(${v})`).join('')}.build()`,
  list: items => `List.of(${items.join(', ')})`,
  keywordArguments: false,
};

const GO: Syntax = {
  instanceMethod: pascal,
  number: value => `jsii.Number(${value})`,
  prop: pascal,
  method: (type, name) => `${type}_${pascal(name)}`,
  // jsii-pacmak makes a static property a function: Tier_DEV()
  constant: (type, name) => `${type}_${name}()`,
  string: value => `jsii.String(${quoted(value)})`,
  struct: (type, fields) => `&${type}{${fieldList(fields, (n, v) => `${pascal(n)}: ${v}`)}}`,
  list: items => `&[]*string{${items.join(', ')}}`,
  keywordArguments: false,
};

const DOTNET: Syntax = {
  instanceMethod: pascal,
  number: String,
  prop: pascal,
  method: (type, name) => `${type}.${pascal(name)}`,
  constant: (type, name) => `${type}.${name}`,
  string: quoted,
  struct: (type, fields) => (fields.length === 0 ? `new ${type}()` : `new ${type} { ${fieldList(fields, (n, v) => `${pascal(n)} = ${v}`)} }`),
  list: items => `new [] { ${items.join(', ')} }`,
  keywordArguments: false,
};

/**
 * A language the library's users write their platform in.
 * @internal
 */
export class HostLanguage {
  public static readonly TYPESCRIPT = new HostLanguage('typescript', TYPESCRIPT);
  public static readonly PYTHON = new HostLanguage('python', PYTHON);
  public static readonly JAVA = new HostLanguage('java', JAVA);
  public static readonly GO = new HostLanguage('go', GO);
  public static readonly DOTNET = new HostLanguage('dotnet', DOTNET);

  /** The language a `JSII_AGENT` value names; TypeScript (JavaScript) without one. */
  public static fromAgent(agent: string | undefined): HostLanguage {
    if (!agent) return HostLanguage.TYPESCRIPT;
    if (/^python\//i.test(agent)) return HostLanguage.PYTHON;
    if (/^java\//i.test(agent)) return HostLanguage.JAVA;
    if (/^dotnet\//i.test(agent)) return HostLanguage.DOTNET;
    // runtime.Version() is "go1.26.0", or "devel go1.27-..." on a toolchain built from source
    if (/^(go\d|golang\/|devel )/i.test(agent)) return HostLanguage.GO;
    return HostLanguage.TYPESCRIPT;
  }

  /** The language of the program running the library now. */
  public static current(): HostLanguage {
    return HostLanguage.override ?? HostLanguage.fromAgent(process.env.JSII_AGENT);
  }

  /**
   * Runs `fn` as if the program were written in `language`, and restores the language after it:
   * how tests see what a Python or Go user reads without changing the process's environment.
   */
  public static using<T>(language: HostLanguage, fn: () => T): T {
    const before = HostLanguage.override;
    HostLanguage.override = language;
    try {
      return fn();
    } finally {
      HostLanguage.override = before;
    }
  }

  private static override: HostLanguage | undefined;

  private constructor(public readonly name: string, private readonly syntax: Syntax) {}

  public toString(): string {
    return this.name;
  }

  /** A prop path (`auth`, `caData`; a number is an index) as this language names it: `auth.caData`, `clusterResources[0].kind`. */
  public propPath(names: ReadonlyArray<string | number>): string {
    return names.map((n, i) => (typeof n === 'number' ? `[${n}]` : `${i > 0 ? '.' : ''}${this.syntax.prop(n)}`)).join('');
  }

  /** `ClusterAuth.eks(...)` with `args` rendered; `lastStruct` is the last argument when it is a struct. */
  public call(type: string, method: string, args: readonly string[], lastStruct?: ReadonlyArray<readonly [string, string]>): string {
    if (lastStruct && this.syntax.keywordArguments) {
      const keywords = lastStruct.map(([n, v]) => `${this.syntax.prop(n)}=${v}`);
      return `${this.syntax.method(type, method)}(${[...args.slice(0, -1), ...keywords].join(', ')})`;
    }
    return `${this.syntax.method(type, method)}(${args.join(', ')})`;
  }

  /**
   * `new DeployFreeze(...)` with `args` rendered: Python calls the class (keyword arguments for a
   * last struct), Go its generated `NewDeployFreeze` function.
   */
  public construct(type: string, args: readonly string[], lastStruct?: ReadonlyArray<readonly [string, string]>): string {
    const rendered = lastStruct && this.syntax.keywordArguments
      ? [...args.slice(0, -1), ...lastStruct.map(([n, v]) => `${this.syntax.prop(n)}=${v}`)]
      : args;
    if (this === HostLanguage.PYTHON) return `${type}(${rendered.join(', ')})`;
    if (this === HostLanguage.GO) return `New${type}(${rendered.join(', ')})`;
    return `new ${type}(${rendered.join(', ')})`;
  }

  /** A call of a method of an object the user has, `addStage()`. */
  public memberCall(method: string, args: readonly string[]): string {
    return `${this.syntax.instanceMethod(method)}(${args.join(', ')})`;
  }

  public constant(type: string, name: string): string {
    return this.syntax.constant(type, name);
  }

  public string(value: string): string {
    return this.syntax.string(value);
  }

  public struct(type: string, fields: ReadonlyArray<readonly [string, string]>): string {
    return this.syntax.struct(type, fields);
  }

  public number(value: number): string {
    return this.syntax.number(value);
  }

  public list(items: readonly string[]): string {
    return this.syntax.list(items);
  }
}
