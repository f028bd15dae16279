// "Did you mean …?" for names a workflow author typed: tool names, keys of a definition.
// Pure.

/**
 * The known name closest to `typed`, ignoring case, or undefined when none is close enough
 * to be a plausible typo. A name that differs only in case always wins (`bash` → `Bash`);
 * otherwise the edit distance (a swap of two neighbours counts as one edit, `Wirte` →
 * `Write`) may be at most a third of the name's length, and at least one.
 */
function nearestName(typed: string, known: readonly string[]): string | undefined {
  const lower = typed.toLowerCase();
  const sameButCase = known.find((name) => name.toLowerCase() === lower);
  if (sameButCase !== undefined) return sameButCase;
  const limit = Math.max(1, Math.floor(typed.length / 3));
  let best: { name: string; distance: number } | undefined;
  for (const name of known) {
    const distance = editDistance(lower, name.toLowerCase());
    if (distance <= limit && (!best || distance < best.distance)) best = { name, distance };
  }
  return best?.name;
}

/** `(did you mean \`X\`?)`, or '' when nothing is close: for the end of a load error. */
export function didYouMean(typed: string, known: readonly string[]): string {
  const nearest = nearestName(typed, known);
  return nearest === undefined ? '' : ` (did you mean \`${nearest}\`?)`;
}

/** Optimal string alignment distance: insertions, deletions, substitutions and adjacent swaps. */
function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const columns = b.length + 1;
  const d: number[][] = Array.from({ length: rows }, (_, i) => Array.from({ length: columns }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < columns; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) value = Math.min(value, d[i - 2]![j - 2]! + 1);
      d[i]![j] = value;
    }
  }
  return d[a.length]![b.length]!;
}
