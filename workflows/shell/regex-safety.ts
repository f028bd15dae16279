// The agent's regular expressions, run inside the daemon (a `pkill -f` pattern tried against the
// daemon's command line, a `rename 's/…/…/'` tried on file names): JavaScript's engine
// backtracks, so a pattern such as `((.*))*z` takes seconds on a hundred characters, and one hook
// request would stall every session. A pattern is run only when its shape keeps the work
// polynomial and small; the callers treat any other as the cautious answer.

/**
 * Whether `pattern` could take exponential or high-polynomial time to try: a repeated group
 * (`*`, `+`, `{n,}`) that holds a repeat or an alternation at any depth (`(a+)+`, `((.*))*`,
 * `(a|ab)*`), a backreference, more than `maxRepeats` repeats in all (`.*.*.*.*.*`), or a
 * pattern longer than `maxLength`. Classes (`[(|*]`) and escapes (`\(`) are read as such.
 */
export function mayBacktrackBadly(pattern: string, maxRepeats: number, maxLength = 256): boolean {
  if (pattern.length > maxLength) return true;
  // For each open group: whether it holds a repeat or an alternation.
  const open: boolean[] = [];
  let repeats = 0;
  // Whether the atom just before a quantifier is a group that holds one.
  let riskyAtom = false;
  const markEnclosing = (): void => {
    if (open.length > 0) open[open.length - 1] = true;
  };
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '\\') {
      if (/[1-9k]/.test(pattern[i + 1] ?? '')) return true; // a backreference
      i++;
      riskyAtom = false;
    } else if (c === '[') {
      let j = i + 1;
      if (pattern[j] === '^') j++;
      if (pattern[j] === ']') j++;
      while (j < pattern.length && pattern[j] !== ']') j += pattern[j] === '\\' ? 2 : 1;
      i = j;
      riskyAtom = false;
    } else if (c === '(') {
      open.push(false);
      if (pattern[i + 1] === '?') i++; // `(?:`, `(?=`, `(?<name>`: the `?` is no quantifier
      riskyAtom = false;
    } else if (c === ')') {
      const risky = open.pop() ?? false;
      if (risky) markEnclosing();
      riskyAtom = risky;
    } else if (c === '|') {
      markEnclosing();
      riskyAtom = false;
    } else if (c === '*' || c === '+' || (c === '{' && /^\{\d+,\d*\}/.test(pattern.slice(i, i + 24)))) {
      if (riskyAtom) return true;
      repeats++;
      markEnclosing();
      if (c === '{') i = pattern.indexOf('}', i);
      if (pattern[i + 1] === '?' || pattern[i + 1] === '+') i++; // lazy or possessive
      riskyAtom = false;
    } else if (c === '?') {
      markEnclosing(); // optional: a group of them repeated is as bad (`(a?)*`)
      riskyAtom = false;
    } else riskyAtom = false;
  }
  return repeats > maxRepeats;
}
