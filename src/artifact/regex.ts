import { goProblem } from '../util/go-parsers';

/**
 * Returns why `pattern` is not a regular expression Kargo accepts, or undefined. Kargo v1.11.2
 * compiles tag and path filters with Go's `regexp.Compile` (`pkg/image/tag_based_selector.go`
 * `newTagBasedSelector`, `pkg/pattern/matcher.go` `NewRegexpMatcher`), and so does the library:
 * the Go parsers shipped with it (src/util/go-parsers.ts) run Go's own `regexp` package.
 * @internal
 */
export function re2Problem(pattern: string): string | undefined {
  const error = goProblem('regexp', pattern);
  if (error === undefined) return undefined;
  const message = error.replace(/^error parsing regexp: /, '');
  return `does not compile as a Go regular expression (${message})${hint(message)}`;
}

/** What Perl or JavaScript habit the refusal most likely comes from. */
function hint(message: string): string {
  if (/(invalid or unsupported Perl syntax|invalid named capture): `\(\?<?[=!]/.test(message)) return ': it uses lookaround, which Go regular expressions do not support';
  if (/invalid escape sequence: `\\[1-9]/.test(message)) return ': it uses a backreference, which Go regular expressions do not support';
  if (/invalid escape sequence: `\\Z`/.test(message)) return ': it uses \\Z, which Go regular expressions do not support; use $ or \\z';
  if (/invalid escape sequence: `\\u`/.test(message)) return ': Go writes a code point as \\x{00e9}, not \\u00e9';
  if (/invalid repeat count/.test(message)) return ': Go allows at most 1000 repetitions';
  return '';
}
