import { CLUSTER_PLACEHOLDERS, SYNTH_PLACEHOLDERS, synthPlaceholdersIn } from './placeholders';
import { Artifact } from '../artifact/artifact';
import { ArtifactType } from '../artifact/artifact-type';
import { gitUrlProblem } from '../artifact/git-artifact';
import { commitId, imageTag, textExpr } from '../contracts/expressions';
import { call, hint } from '../util/code-hint';
import { describe, show } from '../util/errors';
import { goProblem } from '../util/go-parsers';
import { dns1123SubdomainProblem } from '../util/names';

const SECRET_KEY = /^[-._a-zA-Z0-9]+$/;

/**
 * The value of an argument a check references as `{{args.<name>}}`.
 *
 * Every value but `fromSecret()` is passed by the Kargo Stage (`spec.verification.args`) and
 * evaluated once per verification, so it is the same for every cluster of a wave: put
 * per-cluster placeholders (`{cluster}`, ...) in the check's URL, query or command instead.
 *
 * @example
 * Verification.http({
 *   url: 'https://api.{cluster}.acme.internal/version',
 *   headers: { Authorization: 'Bearer {{args.token}}' },
 *   successCondition: "result == '{{args.tag}}'",
 *   jsonPath: '{$.tag}',
 *   args: { token: VerificationArg.fromSecret('smoke-token', 'token'), tag: VerificationArg.imageTag('ghcr.io/acme/api') },
 * });
 */
export class VerificationArg {
  /**
   * Fixed text. It may use `{stage}` (the pipeline stage) and `{namespace}` (the app's namespace
   * in that stage); it must not be empty (Kargo treats
   * an empty value as missing).
   */
  public static value(text: string): VerificationArg {
    const problems: string[] = [];
    if (typeof text !== 'string' || text === '') {
      problems.push(describe('arg value', text, 'must not be empty', 'Kargo drops empty args and the AnalysisRun then fails'));
    } else {
      if (text.includes('${{') || text.includes('${%')) {
        problems.push(describe('arg value', text, 'must be plain text', hint`use ${call('VerificationArg', 'expression')} for a Kargo expression`));
      }
      for (const name of new Set(synthPlaceholdersIn(text))) {
        if (CLUSTER_PLACEHOLDERS.includes(name)) {
          problems.push(describe('arg value', text, `uses {${name}}`,
            `args are shared by every cluster of a wave, put {${name}} in the check's url, query or command instead`));
        } else if (!SYNTH_PLACEHOLDERS.includes(name)) {
          problems.push(describe('arg value', text, `uses unknown placeholder {${name}}`, 'only {stage} and {namespace} are available in arg values'));
        }
      }
    }
    return new VerificationArg(text, undefined, undefined, problems);
  }

  /**
   * The tag of an image of the Freight being verified, e.g. to check that the deployed
   * version reports it. The repository must be one of the app's image artifacts.
   */
  public static imageTag(imageRepo: string): VerificationArg {
    const problems = Artifact.image(`${imageRepo ?? ''}`)._problems;
    return new VerificationArg(imageTag(`${imageRepo}`), undefined, undefined, problems, Artifact.image(`${imageRepo}`)._type);
  }

  /**
   * The commit of a Git repository of the Freight being verified. The repository must be one
   * of the app's Git artifacts or its manifest source.
   */
  public static commit(gitUrl: string): VerificationArg {
    // http:// is refused (or allowed) where the repository is declared, as an artifact or the source.
    const problem = gitUrlProblem(gitUrl ?? '', true);
    const url = `${gitUrl}`.replace(/\/+$/, '');
    // a verification arg must evaluate to text: an all-digit commit ID would reach Rollouts as a number
    return new VerificationArg(commitId(url), undefined, undefined,
      problem ? [describe('commit arg git url', gitUrl, problem, 'use the https:// clone URL')] : [], Artifact.git(url)._type);
  }

