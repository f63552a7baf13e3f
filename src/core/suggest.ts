// "Did you mean": the known names closest to a mistyped one, so an invalid value is answered in
// one short line instead of a list of every valid value.

/** Edit distance (insertions, deletions, substitutions, swaps of two neighbours), case-insensitive. */
export function editDistance(a: string, b: string): number {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  let before: number[] = [];
  let prev = Array.from({ length: y.length + 1 }, (_, j) => j);
  for (let i = 1; i <= x.length; i++) {
    const cur = [i];
    for (let j = 1; j <= y.length; j++) {
      cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (x[i - 1] === y[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && x[i - 1] === y[j - 2] && x[i - 2] === y[j - 1]) cur[j] = Math.min(cur[j], before[j - 2] + 1);
    }
    before = prev;
    prev = cur;
  }
  return prev[y.length];
}

/**
 * Up to `max` known names close to `got`: the fewest edits away, if within a third of its length
 * (at least 2); else those starting with it or containing it.
 */
export function closest(got: string, known: readonly string[], max = 3): string[] {
  const limit = Math.max(2, Math.floor(got.length / 3));
  const g = got.toLowerCase();
  const scored = known.map((k) => ({ k, d: editDistance(got, k) })).sort((a, b) => a.d - b.d || a.k.localeCompare(b.k));
  const best = scored[0]?.d ?? Infinity;
  const near = best <= limit ? scored.filter((x) => x.d === best) : scored.filter((x) => x.k.toLowerCase().startsWith(g) || (g.length >= 4 && x.k.toLowerCase().includes(g)));
  return near.slice(0, max).map((x) => x.k);
}

/** `; did you mean "a"?` (or `"a" or "b"`), or '' when nothing is close. */
export function didYouMean(got: string, known: readonly string[]): string {
  const near = closest(got, known);
  return near.length ? `; did you mean ${near.map((n) => `"${n}"`).join(' or ')}?` : '';
}

/** One line for an unknown value: `unknown fault "x"; did you mean "y"? (see: how to list them)`. */
export function unknownValue(what: string, got: string, known: readonly string[], listHow: string): string {
  return `unknown ${what} "${got}"${didYouMean(got, known)} (${listHow})`;
}
