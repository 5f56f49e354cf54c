import { RE2JS } from 're2js';

/**
 * SemVer constraints exactly as Kargo v1.11.2 parses them: github.com/Masterminds/semver/v3
 * v3.4.0 (Kargo's go.mod) `NewConstraint`, which Kargo's webhook (`pkg/validation/validation.go`
 * `SemverConstraint`) and its image, chart and git selectors call. This follows constraints.go
 * step by step, with its regular expressions run by re2js, so they match as Go's `regexp` does:
 * `rewriteRange` turns `a - b` into `>= a, <= b`, the text is split at `||`, each part must match
 * `validConstraintRegex`, and each constraint `findConstraintRegex` finds must match
 * `constraintRegex` and give a version `NewVersion` accepts (`coerceNewVersion`, since
 * `CoerceNewVersion` is true). So `!=1.2.3`, `1.2.x`, `~1`, `>= 1.0, < 2` and `^1 || ^2` are
 * accepted, as in Kargo, and `>=1.0.0 <2.0.0 ||` or `1.2.3.4` are not.
 */

const CV = 'v?([0-9|x|X|\\*]+)(\\.[0-9|x|X|\\*]+)?(\\.[0-9|x|X|\\*]+)?'
  + '(-([0-9A-Za-z\\-]+(\\.[0-9A-Za-z\\-]+)*))?'
  + '(\\+([0-9A-Za-z\\-]+(\\.[0-9A-Za-z\\-]+)*))?';
const OPS = '=||!=|>|<|>=|=>|<=|=<|~|~>|\\^';

const constraintRegex = RE2JS.compile(`^\\s*(${OPS})\\s*(${CV})\\s*$`);
const constraintRangeRegex = RE2JS.compile(`\\s*(${CV})\\s+-\\s+(${CV})\\s*`);
const findConstraintRegex = RE2JS.compile(`(${OPS})\\s*(${CV})`);
const validConstraintRegex = RE2JS.compile(`^(\\s*(${OPS})\\s*(${CV})\\s*)((?:\\s+|,\\s*)(${OPS})\\s*(${CV})\\s*)*$`);
// version.go looseSemVerRegex, which coerceNewVersion matches
const looseVersionRegex = RE2JS.compile('^v?([0-9]+)(\\.[0-9]+)?(\\.[0-9]+)?'
  + '(-([0-9A-Za-z\\-]+(\\.[0-9A-Za-z\\-]+)*))?'
  + '(\\+([0-9A-Za-z\\-]+(\\.[0-9A-Za-z\\-]+)*))?$');

/**
 * Why Masterminds' `NewConstraint` refuses `constraint`, in its own words, or undefined.
 * @internal
 */
export function mastermindsConstraintProblem(constraint: string): string | undefined {
  for (const part of rewriteRange(constraint).split('||')) {
    if (!validConstraintRegex.matcher(part).find()) return `has the improper constraint ${JSON.stringify(part)}`;
    const found = findAll(findConstraintRegex, part).map(m => m[0]);
    for (const c of found.length > 0 ? found : [part]) {
      const problem = parseConstraint(c);
      if (problem) return problem;
    }
  }
  return undefined;
}

/** Every match of `re` in `text`, each as its groups (Go's `FindAllStringSubmatch`; '' for a group that took no part). */
function findAll(re: RE2JS, text: string): string[][] {
  const m = re.matcher(text);
  const out: string[][] = [];
  while (m.find()) out.push(Array.from({ length: m.groupCount() + 1 }, (_, i) => m.group(i) ?? ''));
  return out;
}

/** constraints.go `rewriteRange`: each `a - b` becomes `>= a, <= b ` (first occurrence of the text each time). */
function rewriteRange(text: string): string {
  let out = text;
  for (const v of findAll(constraintRangeRegex, text)) out = out.replace(v[0], () => `>= ${v[1]}, <= ${v[11]} `);
  return out;
}

const isX = (s: string) => s === 'x' || s === '*' || s === 'X';

/** constraints.go `parseConstraint`: the operator and version, with x-ranges made a version. */
function parseConstraint(c: string): string | undefined {
  if (c.length === 0) return undefined;
  const m = findAll(constraintRegex, c)[0];
  if (!m) return `has the improper constraint ${JSON.stringify(c)}`;
  let ver = m[2];
  if (isX(m[3]) || m[3] === '') {
    ver = `0.0.0${m[6]}`;
  } else if (isX(m[4].replace(/^\./, '')) || m[4] === '') {
    ver = `${m[3]}.0.0${m[6]}`;
  } else if (isX(m[5].replace(/^\./, '')) || m[5] === '') {
    ver = `${m[3]}${m[4]}.0${m[6]}`;
  }
  const problem = coerceVersionProblem(ver);
  return problem ? `has ${JSON.stringify(c)}, whose version ${JSON.stringify(m[2])} ${problem}` : undefined;
}

/** version.go `coerceNewVersion`: the loose regex, uint64 segments, then the prerelease and metadata checks. */
function coerceVersionProblem(v: string): string | undefined {
  const m = findAll(looseVersionRegex, v)[0];
  if (!m) return 'is not a semantic version';
  const segments = [m[1], m[2].replace(/^\./, ''), m[3].replace(/^\./, '')].filter(s => s !== '');
  if (segments.some(s => BigInt(s) > 18446744073709551615n)) return 'has a segment beyond 64 bits';
  if (m[5] !== '') {
    for (const p of m[5].split('.')) {
      // validatePrerelease: a numeric identifier must not start with 0
      if (p === '') return 'has an empty prerelease identifier';
      if (/^[0-9]+$/.test(p) && p.length > 1 && p.startsWith('0')) return `has the prerelease identifier ${JSON.stringify(p)}, which starts with 0`;
    }
  }
  return undefined;
}
