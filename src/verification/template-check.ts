import { VerificationKind } from './check-options';
import { checkArgName, CheckParts } from './check-rules';
import { VerificationArg } from './verification-arg';
import { fieldText, prop } from '../util/code-hint';
import { describe, within } from '../util/errors';
import { dns1123SubdomainProblem } from '../util/names';

/**
 * Options for `Verification.fromTemplate()`.
 */
export interface TemplateVerificationOptions {
  /**
   * Values for the template's arguments. Kargo passes them, so `fromSecret()` is not possible
   * here: a template reads its own Secrets (`valueFrom.secretKeyRef`).
   * @default - none
   */
  readonly args?: Record<string, VerificationArg>;
  /**
   * The template is a ClusterAnalysisTemplate rather than an AnalysisTemplate in the Kargo
   * project namespace.
   * @default false
   */
  readonly clusterScoped?: boolean;
}

/** Resolves `Verification.fromTemplate()`. @internal */
export function templateCheck(templateName: string, options: TemplateVerificationOptions = {}): CheckParts {
  const problems: string[] = [];
  const name = `${templateName ?? ''}`;
  const nameProblem = dns1123SubdomainProblem(name);
  if (nameProblem) problems.push(describe('template name', templateName, nameProblem));
  const args = { ...options?.args ?? {} };
  for (const [argName, arg] of Object.entries(args)) {
    checkArgName(problems, argName, false);
    for (const p of arg?._problems ?? []) problems.push(within(`${fieldText(prop('args'))}.${argName}`, p));
    if (arg?.isSecret) {
      problems.push(describe(`${fieldText(prop('args'))}.${argName}`, arg.secretName, 'comes from a Secret, which Kargo cannot pass to an existing template',
        `declare it in the template itself: args: [{ name: ${argName}, valueFrom: { secretKeyRef: { name: ${arg.secretName}, key: ${arg.secretKey} } } }]`));
    }
  }
  const kind = options?.clusterScoped ? 'ClusterAnalysisTemplate' : 'AnalysisTemplate';
  return {
    kind: VerificationKind.TEMPLATE,
    name: name,
    args: args,
    referencedArgs: [],
    perCluster: false,
    build: undefined,
    timing: undefined,
    templateKind: kind,
    problems: problems,
  };
}
