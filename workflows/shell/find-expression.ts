// Which files find's expression can select below a start path, as globs relative to it, so that
// what `-delete` or `-exec rm {} +` reaches can be judged: `-name '*.pyc'` selects `**/*.pyc`,
// `-path '*/.claude/*'` selects `**/.claude/*`. Tests that only narrow the selection (`-type f`,
// `-mtime`, a negated test, `-prune`) are left out, which can only widen it; of the alternatives
// (`-o`), those that hold the action select the union of theirs, and one with no name or path
// test selects anything.

/** Anything below the start path: any name, dot names included (after `**` no dot rule applies: ground-paths.ts). */
const ANYTHING_BELOW: readonly string[] = ['**/*'];

const NAME_TESTS = new Set(['-name', '-iname']);
const PATH_TESTS = new Set(['-path', '-wholename', '-ipath', '-iwholename']);
/** Tests whose operand is a pattern gobby does not translate: the alternative then selects anything. */
const OPAQUE_TESTS = new Set(['-regex', '-iregex', '-lname', '-ilname']);
/** Tests and actions that take one operand; skipped so the operand is not read as a test. */
const ONE_OPERAND = new Set(['-type', '-xtype', '-user', '-group', '-uid', '-gid', '-perm', '-size', '-mtime', '-mmin', '-atime', '-amin', '-ctime', '-cmin', '-newer', '-anewer', '-cnewer', '-links', '-inum', '-samefile', '-maxdepth', '-mindepth', '-fstype', '-used', '-context', '-printf', '-fprint', '-fprint0', '-fls', '-regextype']);

/** Actions that do something to the selected files; `-o` binds looser than the implied `-a`, so an action belongs to its alternative. */
const ACTIONS = new Set(['-delete', '-exec', '-execdir', '-ok', '-okdir']);

type Item =
  | { readonly kind: 'test'; readonly globs: readonly string[] | undefined; readonly negated: boolean }
  | { readonly kind: 'group'; readonly alternatives: readonly (readonly Item[])[]; readonly negated: boolean }
  | { readonly kind: 'action' };

/**
 * The globs, relative to the start path as written (`root`), of what the expression `args` can
 * hand to its actions; undefined when a pattern is only known at run time. An alternative without
 * an action selects nothing for them (`-path ./node_modules -prune -o -name '*.log' -delete`
 * deletes only the `.log` files).
 */
export function selectedBelow(root: string, args: readonly { readonly value: string; readonly dynamic: boolean }[]): readonly string[] | undefined {
  const simple = oneAlternative(root, args);
  if (simple !== null) return simple;
  const reader = { at: 0, dynamic: false };
  const alternatives = readAlternatives(root, args, reader);
  if (reader.dynamic) return undefined;
  return [...new Set(selection(alternatives))];
}

/**
 * The common expression, without groups or alternatives (`-name '*.ts' -not -path './x/*' -exec wc -l {} +`):
 * its first positive name or path test, read in one pass; null when the expression needs the full reading.
 */
function oneAlternative(root: string, args: readonly { readonly value: string; readonly dynamic: boolean }[]): readonly string[] | undefined | null {
  let found: readonly string[] | undefined | null = null;
  let negated = false;
  for (let i = 0; i < args.length; i++) {
    const { value, dynamic } = args[i]!;
    if (value === '(' || value === ')' || value === '-o' || value === '-or' || value === ',') return null;
    if (value === '!' || value === '-not') {
      negated = true;
      continue;
    }
    if (value === '-exec' || value === '-execdir' || value === '-ok' || value === '-okdir') {
      while (i < args.length && args[i]!.value !== ';' && args[i]!.value !== '+') i++;
    } else if (NAME_TESTS.has(value) || PATH_TESTS.has(value) || OPAQUE_TESTS.has(value)) {
      const pattern = args[++i];
      if (pattern === undefined || pattern.dynamic || dynamic) return undefined;
      if (!negated && found === null) {
        const text = value.startsWith('-i') ? anyCase(pattern.value) : pattern.value;
        found = OPAQUE_TESTS.has(value) ? ANYTHING_BELOW : NAME_TESTS.has(value) ? anyDepth(text) : (pathBelow(root, text) ?? ANYTHING_BELOW);
      }
    } else if (ONE_OPERAND.has(value)) i++;
    negated = false;
  }
  return found ?? ANYTHING_BELOW;
}

/**
 * The folders, as written (relative to the start path `root` as find prints paths), that the
 * expression keeps its actions out of: pruned at its start (`-path ./node_modules -prune -o …`,
 * one or more), or excluded by a negated path test in an expression without alternatives
 * (`-not -path './.gobby/*'`). Only fixed paths that start with the start path count: find matches
 * `-path` against the path as it prints it, so `-path .gobby` under `.` excludes nothing.
 */