  /**
   * A Kargo expression (expr-lang, without `${{ }}`), evaluated when verification starts. It may
   * use `ctx.project`, `ctx.stage`, Stage `vars` and Freight functions (`imageFrom()`,
   * `commitFrom()`, `chartFrom()`), not `outputs`. The result is passed as text (`quote()`).
   */
  public static expression(expression: string): VerificationArg {
    const problems: string[] = [];
    const text = `${expression ?? ''}`.trim();
    if (text === '') {
      problems.push(describe('arg expression', expression, 'must not be empty', 'use e.g. "ctx.stage"'));
    } else if (text.startsWith('${{') || text.startsWith('${%')) {
      problems.push(describe('arg expression', expression, 'must be bare expr-lang without ${{ }}', 'the delimiters are added for you'));
    } else if (text.includes('}}')) {
      problems.push(describe('arg expression', expression, 'must not contain "}}"', 'Kargo would end the expression there'));
    }
    if (problems.length === 0 && text !== '') {
      const error = goProblem('kargo-template', textExpr(text), 'verification');
      if (error) {
        problems.push(describe('arg expression', expression, `does not compile with expr-lang v1.17.8 and the functions Kargo gives verification args (${error})`,
          'fix the expression, e.g. "ctx.stage" or "imageFrom(\'ghcr.io/acme/api\').Tag"'));
      }
    }
    if (/\boutputs\b/.test(text)) {
      problems.push(describe('arg expression', expression, 'uses outputs',
        'promotion step outputs are not available to verification, only ctx.project, ctx.stage, vars and Freight functions'));
    }
    const ctxField = /\bctx\.(\w+)/g;
    for (const m of text.matchAll(ctxField)) {
      if (m[1] !== 'project' && m[1] !== 'stage') {
        problems.push(describe('arg expression', expression, `uses ctx.${m[1]}`, 'verification only knows ctx.project and ctx.stage'));
      }
    }
    return new VerificationArg(textExpr(text), undefined, undefined, problems);
  }

  /**
   * A key of a Kubernetes Secret in the Kargo project namespace, where the AnalysisRun runs.
   * Argo Rollouts reads it when the run starts (`valueFrom.secretKeyRef`), so the value never
   * appears in Git, in the Stage or in Kargo. The only way to pass credentials to a check.
   */
  public static fromSecret(secretName: string, key: string): VerificationArg {
    const problems: string[] = [];
    const nameProblem = dns1123SubdomainProblem(`${secretName ?? ''}`);
    if (nameProblem) problems.push(describe('secret name', secretName, nameProblem, 'name a Secret in the Kargo project namespace'));
    if (!SECRET_KEY.test(`${key ?? ''}`)) {
      problems.push(describe('secret key', key, "must consist of letters, digits, '-', '_' or '.'"));
    }
    return new VerificationArg(undefined, secretName, key, problems);
  }

  private constructor(
    /** The value Kargo passes (text or `${{ }}` expression), or undefined for a Secret. */
    public readonly kargoValue: string | undefined,
    /** The Secret holding the value, for `fromSecret()`. */
    public readonly secretName: string | undefined,
    /** The key in that Secret, for `fromSecret()`. */
    public readonly secretKey: string | undefined,
    /** @internal */
    public readonly _problems: string[],
    /** The Freight artifact the value reads, which the app must subscribe to. @internal */
    public readonly _reads?: ArtifactType) {}

  /** Whether the value comes from a Kubernetes Secret. */
  public get isSecret(): boolean {
    return this.secretName !== undefined;
  }
}

/**
 * Two args with the same name must agree wherever they are used: the Stage passes one value per
 * name to every template of the AnalysisRun. Returns a comparable description of the value.
 * @internal
 */
export function argIdentity(arg: VerificationArg): string {
  return arg.isSecret ? `secret ${arg.secretName}/${arg.secretKey}` : `value ${show(arg.kargoValue)}`;
}
