/**
 * The converters `cdk8s import` writes (cdk8s-cli's `toJson_<Type>()`) drop undefined values
 * with `Object.entries(x).reduce((r, i) => (i[1] === undefined) ? r : ({ ...r, [i[0]]: i[1] }), {})`,
 * which copies the partial result once per key: quadratic in the keys of each object, and most of
 * the garbage a large synthesis makes (at 100 clusters x 1000 apps, about 100 MiB of peak memory).
 * This rewrites each into a call of one function added to the file, `definedMembers(x)`, which
 * builds the same object in one loop over its keys, without the entry arrays that
 * `Object.fromEntries(Object.entries(x).filter(...))` would allocate: the same own keys in the same
 * order, `__proto__` included as an own key (object literal spreads define data properties, so
 * the function defines it rather than assigning it), the same values.
 */
const QUADRATIC = /Object\.entries\((.+?)\)\.reduce\(\(r, i\) => \(i\[1\] === undefined\) \? r : \(\{ \.\.\.r, \[i\[0\]\]: i\[1\](\?\.value)? \}\), \{\}\)/g;

/** The function the rewritten converters call, appended once to each file that has one. */
export const DEFINED_MEMBERS = `
/**
 * The members of \`obj\` that are not undefined (their \`value\` with \`unwrap\`), in one loop:
 * written by the import task in place of cdk8s import's quadratic filter (projenrc/linear-converters.ts).
 */
function definedMembers(obj: Record<string, any>, unwrap?: boolean): Record<string, any> {
  const out: Record<string, any> = {};
  for (const key of Object.keys(obj)) {
    const member = obj[key];
    if (member === undefined) continue;
    const value = unwrap ? member?.value : member;
    if (key === '__proto__') Object.defineProperty(out, key, { value, writable: true, enumerable: true, configurable: true });
    else out[key] = value;
  }
  return out;
}
`;

/** The generated TypeScript with every quadratic filter of undefined values made linear. */
export function linearConverters(source: string): string {
  let found = false;
  const rewritten = source.replace(QUADRATIC, (_, entries: string, value: string | undefined) => {
    found = true;
    return `definedMembers(${entries}${value ? ', true' : ''})`;
  });
  return found ? rewritten + DEFINED_MEMBERS : rewritten;
}
