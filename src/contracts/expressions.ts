/**
 * Builders for Kargo expressions (`${{ ... }}`), which Kargo evaluates in step `config`
 * values, vars and verification args.
 *
 * @see https://docs.kargo.io/user-guide/reference-docs/expressions
 */

/** Wraps a bare expr-lang expression for a config value. @internal */
export function expr(expression: string): string {
  return `\${{ ${expression} }}`;
}

/** An expr-lang string literal. @internal */
export function literal(value: string): string {
  return `'${value.replace(/\\/g, '\\\\').replace(/'/g, '\\\'')}'`;
}

/** The tag of the image from the Freight being promoted, always as a string. @internal */
export function imageTag(repoUrl: string): string {
  return expr(`quote(imageFrom(${literal(repoUrl)}).Tag)`);
}

/** The digest of the image from the Freight being promoted. @internal */
export function imageDigest(repoUrl: string): string {
  return expr(`imageFrom(${literal(repoUrl)}).Digest`);
}

/** The commit of a Git repository from the Freight being promoted. @internal */
export function commitId(repoUrl: string): string {
  return expr(`commitFrom(${literal(repoUrl)}).ID`);
}

/** The version of a Helm chart from the Freight being promoted. @internal */
export function chartVersion(repoUrl: string, name: string | undefined): string {
  const args = name ? `${literal(repoUrl)}, ${literal(name)}` : literal(repoUrl);
  return expr(`chartFrom(${args}).Version`);
}

/** An output of an earlier step of the same promotion. @internal */
export function output(alias: string, path: string): string {
  return expr(`outputs[${literal(alias)}].${path}`);
}

/** A promotion variable, inside a longer text (a path). @internal */
export function variable(name: string): string {
  return expr(`vars.${name}`);
}

/**
 * A promotion variable as the whole value of a string field. Kargo turns an evaluated template
 * that reads as a number or boolean into one (kargo v1.11.2 `pkg/expressions/json_templates.go`
 * `EvaluateTemplate`), so a Kubernetes version `1.31`, or a cluster named `123`, would reach
 * the step as a number and fail its config schema; `quote()` keeps it text.
 * @internal
 */
export function textVariable(name: string): string {
  return expr(`quote(vars.${name})`);
}
