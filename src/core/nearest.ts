// "Did you mean": the known words nearest a mistyped one, by edit distance (a few hundred short keys, once per error).

/** Levenshtein distance, two rows at a time. */
function distance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current.push(Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost));
    }
    previous = current;
  }
  return previous[b.length]!;
}

/** Up to `count` of `known`, nearest `word` first (ties in their given order). */
export function nearestWords(word: string, known: readonly string[], count = 3): string[] {
  const wanted = word.toLowerCase();
  return known
    .map((candidate, index) => ({ candidate, index, far: distance(wanted, candidate.toLowerCase()) }))
    .sort((a, b) => a.far - b.far || a.index - b.index)
    .slice(0, count)
    .map(({ candidate }) => candidate);
}
