/**
 * The two kinds of placeholders a check's text may hold, and how they are told apart:
 *
 * - `{cluster}`, `{region}`, `{provider}`, `{accelerator}`, `{tier}`, `{stage}` and `{namespace}`
 *   are filled in by this library at synth time, once per cluster of the wave (`{stage}` is the
 *   pipeline stage, `{namespace}` the namespace the app is deployed to in that stage);
 * - `{{args.<name>}}` is left for Argo Rollouts, which fills it when the AnalysisRun starts.
 *
 * Single braces next to other braces or `$` are not placeholders, so PromQL label matchers
 * (`{job="api"}`), JSONPath (`{$.status}`), shell (`${HOME}`) and Kargo (`${{ }}`) pass through.
 */

import { CLUSTER_VARIABLES } from '../contracts/cluster-variables';
import { call, hint } from '../util/code-hint';
import { describe } from '../util/errors';

/** Placeholders whose value differs between the clusters of one wave. @internal */
export const CLUSTER_PLACEHOLDERS = CLUSTER_VARIABLES;

/** Every placeholder filled at synth time. @internal */
export const SYNTH_PLACEHOLDERS = [...CLUSTER_PLACEHOLDERS, 'stage', 'namespace'];

/**
 * Args every generated template may reference without declaring them, and the Kargo
 * expression that supplies each. `quote()` because Kargo turns results that look like numbers
 * into numbers, and a verification arg that is not a string fails the AnalysisRun.
 * @internal
 */
export const BUILT_IN_ARGS: Record<string, string> = {
  stage: '${{ quote(ctx.stage) }}',
  project: '${{ quote(ctx.project) }}',
};

const SYNTH_TOKEN = /(?<![{$])\{([A-Za-z_][A-Za-z0-9_]*)\}(?!\})/g;
const ROLLOUTS_TAG = /\{\{([\s\S]*?)\}\}/g;
const ARG_TAG = /^args\.(.+)$/;

/** The synth-time placeholder names used in `text`, in order, with repeats. @internal */
export function synthPlaceholdersIn(text: string): string[] {
  return [...text.matchAll(SYNTH_TOKEN)].map(m => m[1]);
}

/** Replaces the synth-time placeholders of `text` that `values` names; others stay. @internal */
export function fillPlaceholders(text: string, values: Record<string, string>): string {
  return text.replace(SYNTH_TOKEN, (whole, name: string) => values[name] ?? whole);
}

/** Replaces every Argo Rollouts `{{ }}` tag of `text`. @internal */
export function replaceRolloutsTags(text: string, replacement: string): string {
  return text.replace(ROLLOUTS_TAG, replacement);
}

/** What the Argo Rollouts tags of a text refer to. @internal */
export interface RolloutsTags {
  /** Names of the `{{args.<name>}}` references. */
  readonly args: string[];
  /** Tags that are not arg references (Rollouts fails the AnalysisRun on them). */
  readonly other: string[];
}

/** The Argo Rollouts tags of `text`: `{{ args.x }}` references and anything else. @internal */
export function rolloutsTagsIn(text: string): RolloutsTags {
  const args: string[] = [];
  const other: string[] = [];
  // `${{ }}` is a Kargo expression, reported separately; its inner `{{ }}` is not a Rollouts tag.
  for (const m of text.replace(/\$\{\{[\s\S]*?\}\}/g, '').matchAll(ROLLOUTS_TAG)) {
    const tag = m[1].trim();
    const arg = ARG_TAG.exec(tag);
    if (arg) args.push(arg[1]);
    else other.push(tag);
  }
  return { args, other };
}

/**
 * Checks one piece of text of a check, returning the args it references. Problems name the
 * field and the text.
 * @internal
 */
export function checkText(problems: string[], field: string, text: string, declared: Set<string>): string[] {
  for (const name of new Set(synthPlaceholdersIn(text))) {
    if (!SYNTH_PLACEHOLDERS.includes(name)) {
      problems.push(describe(field, text, `uses unknown placeholder {${name}}`,
        `use one of ${SYNTH_PLACEHOLDERS.map(p => `{${p}}`).join(', ')}, or {{args.${name}}} for an argument`));
    }
  }
  if (text.includes('${{') || text.includes('${%')) {
    problems.push(describe(field, text, 'holds a Kargo expression',
      hint`Kargo does not evaluate checks: declare an arg with ${call('VerificationArg', 'expression')} and reference it as {{args.<name>}}`));
  }
  const tags = rolloutsTagsIn(text);
  for (const tag of new Set(tags.other)) {
    const suggestion = SYNTH_PLACEHOLDERS.includes(tag) ? `{${tag}} (filled at synth)` : `{{args.${tag.replace(/^\.+/, '')}}}`;
    problems.push(describe(field, text, `uses {{${tag}}}, which Argo Rollouts cannot resolve`, `only {{args.<name>}} references are allowed, did you mean ${suggestion}?`));
  }
  const referenced: string[] = [];
  for (const name of new Set(tags.args)) {
    if (declared.has(name) || BUILT_IN_ARGS[name] !== undefined) {
      referenced.push(name);
    } else {
      const known = [...declared, ...Object.keys(BUILT_IN_ARGS)].sort();
      problems.push(describe(field, text, `references an undeclared argument {{args.${name}}}`,
        `declare it in args (e.g. args: { '${name}': VerificationArg.value('...') }); declared: ${known.join(', ')}`));
    }
  }
  return referenced;
}

/** Whether `text` uses a placeholder that differs between clusters. @internal */
export function usesClusterPlaceholder(text: string): boolean {
  return synthPlaceholdersIn(text).some(p => CLUSTER_PLACEHOLDERS.includes(p));
}
