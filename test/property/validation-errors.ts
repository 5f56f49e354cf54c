// ---------------------------------------------------------------------------------------------
// What counts as a validation error of the library
// ---------------------------------------------------------------------------------------------

export const SUBJECTS = ['PlatformApp \'', 'ClusterFleet \'', 'PromotionPipeline \'', 'PlatformStandards \'', 'cannot read clusters from terraform output'];
/** What the constructs' own validations (`node.addValidation`) say, after cdk8s's `[<path>] `. */
export const VALIDATION_LINES = [...SUBJECTS, 'standards: PlatformApp \'', 'standards: the platform ', 'fleet \'', 'pipeline stages must not be empty'];

/** Why an error is not one of the library's validation errors, or undefined when it is one. */
export function notALibraryError(e: unknown, terraformFile?: string): string | undefined {
  if (!(e instanceof Error)) return `threw a non-Error: ${String(e)}`;
  if (e.constructor !== Error) return `threw a ${e.constructor.name}`;
  const message = e.message;
  if (/undefined/.test(message.replace(/got undefined/g, ''))) return 'the message shows "undefined"';
  if (/\[object Object\]/.test(message)) return 'the message shows [object Object]';
  const header = 'Validation failed with the following errors:\n';
  if (message.startsWith(header)) {
    for (const line of message.slice(header.length).split('\n')) {
      const m = /^ {2}\[[^\]]*\] (.*)$/.exec(line);
      if (!m) return `validation line without a construct path: ${JSON.stringify(line)}`;
      if (!VALIDATION_LINES.some(s => m[1].startsWith(s))) return `validation line without the library's context: ${JSON.stringify(line)}`;
    }
    return undefined;
  }
  if (!SUBJECTS.some(s => message.startsWith(s)) && !(terraformFile !== undefined && message.startsWith(`${terraformFile}: `))) {
    return 'the message does not start with the library\'s subject';
  }
  return undefined;
}
