import { didYouMean } from '../util/closest';
import { dns1123LabelProblem } from '../util/names';

/** The placeholders a stage's `namespace` pattern may use. @internal */
export const NAMESPACE_PLACEHOLDERS = ['app', 'stage'];

const PLACEHOLDER = /\{([^{}]*)\}/g;

/**
 * The namespace a stage's pattern gives one app (`{app}-{stage}` for `checkout` in `test`:
 * `checkout-test`). Unknown placeholders stay as written (the pipeline refuses them).
 * @internal
 */
export function renderNamespace(pattern: string, app: string, stage: string): string {
  return pattern.replace(PLACEHOLDER, (whole, name: string) => name === 'app' ? app : name === 'stage' ? stage : whole);
}

/**
 * Why a stage's `namespace` pattern can never give a valid namespace, as `[problem, fix]`, or
 * undefined. The app name is only known when an app is planned, so this renders the pattern for
 * the shortest app name; the plan checks each app's namespace (its length) again.
 * @internal
 */
export function namespacePatternProblem(pattern: unknown, stage: string): [string, string] | undefined {
  if (typeof pattern !== 'string') return ['must be a string', "use a pattern such as '{app}-{stage}'"];
  for (const m of pattern.matchAll(PLACEHOLDER)) {
    if (!NAMESPACE_PLACEHOLDERS.includes(m[1])) {
      return [`uses the unknown placeholder {${m[1]}}`, didYouMean(`{${m[1]}}`, NAMESPACE_PLACEHOLDERS.map(n => `{${n}}`))];
    }
  }
  const problem = dns1123LabelProblem(renderNamespace(pattern, 'a', stage));
  if (problem) return [`${problem} once {app} and {stage} are filled in`, "use a DNS-1123 label pattern such as '{app}-{stage}'"];
  return undefined;
}
