// "Did you mean": the known value nearest to a misspelt one, so a typo fails with its fix
// instead of silently becoming a new value.

import { show } from './errors';

/** The candidate within a third of the word's length in edits, if one is. @internal */
export function closestOf(word: string, candidates: string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Math.max(1, Math.floor(word.length / 3)) + 1;
  for (const c of candidates) {
    const d = editDistance(word, c);
    if (d < bestDistance) {
      best = c;
      bestDistance = d;
    }
  }
  return best;
}

/**
 * The fix for a value that is not one of `known`: the closest known value when one is near,
 * else the list of them.
 * @internal
 */
export function didYouMean(word: string, known: string[]): string {
  const closest = closestOf(`${word}`.toLowerCase(), known);
  return closest !== undefined
    ? `did you mean ${show(closest)}?`
    : `use one of ${known.map(show).join(', ')}`;
}

/** Levenshtein distance, with a swap of two neighbours counting as one edit. @internal */
export function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i]);
  for (let j = 1; j <= b.length; j++) d[0][j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.length][b.length];
}
