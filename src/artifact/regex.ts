import { RE2JS } from 're2js';

/**
 * Returns why `pattern` is not a regular expression Kargo accepts, or undefined. Kargo v1.11.2
 * compiles tag and path filters with Go's `regexp.Compile` (`pkg/image/tag_based_selector.go`
 * `newTagBasedSelector`), which is RE2 syntax: re2js, a port of RE2 to JavaScript, parses it the
 * same way (`(?P<name>x)` and `(?i)` are fine, `a{1001}`, `\u00e9`, lookaround, backreferences
 * and `\Z` are not). Go 1.26 (Kargo's Dockerfile builds with it) accepts a capture group name
 * used twice, which re2js refuses: that one refusal is not passed on.
 * @internal
 */
export function re2Problem(pattern: string): string | undefined {
  try {
    RE2JS.compile(pattern);
    return undefined;
  } catch (e) {
    const message = (e as Error).message.replace(/^error parsing regexp: /i, '');
    if (/^duplicate capture group name/.test(message)) return undefined;
    return `does not compile as a Go regular expression (${message})${hint(message)}`;
  }
}

/** What Perl or JavaScript habit the refusal most likely comes from. */
function hint(message: string): string {
  if (/(unsupported Perl syntax|invalid named capture): `\(\?<?[=!]/.test(message)) return ': it uses lookaround, which Go regular expressions do not support';
  if (/invalid escape sequence: `\\[1-9]/.test(message)) return ': it uses a backreference, which Go regular expressions do not support';
  if (/invalid escape sequence: `\\Z`/.test(message)) return ': it uses \\Z, which Go regular expressions do not support; use $ or \\z';
  if (/invalid escape sequence: `\\u`/.test(message)) return ': Go writes a code point as \\x{00e9}, not \\u00e9';
  if (/invalid repeat count/.test(message)) return ': Go allows at most 1000 repetitions';
  return '';
}
