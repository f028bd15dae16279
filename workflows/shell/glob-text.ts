// One glob pattern against one string, as bash matches it: `*` any run of characters, `?` one,
// brackets with ranges and POSIX classes. Used for names (the caller splits paths into names and
// applies the dot rule) and for the patterns of `${x%PAT}` and the like, where `*` crosses `/`.

/**
 * `subject` against a glob whose `*` matches any run of characters: the classic scan that returns
 * to the last `*` on a mismatch, so the work is at most the two lengths multiplied (a regular
 * expression of `*?*?*?…` would backtrack for ever).
 */
export function matchesWithStars(pattern: string, subject: string): boolean {
  let p = 0;
  let n = 0;
  let star = -1;
  let resume = 0;
  while (n < subject.length) {
    if (pattern[p] === '*') {
      star = p++;
      resume = n;
      continue;
    }
    const next = p < pattern.length ? matchOneCharacter(pattern, p, subject[n]!) : -1;
    if (next !== -1) {
      p = next;
      n++;
    } else if (star !== -1) {
      p = star + 1;
      n = ++resume;
    } else return false;
  }
  while (pattern[p] === '*') p++;
  return p === pattern.length;
}

/** Where the pattern goes on when `char` matches its element at `p` (`?`, `[a-z]`, `[!x]`, a literal), or -1. */
function matchOneCharacter(pattern: string, p: number, char: string): number {
  const element = pattern[p]!;
  if (element === '?') return p + 1;
  if (element === '[') {
    const bracket = readBracket(pattern, p);
    if (bracket !== undefined) return bracket.matches(char) ? bracket.end : -1;
  }
  return element === char ? p + 1 : -1;
}

/**
 * POSIX character classes, as the members of a regular expression's bracket: for bash's globs
 * (`[[:alpha:]]oken`) and for process-search patterns (`pgrep '[[:alpha:]]ode'`).
 */
export const POSIX_CLASSES: Readonly<Record<string, string>> = {
  alpha: 'a-zA-Z',
  digit: '0-9',
  alnum: 'a-zA-Z0-9',
  upper: 'A-Z',
  lower: 'a-z',
  space: '\\s',
  blank: ' \\t',
  punct: '!-\\/:-@\\[-`{-~',
  print: ' -~',
  graph: '!-~',
  cntrl: '\\x00-\\x1f\\x7f',
  xdigit: '0-9A-Fa-f',
  word: '\\w',
};

/** One regular expression per class, made once. */
const CLASS_TESTS: ReadonlyMap<string, RegExp> = new Map(Object.entries(POSIX_CLASSES).map(([name, members]) => [name, new RegExp(`[${members}]`)]));

/**
 * A bracket expression at `p` as bash reads it: `[!…]`/`[^…]` negated, a `]` first is a member,
 * ranges, classes (`[:alpha:]`), equivalence classes (`[=g=]`) and collating symbols (`[.g.]`);
 * a class bash knows and gobby does not matches any character. Undefined when it never closes
 * (then `[` is itself).
 */
function readBracket(pattern: string, p: number): { readonly end: number; readonly matches: (char: string) => boolean } | undefined {
  let i = p + 1;
  const negated = pattern[i] === '!' || pattern[i] === '^';
  if (negated) i++;
  const tests: ((char: string) => boolean)[] = [];
  for (let first = true; i < pattern.length; first = false) {
    const at = pattern[i]!;
    if (at === ']' && !first) return { end: i + 1, matches: (char) => tests.some((test) => test(char)) !== negated };
    const special = at === '[' ? /^\[([:=.])(.*?)\1\]/.exec(pattern.slice(i)) : null;
    if (special) {
      const [whole, kind, name] = special;
      if (kind === ':') {
        const known = CLASS_TESTS.get(name!);
        tests.push(known === undefined ? () => true : (char) => known.test(char));
      } else tests.push((char) => char === name);
      i += whole.length;
    } else if (pattern[i + 1] === '-' && i + 2 < pattern.length && pattern[i + 2] !== ']') {
      const low = at;
      const high = pattern[i + 2]!;
      tests.push((char) => char >= low && char <= high);
      i += 3;
    } else {
      tests.push((char) => char === at);
      i++;
    }
  }
  return undefined;
}

/**
 * A `**` segment written by the user, as what it can name: bash without `globstar` (the default)
 * reads it as `*`, and bash's globstar and the glob libraries programs use (fast-glob, Python's
 * glob, Go's doublestar) as any depth of names that do not start with a dot. Either way it enters
 * no dot folder, so `sed -i … **` followed by `/*.json` never reaches `.claude/settings.json`; it
 * is read as `*`, losing only depth below folders without a dot. The classifier's own `**` is a
 * walk below a folder, which enters dot folders as find does.
 */
export function starForGlobStar(glob: string): string {
  return glob
    .split('/')
    .map((segment) => (segment === '**' ? '*' : segment))
    .join('/');
}

/** Words by which a command asks a glob library or a shell for dot names (`--dot`, `dot: true`, `include_hidden=True`, `File::FNM_DOTMATCH`, zsh's `globdots` and `(D)`): then `**` is not read as starForGlobStar reads it. */
export const ASKS_FOR_DOT_NAMES = /dot|hidden|\(D\)/i;
