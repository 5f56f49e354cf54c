import { isCredentialKey, isCredentialValue, preview } from './terraform-credentials';
import { closestOf, isObject, join, JsonObject, snakeCase, terraformNames } from './terraform-json';
import { describe, show, within } from '../util/errors';

/**
 * Reads the fields of one entry and records what is wrong with them; `failed` tells whether any
 * problem concerned this entry.
 * @internal
 */
export class EntryReader {
  private count = 0;

  constructor(private readonly problems: string[], private readonly where: string) {}

  public get failed(): boolean {
    return this.count > 0;
  }

  public add(message: string): void {
    this.count++;
    this.problems.push(within(this.where, message));
  }

  /** `field problem, got value; fix`, the format of every validation message of the library. */
  public report(field: string, value: unknown, problem: string, fix?: string): void {
    this.add(describe(field, value, problem, fix, preview));
  }

  /** Problems recorded by a value factory (`Tier.of`, `ClusterAuth.exec`, ...), in Terraform's names. */
  public reportValueProblems(field: string, problems: string[]): void {
    for (const p of problems) this.add(within(field, terraformNames(p)));
  }

  public unknownFields(obj: JsonObject, path: string, known: string[], synonyms: Record<string, string>): void {
    for (const [key, value] of Object.entries(obj)) {
      if (known.includes(key) || isCredentialKey(key)) continue;
      const snake = snakeCase(key);
      const closest = known.includes(snake) ? snake : synonyms[snake] ?? closestOf(snake, known);
      this.report(join(path, key), value, 'is not a known field',
        closest ? `did you mean ${show(closest)}?` : `remove it; the known fields are ${known.join(', ')}`);
    }
  }

  public string(obj: JsonObject, key: string, options: { path?: string; required?: boolean; fix?: string } = {}): string | undefined {
    const value = this.present(obj, key, options.path ?? key, options.required, options.fix);
    if (value === undefined) return undefined;
    if (typeof value !== 'string') return this.wrongType(options.path ?? key, value, 'a string', options.fix);
    return value;
  }

  public boolean(obj: JsonObject, key: string): boolean | undefined {
    const value = this.present(obj, key, key);
    if (value === undefined) return undefined;
    if (typeof value !== 'boolean') return this.wrongType(key, value, 'true or false', 'write it without quotes');
    return value;
  }

  public wholeNumber(obj: JsonObject, key: string): number | undefined {
    const value = this.present(obj, key, key);
    if (value === undefined) return undefined;
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
      return this.wrongType(key, value, 'a whole number >= 0', typeof value === 'string' ? 'write it without quotes' : undefined);
    }
    return value;
  }

  public object(obj: JsonObject, key: string, options: { fix?: string } = {}): JsonObject | undefined {
    const value = this.present(obj, key, key);
    if (value === undefined) return undefined;
    if (!isObject(value)) return this.wrongType(key, value, 'an object', options.fix);
    return value;
  }

  /** A map of strings, without the members that hold credentials (already reported). */
  public stringMap(obj: JsonObject, key: string, path: string = key): Record<string, string> | undefined {
    const value = this.present(obj, key, path);
    if (value === undefined) return undefined;
    if (!isObject(value)) return this.wrongType(path, value, 'a map of strings', 'use e.g. { ring = "canary" }');
    const result: Record<string, string> = {};
    for (const [k, v] of Object.entries(value)) {
      if (isCredentialKey(k) || isCredentialValue(v)) continue;
      if (typeof v !== 'string') {
        this.wrongType(`${path}[${show(k)}]`, v, 'a string', 'Kubernetes labels and environment variables are strings: quote it');
      } else {
        result[k] = v;
      }
    }
    return result;
  }

  public stringList(obj: JsonObject, key: string, path: string): string[] | undefined {
    const value = this.present(obj, key, path);
    if (value === undefined) return undefined;
    if (!Array.isArray(value)) return this.wrongType(path, value, 'a list of strings', 'use e.g. ["ce", "cluster", "generate-token"]');
    const result: string[] = [];
    value.forEach((v, i) => {
      if (isCredentialValue(v)) return;
      if (typeof v !== 'string') {
        this.wrongType(`${path}[${i}]`, v, 'a string', 'quote it');
      } else {
        result.push(v);
      }
    });
    return result;
  }

  /** The value, or undefined when absent; null is absent, and so is a credential (already reported). */
  private present(obj: JsonObject, key: string, path: string, required?: boolean, fix?: string): unknown {
    const value = obj[key];
    if (value === undefined || value === null || isCredentialValue(value)) {
      if (required && !isCredentialValue(value)) this.report(path, value, 'is required', fix);
      return undefined;
    }
    return value;
  }

  private wrongType(path: string, value: unknown, expected: string, fix?: string): undefined {
    this.report(path, value, `must be ${expected}`, fix);
    return undefined;
  }
}
