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

/**
 * An expression as the whole value of a string field, kept text by `quote()`: Kargo turns an
 * evaluated template that reads as a number or boolean into one (kargo v1.11.2
 * `pkg/expressions/json_templates.go` `EvaluateTemplate`, which strips the quotes again), and its
 * built-in steps then check the config against their schema (`validateAndConvert`). A Kubernetes
 * version `1.31`, a tag `1.10`, a chart version `4.2`, a cluster named `123` or an all-digit
 * commit id would otherwise fail it.
 * @internal
 */
export function textExpr(expression: string): string {
  return expr(`quote(${expression})`);
}

/** An expr-lang string literal. @internal */
export function literal(value: string): string {
  return `'${value.replace(/\\/g, '\\\\').replace(/'/g, '\\\'')}'`;
}

/*
 * A Freight value as the whole value of a field goes through textExpr(); inside a longer text (a
 * commit message) the bare expression is used, as quote() would add visible quotes there.
 */

/** The bare expression of an image's tag in the Freight. @internal */
export function imageTagOf(repoUrl: string): string {
  return `imageFrom(${literal(repoUrl)}).Tag`;
}

/** The bare expression of a Git repository's commit in the Freight. @internal */
export function commitIdOf(repoUrl: string): string {
  return `commitFrom(${literal(repoUrl)}).ID`;
}

/** The bare expression of a Helm chart's version in the Freight. @internal */
export function chartVersionOf(repoUrl: string, name: string | undefined): string {
  const args = name ? `${literal(repoUrl)}, ${literal(name)}` : literal(repoUrl);
  return `chartFrom(${args}).Version`;
}

/** The tag of the image from the Freight being promoted, always as a string. @internal */
export function imageTag(repoUrl: string): string {
  return textExpr(imageTagOf(repoUrl));
}

/** The digest of the image from the Freight being promoted. @internal */
export function imageDigest(repoUrl: string): string {
  return expr(`imageFrom(${literal(repoUrl)}).Digest`);
}

/** The commit of a Git repository from the Freight being promoted, always as a string. @internal */
export function commitId(repoUrl: string): string {
  return textExpr(commitIdOf(repoUrl));
}

/** The version of a Helm chart from the Freight being promoted, always as a string. @internal */
export function chartVersion(repoUrl: string, name: string | undefined): string {
  return textExpr(chartVersionOf(repoUrl, name));
}

/** The bare expression of an output of an earlier step of the same promotion. @internal */
export function outputOf(alias: string, path: string): string {
  return `outputs[${literal(alias)}].${path}`;
}

/** An output of an earlier step of the same promotion. @internal */
export function output(alias: string, path: string): string {
  return expr(outputOf(alias, path));
}

/** A promotion variable, inside a longer text (a path). @internal */
export function variable(name: string): string {
  return expr(`vars.${name}`);
}

/** A promotion variable as the whole value of a string field (see textExpr). @internal */
export function textVariable(name: string): string {
  return textExpr(`vars.${name}`);
}
