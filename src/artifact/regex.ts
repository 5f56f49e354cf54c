/**
 * Returns why `pattern` is not a regular expression Kargo (Go RE2) accepts, or undefined.
 * RE2 has no lookaround and no backreferences, so those are refused even though JavaScript
 * would compile them.
 * @internal
 */
export function re2Problem(pattern: string): string | undefined {
  // Go allows inline flags, `(?i)` and `(?i:...)`, which JavaScript does not: compile without them
  const withoutFlags = pattern.replace(/\(\?[imsU]+\)/g, '').replace(/\(\?[imsU]+:/g, '(?:');
  try {
    new RegExp(withoutFlags);
  } catch (e) {
    return `does not compile (${(e as Error).message.replace(/^Invalid regular expression: /, '')})`;
  }
  if (/\(\?<?[=!]/.test(pattern)) return 'uses lookaround, which Go regular expressions do not support';
  if (/\\[1-9]/.test(pattern)) return 'uses a backreference, which Go regular expressions do not support';
  if (/\\Z/.test(pattern)) return 'uses \\Z, which Go regular expressions do not support; use $ or \\z';
  return undefined;
}
