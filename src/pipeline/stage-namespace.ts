import { didYouMean } from '../util/closest';
import { dns1123LabelProblem } from '../util/names';
import { fillPlaceholders, synthPlaceholdersIn } from '../verification/placeholders';

/** The placeholders a stage's `namespace` pattern may use. */
const NAMESPACE_PLACEHOLDERS = ['app', 'stage'];

/**
 * The namespace a stage's pattern gives one app (`{app}-{stage}` for `checkout` in `test`:
 * `checkout-test`). Unknown placeholders stay as written (the pipeline refuses them).
 * @internal
 */
export function renderNamespace(pattern: string, app: string, stage: string): string {
  return fillPlaceholders(pattern, { app, stage });
}

/**
 * Why a stage's `namespace` pattern can never give a valid namespace, as `[problem, fix]`, or
 * undefined. The app name is only known when an app is planned, so this renders the pattern for
 * the shortest app name; the plan checks each app's namespace (its length) again.
 * @internal
 */
export function namespacePatternProblem(pattern: unknown, stage: string): [string, string] | undefined {
  if (typeof pattern !== 'string') return ['must be a string', "use a pattern such as '{app}-{stage}'"];
  const unknown = synthPlaceholdersIn(pattern).find(name => !NAMESPACE_PLACEHOLDERS.includes(name));
  if (unknown !== undefined) {
    return [`uses the unknown placeholder {${unknown}}`, didYouMean(`{${unknown}}`, NAMESPACE_PLACEHOLDERS.map(n => `{${n}}`))];
  }
  const problem = dns1123LabelProblem(renderNamespace(pattern, 'a', stage));
  if (problem) return [`${problem} once {app} and {stage} are filled in`, "use a DNS-1123 label pattern such as '{app}-{stage}'"];
  return undefined;
}