export function skippedBelow(root: string, args: readonly { readonly value: string; readonly dynamic: boolean }[]): readonly string[] {
  const skipped: string[] = [];
  const fixedBelowRoot = (pattern: { readonly value: string; readonly dynamic: boolean }): boolean =>
    !pattern.dynamic && !/[*?[\\]/.test(pattern.value) && (pattern.value === root || pattern.value.startsWith(root.endsWith('/') ? root : `${root}/`));
  let at = 0;
  // `-path X -prune -o`, repeated, at the start.
  while (PATH_TESTS.has(args[at]?.value ?? '') && !args[at]!.value.startsWith('-i') && args[at + 2]?.value === '-prune' && (args[at + 3]?.value === '-o' || args[at + 3]?.value === '-or')) {
    if (fixedBelowRoot(args[at + 1]!)) skipped.push(args[at + 1]!.value);
    at += 4;
  }
  const rest = args.slice(at);
  if (rest.some((arg) => arg.value === '-o' || arg.value === '-or' || arg.value === '(' || arg.value === ',' || arg.value === '-prune')) return skipped;
  for (let i = 1; i + 1 < rest.length; i++) {
    const negated = rest[i - 1]!.value === '!' || rest[i - 1]!.value === '-not';
    const pattern = rest[i + 1]!;
    if (!negated || !PATH_TESTS.has(rest[i]!.value) || rest[i]!.value.startsWith('-i') || !pattern.value.endsWith('/*')) continue;
    const folder = { value: pattern.value.slice(0, -2), dynamic: pattern.dynamic };
    if (fixedBelowRoot(folder)) skipped.push(folder.value);
  }
  return skipped;
}

/** Deeper groups than this are not read: the expression then selects what only run time knows. */
const MAX_GROUP_DEPTH = 32;

function readAlternatives(root: string, args: readonly { readonly value: string; readonly dynamic: boolean }[], reader: { at: number; dynamic: boolean }, depth = 0): Item[][] {
  const alternatives: Item[][] = [[]];
  if (depth > MAX_GROUP_DEPTH) {
    reader.dynamic = true;
    return alternatives;
  }
  let negated = false;
  for (; reader.at < args.length; reader.at++) {
    const { value, dynamic } = args[reader.at]!;
    const current = alternatives[alternatives.length - 1]!;
    if (value === ')') break;
    if (value === '(') {
      reader.at++;
      current.push({ kind: 'group', alternatives: readAlternatives(root, args, reader, depth + 1), negated });
    } else if (value === '-o' || value === '-or' || value === ',') alternatives.push([]);
    else if (value === '!' || value === '-not') {
      negated = !negated;
      continue;
    } else if (ACTIONS.has(value)) {
      current.push({ kind: 'action' });
      if (value !== '-delete') while (reader.at < args.length && args[reader.at]!.value !== ';' && args[reader.at]!.value !== '+') reader.at++;
    } else if (NAME_TESTS.has(value) || PATH_TESTS.has(value) || OPAQUE_TESTS.has(value)) {
      const pattern = args[++reader.at];
      if (pattern === undefined || pattern.dynamic || dynamic) reader.dynamic = true;
      else {
        const caseless = value.startsWith('-i');
        const text = caseless ? anyCase(pattern.value) : pattern.value;
        current.push({ kind: 'test', globs: OPAQUE_TESTS.has(value) ? undefined : NAME_TESTS.has(value) ? anyDepth(text) : pathBelow(root, text), negated });
      }
    } else if (ONE_OPERAND.has(value)) reader.at++;
    negated = false;
  }
  return alternatives;
}

function hasAction(items: readonly Item[]): boolean {
  return items.some((item) => item.kind === 'action' || (item.kind === 'group' && item.alternatives.some(hasAction)));
}

/** The union over the alternatives that act (all of them when none does, as in a group before an action). */
function selection(alternatives: readonly (readonly Item[])[]): string[] {
  const acting = alternatives.filter(hasAction);
  return (acting.length > 0 ? acting : alternatives).flatMap((items) => {
    // Tests are joined by "and": one positive test is enough to stand for the alternative.
    const test = items.find((item): item is Extract<Item, { kind: 'test' }> => item.kind === 'test' && !item.negated);
    if (test !== undefined) return test.globs ?? ANYTHING_BELOW;
    const group = items.find((item): item is Extract<Item, { kind: 'group' }> => item.kind === 'group' && !item.negated);
    return group !== undefined ? selection(group.alternatives) : ANYTHING_BELOW;
  });
}

/**
 * A `-path` pattern, which find matches against the whole path as it prints it (the start path,
 * then the rest; its `*` also matches `/`), as a glob below the start path; undefined when the
 * pattern does not start where the path does.
 */
function pathBelow(root: string, pattern: string): readonly string[] | undefined {
  const start = root.replace(/\/+$/, '');
  let rest: string;
  if (pattern === start) return undefined; // the start path itself: not below it
  if (pattern.startsWith(`${start}/`)) rest = pattern.slice(start.length + 1);
  // A leading `*` stands for any folders and, without a `/` after it, the start of a name too (`*claude*`).
  else if (pattern.startsWith('*')) rest = `**/${pattern[1] === '/' ? pattern.slice(2) : pattern}`;
  else return undefined;
  // A `*` that is a whole segment before the last may stand for any number of folders.
  const segments = rest.split('/');
  const glob = segments.map((segment, index) => (segment === '*' && index < segments.length - 1 ? '**' : segment)).join('/');
  return glob === '' ? undefined : [glob];
}

/**
 * A name pattern at any depth below a folder (find's `-name`, a git pathspec): `**` and the name.
 * The name has no dot rule after `**` (`-name '*obby'` matches `.gobby`: ground-paths.ts).
 */
export function anyDepth(name: string): readonly string[] {
  return [`**/${name}`];
}

/** A pattern that matches its letters in either case (`-iname`, `-ipath`). */
function anyCase(pattern: string): string {
  return pattern.replace(/[a-zA-Z]/g, (letter) => `[${letter.toLowerCase()}${letter.toUpperCase()}]`);
}
