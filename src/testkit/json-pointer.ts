/**
 * JSON pointer helpers (RFC 6901). Issue paths are JSON pointers into the validated object.
 */

export function escapePointerSegment(segment: string | number): string {
  return String(segment).replace(/~/g, '~0').replace(/\//g, '~1');
}

export function joinPointer(base: string, ...segments: Array<string | number>): string {
  return base + segments.map((s) => '/' + escapePointerSegment(s)).join('');
}

export function valueAtPointer(root: unknown, pointer: string): unknown {
  if (pointer === '') {
    return root;
  }
  let current: unknown = root;
  for (const raw of pointer.slice(1).split('/')) {
    const segment = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (current === null || typeof current !== 'object') {
      return undefined;
    }
    current = (current as Record<string, unknown>)[segment];
  }
  return current;
}

/** Orders pointers segment by segment, numerically where both segments are array indexes. */
export function comparePointers(a: string, b: string): number {
  const as = a.split('/');
  const bs = b.split('/');
  for (let i = 0; i < Math.min(as.length, bs.length); i++) {
    if (as[i] === bs[i]) {
      continue;
    }
    const an = /^\d+$/.test(as[i]) ? Number(as[i]) : NaN;
    const bn = /^\d+$/.test(bs[i]) ? Number(bs[i]) : NaN;
    if (!isNaN(an) && !isNaN(bn)) {
      return an - bn;
    }
    return as[i] < bs[i] ? -1 : 1;
  }
  return as.length - bs.length;
}
