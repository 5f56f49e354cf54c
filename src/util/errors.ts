import { FieldName, fieldText } from './code-hint';
import { redactSecrets } from './redact';

/**
 * A field a message names: a `FieldName` (`prop('caData')`, `field('eks', prop('clusterName'))`),
 * which each language's user reads in their own spelling, or prose kept as it is.
 * @internal
 */
export type Field = string | FieldName;

/**
 * Collects every problem found in one piece of user input, so that synth reports all of them
 * at once instead of one per run.
 * @internal
 */
export class ProblemList {
  private readonly problems: string[] = [];

  /**
   * @param subject who the problems belong to, e.g. `PlatformApp 'checkout'`
   */
  constructor(private readonly subject: string) {}

  public add(message: string): void {
    this.problems.push(message);
  }

  /** Whether `message` was added already (a problem several parts share is reported once). */
  public has(message: string): boolean {
    return this.problems.includes(message);
  }

  /** Adds `field: <problem>, got <value>; <fix>` when `problem` is defined. */
  public check(field: Field, value: unknown, problem: string | undefined, fix?: string): void {
    if (problem === undefined) return;
    this.add(describe(field, value, problem, fix));
  }

  public get size(): number {
    return this.problems.length;
  }

  /** The problems, in the order found (for a value object that reports its problems later). */
  public get messages(): readonly string[] {
    return this.problems;
  }

  /** Throws one error listing every problem, in the order found. */
  public throwIfAny(): void {
    if (this.problems.length === 0) return;
    if (this.problems.length === 1) {
      throw userError(within(this.subject, this.problems[0]));
    }
    throw userError(problemListing(this.subject, this.problems));
  }
}

/**
 * Formats one validation message: the field, what is wrong, the value received, and the fix.
 * Every validation message of the library has this form; `render` shows the value (the
 * Terraform reader passes one that redacts credentials). A `FieldName` is spelled the way the
 * running program's language names it (`ca_data` for Python, `CaData` for Go).
 * @internal
 */
export function describe(field: Field, value: unknown, problem: string, fix?: string, render: (value: unknown) => string = show): string {
  return `${fieldText(field)} ${problem}, got ${render(value)}${fix ? `; ${fix}` : ''}`;
}

/**
 * A problem of a part as its whole reports it, `subject: problem`: the problems a value, a check
 * or an entry recorded, under the field, check or entry they came in. `problem` is a message the
 * formatter wrote (`describe` or another `within`).
 * @internal
 */
export function within(subject: Field, problem: string): string {
  return `${fieldText(subject)}: ${problem}`;
}

/**
 * Several problems of `subject` as one message: `subject: N problems` and a line per problem.
 * @internal
 */
export function problemListing(subject: string, problems: readonly string[]): string {
  return `${subject}: ${problems.length} problems\n${problems.map(p => `  - ${p}`).join('\n')}`;
}

/**
 * Throws a single validation error for `subject`.
 * @internal
 */
export function fail(subject: string, field: Field, value: unknown, problem: string, fix?: string): never {
  throw userError(`${subject}: ${describe(field, value, problem, fix)}`);
}

/**
 * The error for a mistake in user input: the message with every credential in it redacted, so
 * a URL or token the library refuses is never echoed into a CI log.
 * @internal
 */
export function userError(message: string): Error {
  return new Error(redactSecrets(message));
}

/** @internal */
export function show(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (value === undefined) return 'nothing';
  // JSON has no NaN or Infinity: it would print them as null.
  if (typeof value === 'number' && !Number.isFinite(value)) return String(value);
  try {
    // a function or a symbol has no JSON form (and a function's source does not belong in a message)
    return JSON.stringify(value) ?? `a ${typeof value}`;
  } catch {
    return String(value);
  }
}

/**
 * A value object (artifact, selector, versioning rule, ...) that was built from bad input. Value
 * factories do not throw: they record what is wrong, and the construct that receives the value
 * reports it with its own name and the field, so the message says where the mistake is.
 * @internal
 */
export interface IHasProblems {
  /** @internal */
  readonly _problems: string[];
}

/**
 * Adds the problems a value recorded, prefixed by the field it was given in.
 * @internal
 */
export function reportValue(list: ProblemList, field: Field, value: IHasProblems | undefined): void {
  for (const p of value?._problems ?? []) {
    list.add(within(fieldText(field), p));
  }
}

/**
 * Runs `render`, which hands user values to cdk8s (or cdk8s-plus); an error cdk8s raises comes
 * back as a problem naming the field, the value cdk8s quoted and the fix, instead of a stack
 * trace through a throwaway construct the user never wrote.
 * @internal
 */
export function cdk8sProblem(field: string, fix: string, render: () => unknown): string | undefined {
  try {
    render();
    return undefined;
  } catch (e) {
    // cdk8s wraps serialization errors as "Failed serializing construct at path '<internal>' ...: Error: <cause>".
    const cause = `${(e as Error)?.message ?? e}`.replace(/^Failed serializing construct at path '[^']*'( with name '[^']*')?: (Error: )?/, '');
    return `${field} was refused by cdk8s (${cause.replace(/\.$/, '')}); ${fix}`;
  }
}
