// Programs that print paths they find, not paths they are given: `find`, `fd`, `du -a`, `tree -f`,
// `rg --files`, `grep -rl`, `git ls-files`, `locate`, `ls -A`. A command that changes what such a
// program printed (`du -a ~ | cut -f2 | xargs rm`, `git ls-files | xargs sed -i …`) changes one
// of gobby's files when the listing may hold it. Each program is read as a walk: the folders it
// starts from, whether it goes into dot folders and how deep, the names it keeps, and for a search
// by content the pattern a file must hold.
import { globMatches, isBelow, segmentMatches, wholePathMatches } from './ground-paths.js';
import type { ShellInvocation } from './shell/index.js';
import { resolveAgainst } from './shell/paths.js';
import { findMaySelect } from './find-selection.js';
import { hasOption, optionValues, parseArgv, type OptionSpec, type ParsedArgv } from './shell/argv.js';
import { AG_OPTIONS, DU_OPTIONS, GREP_OPTIONS, RG_OPTIONS } from './shell/programs-files.js';
import { mayBacktrackBadly } from './shell/regex-safety.js';
import { literalArg } from './shell/words.js';

/** What one program's listing may print, as a walk over the folders below its roots. */
interface Listing {
  /** Absolute folders (or files) the walk starts from; each is printed itself too. */
  readonly roots: readonly string[];
  /** Whether names below a root that start with a dot are walked (dot folders) and printed. */
  readonly hidden: boolean;
  /** Levels below a root that are printed; undefined for any. */
  readonly maxDepth?: number | undefined;
  /**
   * The name and path tests a printed file passes (`-name`, `--include`, `-g`, a pathspec).
   * `isFile`: `file` is known to be a file, not a folder whose own name a folder test may drop.
   */
  readonly keeps?: ((file: string, root: string, isFile?: boolean) => boolean) | undefined;
  /** A search by content: the file is printed only when its text matches (`grep -rl PATTERN`). */
  readonly content?: ContentTest | undefined;
}

/** A pattern of a search by content, as the program reads it. */
interface ContentTest {
  readonly patterns: readonly string[];
  /** grep's default: basic regular expressions, where `\|`, `\(` and `\{` are the operators. */
  readonly basic: boolean;
  readonly fixed: boolean;
  readonly ignoreCase: boolean;
  /** Files without a match are printed (`grep -L`): the text decides nothing gobby can use. */
  readonly inverted: boolean;
}

/**
 * What the daemon read of gobby's files for a search by content, by path: the text, or null for a
 * file too large or unreadable to judge. A file not there does not exist.
 */
export type GroundTexts = Readonly<Record<string, string | null>>;

/**
 * Whether `file` (one of gobby's files or folders) may be among the paths `invocation` prints.
 * A search by content prints the files below whose text matches; without `texts` every file is
 * taken to match.
 */
export function mayList(invocation: ShellInvocation, file: string, texts?: GroundTexts): boolean {
  const program = invocation.program.slice(invocation.program.lastIndexOf('/') + 1);
  if (program === 'find' || program === 'bfs' || program === 'gfind') return findFinds(invocation, file);
  if (program === 'fd' || program === 'fdfind') return fdFinds(invocation, file);
  if (program === 'ls') return lsLists(invocation, file);
  if (program === 'locate' || program === 'plocate' || program === 'mlocate' || program === 'slocate') return locateFinds(invocation.args, file);
  const listing = listingOf(invocation);
  if (listing === undefined) return false;
  const listed = (path: string): boolean => listing.roots.some((root) => reaches(listing, root, path));
  const content = listing.content;
  if (content === undefined || content.inverted || texts === undefined) return listed(file);
  // Files are printed, not folders: a folder counts through the files read below it.
  return Object.entries(texts).some(([path, text]) => (path === file || isBelow(path, file)) && listed(path) && (text === null || contentMatches(content, text)));
}

/**
 * Whether a recursive grep's `--exclude-dir`, `--exclude` and `--include` keep it from opening
 * `file` as it walks the tree at `root` (ripgrep's own filters are not trusted here: a config file
 * the command does not show, `RIPGREP_CONFIG_PATH`, can undo them).
 */
export function grepKeepsOut(invocation: ShellInvocation, root: string, file: string): boolean {
  if (!GREPS.has(invocation.program.slice(invocation.program.lastIndexOf('/') + 1))) return false;
  const keeps = listingOf(invocation)?.keeps;
  return keeps !== undefined && isBelow(file, root) && !keeps(file, root, true);
}

const GREPS = new Set(['grep', 'egrep', 'fgrep', 'rgrep']);

/** The listing of a program that searches by content (`grep -r`, `rg`, `ag`, `ack`, `git grep`), for the daemon to read gobby's files only then. */
export function searchesByContent(invocation: ShellInvocation): boolean {
  return listingOf(invocation)?.content !== undefined;
}

function listingOf(invocation: ShellInvocation): Listing | undefined {
  return LISTINGS[invocation.program.slice(invocation.program.lastIndexOf('/') + 1)]?.(invocation.args, invocation.cwd);
}

function reaches(listing: Listing, root: string, file: string): boolean {
  if (file === root) return true;
  // A root the shell expands (`~/.gob*`): whatever it may name, the file or a folder above it, is walked from.
  if (/[*?[]/.test(root)) return globMatches(root, file) || ancestors(file).some((folder) => globMatches(root, folder));
  if (!isBelow(file, root)) return false;
  const below = file.slice(root === '/' ? 1 : root.length + 1).split('/');
  if (!listing.hidden && below.some((name) => name.startsWith('.'))) return false;
  if (listing.maxDepth !== undefined && below.length > listing.maxDepth) return false;
  return listing.keeps === undefined || listing.keeps(file, root);
}

/** `/a/b/c` → `/a/b`, `/a`. */
function ancestors(path: string): string[] {
  const folders: string[] = [];
  for (let slash = path.lastIndexOf('/'); slash > 0; slash = path.lastIndexOf('/', slash - 1)) folders.push(path.slice(0, slash));
  return folders;
}

/** A program's words as its option parser reads them (workflows/shell/argv.ts), with the operands as text. */
function parse(args: readonly string[], spec: OptionSpec): { readonly options: ParsedArgv; readonly operands: string[] } {
  const options = parseArgv(args.map(literalArg), spec);
  return { options, operands: options.operands.map((operand) => operand.value) };
}

const has = hasOption;
const valuesOf = (parsed: ParsedArgv, ...names: string[]): string[] => optionValues(parsed, ...names).map((value) => value.value);
const count = (parsed: ParsedArgv, name: string): number => parsed.options.filter((option) => option.name === name).length;

function rootsOf(operands: readonly string[], cwd: string): string[] {
  return operands.length > 0 ? operands.map((operand) => resolveAgainst(cwd, operand)) : [cwd];
}

function depth(value: string | undefined): number | undefined {
  return value !== undefined && /^\d+$/.test(value) ? Number(value) : undefined;
}

type ListingOf = (args: readonly string[], cwd: string) => Listing | undefined;

/** `du [-a] [-d N] [ROOT…]`: every folder below the roots (every file too with `-a`), dot names included; `-s` prints only the roots. */
const du: ListingOf = (args, cwd) => {
  const { options, operands } = parse(args, DU_OPTIONS);
  if (has(options, '--files0-from')) return undefined;
  const summarized = has(options, '-s', '--summarize');
  return { roots: rootsOf(operands, cwd), hidden: true, maxDepth: summarized ? 0 : depth(valuesOf(options, '-d', '--max-depth').at(-1)) };
};

/** `tree [-a] [-L N] [ROOT…]` (paths with `-f`; the names alone are paths too from the folder it ran in): dot names with `-a`. */
const tree: ListingOf = (args, cwd) => {
  const { options, operands } = parse(args, { short: 'LPIoHT', long: ['charset', 'filelimit', 'timefmt', 'sort', 'fromfile'] });
  // `-P` keeps only matching files, but folders are listed all the same, gobby's among them: only `-I` drops a name.
  const drop = valuesOf(options, '-I');
  return {
    roots: rootsOf(operands, cwd),
    hidden: has(options, '-a'),
    maxDepth: depth(valuesOf(options, '-L').at(-1)),
    keeps: drop.length === 0 ? undefined : (file) => !drop.some((pattern) => pattern.split('|').some((one) => segmentMatches(one, file.slice(file.lastIndexOf('/') + 1), false))),
  };
};

/**
 * `rg --files [ROOT…]`, `rg -l PATTERN [ROOT…]`, and any `rg` search (its matches start with the
 * file's path): dot names only with `--hidden`, `-.` or `-uu`; `-g`/`--glob` keep and drop names.
 */
const rg: ListingOf = (args, cwd) => {
  const { options, operands } = parse(args, RG_OPTIONS);
  // Only the matches are printed, without the files' paths.
  if (has(options, '-I', '--no-filename') && !has(options, '--files', '-l', '--files-with-matches', '--files-without-match')) return undefined;
  // A glob or an ignore file of the command's choosing may let dot names in (they override ripgrep's other filters).
  const hidden = has(options, '--hidden', '-.', '-g', '--glob', '--iglob', '--ignore-file') || count(options, '-u') + 2 * count(options, '--unrestricted') >= 2;
  const globs = valuesOf(options, '-g', '--glob', '--iglob');
  const keeps = globs.length === 0 ? undefined : (file: string, root: string) => keptByGlobs(globs, file, root);
  if (has(options, '--files')) return { roots: rootsOf(operands, cwd), hidden, maxDepth: depth(valuesOf(options, '-d', '--max-depth').at(-1)), keeps };
  const given = valuesOf(options, '-e', '--regexp');
  const fromFile = has(options, '-f', '--file');
  const patterns = given.length > 0 || fromFile ? given : operands.slice(0, 1);
  const roots = given.length > 0 || fromFile ? operands : operands.slice(1);
  return {
    roots: rootsOf(roots, cwd),
    hidden,
    maxDepth: depth(valuesOf(options, '-d', '--max-depth').at(-1)),
    keeps,
    // `--pre` runs its program on every file searched, whatever the file holds.
    content: has(options, '--pre') ? undefined : { patterns: fromFile ? [] : patterns, basic: false, fixed: has(options, '-F', '--fixed-strings'), ignoreCase: has(options, '-i', '--ignore-case', '-S', '--smart-case'), inverted: has(options, '--files-without-match', '-v', '--invert-match') },
  };
};

/** ripgrep's and fd's globs: the last that matches decides, `!` drops; without a `/` a glob is tried on the name. */
function keptByGlobs(globs: readonly string[], file: string, root: string): boolean {
  let kept = globs.every((glob) => glob.startsWith('!'));
  const relative = file.slice(root === '/' ? 1 : root.length + 1);
  const name = file.slice(file.lastIndexOf('/') + 1);
  for (const glob of globs) {
    const drop = glob.startsWith('!');
    const pattern = drop ? glob.slice(1) : glob;
    const matches = pattern.includes('/') ? wholePathMatches(pattern.replace(/^\//, ''), relative) : segmentMatches(pattern, name, false) || relative.split('/').some((part) => segmentMatches(pattern, part, false));
    if (matches) kept = !drop;
  }
  return kept;
}

/**
 * `grep -r PATTERN [ROOT…]` (and `rgrep`): every file below the roots, dot names included, whose
 * text matches; `--include`, `--exclude` and `--exclude-dir` keep and drop names. Its matches start
 * with the file's path (`grep -rn x . | cut -d: -f1`) unless `-h`; without `-r` it reads only the
 * files it is given, which name themselves.
 */
const grep =
  (alwaysRecursive: boolean, flavour: 'basic' | 'extended' | 'fixed'): ListingOf =>
  (args, cwd) => {
    const { options, operands } = parse(args, GREP_OPTIONS);
    const recursive = alwaysRecursive || has(options, '-r', '-R', '--recursive', '--dereference-recursive') || valuesOf(options, '-d', '--directories').includes('recurse');
    if (!recursive || (has(options, '-h', '--no-filename', '-q', '--quiet', '--silent') && !has(options, '-l', '-L', '--files-with-matches', '--files-without-match'))) return undefined;
    const given = valuesOf(options, '-e', '--regexp');
    const fromFile = has(options, '-f', '--file');
    const patterns = given.length > 0 || fromFile ? given : operands.slice(0, 1);
    const roots = given.length > 0 || fromFile ? operands : operands.slice(1);
    const include = valuesOf(options, '--include');
    const exclude = valuesOf(options, '--exclude');
    const excludeDir = valuesOf(options, '--exclude-dir');
    const extended = flavour === 'extended' || has(options, '-E', '--extended-regexp', '-P', '--perl-regexp');
    return {
      roots: rootsOf(roots, cwd),
      hidden: true,
      keeps: (file, root, isFile = false) => {
        const name = file.slice(file.lastIndexOf('/') + 1);
        // The folders on the way down are those grep may not go into; so is the last name, unless it is a file (gobby's `.gobby` and `.claude` are folders).
        const below = file.slice(root === '/' ? 1 : root.length + 1).split('/');
        const folders = isFile ? below.slice(0, -1) : below;
        if (folders.some((folder) => excludeDir.some((glob) => segmentMatches(glob, folder, false)))) return false;
        if (exclude.some((glob) => segmentMatches(glob, name, false))) return false;
        return include.length === 0 || include.some((glob) => segmentMatches(glob, name, false));
      },
      content: {
        patterns: fromFile ? [] : patterns,
        basic: !extended && flavour !== 'fixed',
        fixed: flavour === 'fixed' || has(options, '-F', '--fixed-strings'),
        ignoreCase: has(options, '-i', '-y', '--ignore-case'),
        inverted: has(options, '-L', '--files-without-match', '-v', '--invert-match'),
      },
    };
  };

/** `ag PATTERN [ROOT…]`, `ag -l`, `ag -g NAME_PATTERN`: dot names only with `--hidden`, `-u` or `-a`. */
const ag: ListingOf = (args, cwd) => {
  const { options, operands } = parse(args, AG_OPTIONS);
  const hidden = has(options, '--hidden', '-u', '--unrestricted', '-a', '--all-types');
  const maxDepth = depth(valuesOf(options, '--depth').at(-1));
  const names = valuesOf(options, '-g');
  if (names.length > 0) return { roots: rootsOf(operands, cwd), hidden, maxDepth, keeps: (file) => names.some((pattern) => regexTest(pattern, file.slice(file.lastIndexOf('/') + 1), !/[A-Z]/.test(pattern))) };
  return {
    roots: rootsOf(operands.slice(1), cwd),
    hidden,
    maxDepth,
    content: { patterns: operands.slice(0, 1), basic: false, fixed: has(options, '-Q', '--literal'), ignoreCase: has(options, '-i', '--ignore-case', '-S', '--smart-case'), inverted: has(options, '-L', '--files-without-matches', '-v', '--invert-match') },
  };
};

/** `ack -f [ROOT…]`, `ack -g REGEX`, `ack PATTERN [ROOT…]`: dot names included (ack skips only version-control folders). */
const ack: ListingOf = (args, cwd) => {
  const { options, operands } = parse(args, AG_OPTIONS);
  if (has(options, '-f')) return { roots: rootsOf(operands, cwd), hidden: true };
  const names = valuesOf(options, '-g');
  if (names.length > 0) return { roots: rootsOf(operands, cwd), hidden: true, keeps: (file) => names.some((pattern) => regexTest(pattern, file, has(options, '-i'))) };
  return {
    roots: rootsOf(operands.slice(1), cwd),
    hidden: true,
    content: { patterns: operands.slice(0, 1), basic: false, fixed: has(options, '-Q', '--literal'), ignoreCase: has(options, '-i', '--ignore-case'), inverted: has(options, '-L', '--files-without-matches', '-v', '--invert-match') },
  };
};

/**
 * git's listings of the work tree, from the working directory or the pathspecs given:
 * `git ls-files` (tracked files, `-o` the untracked ones: where `gobby install` puts the hooks),
 * `git ls-tree -r`, `git status` (the untracked among what it prints), `git grep` (by content).
 * Which of them are tracked or changed is only known at run time.
 */
const git: ListingOf = (args, cwd) => {
  // Options before the subcommand: `-C DIR` moves the working directory.
  let i = 0;
  let from = cwd;
  for (; i < args.length && args[i]!.startsWith('-'); i++) {
    if (args[i] === '-C' && args[i + 1] !== undefined) from = resolveAgainst(from, args[++i]!);
    else if (args[i] === '-c' || args[i] === '--git-dir' || args[i] === '--work-tree' || args[i] === '--namespace') i++;
  }
  const sub = args[i];
  const rest = args.slice(i + 1);
  if (sub === 'ls-files' || sub === 'status') {
    const { operands } = parse(rest, { short: 'xX', long: ['exclude', 'exclude-from', 'exclude-per-directory', 'format', 'with-tree'] });
    return pathspecListing(operands, from);
  }
  if (sub === 'ls-tree') {
    const { options, operands } = parse(rest, { long: ['format'] });
    if (!has(options, '-r', '-t', '--name-only', '--name-status', '--full-tree', '--full-name')) return undefined;
    return pathspecListing(operands.slice(1), from);
  }
  if (sub === 'grep') {
    const { options, operands } = parse(rest, { short: 'efmABCO', long: ['max-count', 'context', 'after-context', 'before-context', 'max-depth', 'threads', 'open-files-in-pager'] });
    const given = valuesOf(options, '-e');
    const patterns = given.length > 0 ? given : operands.slice(0, 1);
    const paths = (given.length > 0 ? operands : operands.slice(1)).filter((operand) => !/^[0-9a-f]{7,40}$|^HEAD/.test(operand));
    return {
      ...pathspecListing(paths, from),
      content: { patterns: has(options, '-f') ? [] : patterns, basic: !has(options, '-E', '--extended-regexp', '-P', '--perl-regexp'), fixed: has(options, '-F', '--fixed-strings'), ignoreCase: has(options, '-i', '--ignore-case'), inverted: has(options, '-L', '--files-without-match', '-v', '--invert-match') },
    };
  }
  return undefined;
};

/**
 * The files below `cwd` that pathspecs select: a pathspec is a folder (`src`) or a glob over the
 * path from there, whose `*` also matches `/` (`*.ts` is every TypeScript file, `.claude/*` too);
 * magic (`:(top)`, `:!x`) is read as matching anything.
 */
function pathspecListing(pathspecs: readonly string[], cwd: string): Listing {
  if (pathspecs.length === 0 || pathspecs.some((pathspec) => pathspec.startsWith(':'))) return { roots: [cwd], hidden: true };
  // Outside the working directory (`git grep --no-index x -- ~/.gobby`): the folders themselves.
  if (pathspecs.some((pathspec) => pathspec.startsWith('/') || pathspec.startsWith('..'))) return { roots: rootsOf(pathspecs, cwd), hidden: true };
  return {
    roots: [cwd],
    hidden: true,
    keeps: (file, root) => {
      const relative = file.slice(root === '/' ? 1 : root.length + 1);
      return pathspecs.some((pathspec) => {
        const spec = pathspec.replace(/^\.\/|\/$/g, '');
        return spec === '.' || spec === '' || relative === spec || relative.startsWith(`${spec}/`) || (/[*?[]/.test(spec) && wholePathMatches(spec, relative));
      });
    },
  };
}

const LISTINGS: Readonly<Record<string, ListingOf>> = {
  du,
  tree,
  rg,
  ripgrep: rg,
  grep: grep(false, 'basic'),
  egrep: grep(false, 'extended'),
  fgrep: grep(false, 'fixed'),
  rgrep: grep(true, 'basic'),
  ag,
  ack,
  'ack-grep': ack,
  git,
};

/** Whether a search by content would find `text`: any of its patterns, read as the program reads it. */
function contentMatches(test: ContentTest, text: string): boolean {
  // Patterns read from a file, or none at all: only the run knows.
  if (test.patterns.length === 0) return true;
  return test.patterns.some((pattern) => {
    if (test.fixed) return pattern.split('\n').some((line) => (test.ignoreCase ? text.toLowerCase().includes(line.toLowerCase()) : text.includes(line)));
    return regexTest(test.basic ? basicToExtended(pattern) : pattern, text, test.ignoreCase);
  });
}

/** A regular expression run in the daemon on the agent's pattern: one that could backtrack for long, or that JavaScript cannot read, is taken to match. */
function regexTest(pattern: string, subject: string, ignoreCase: boolean): boolean {
  if (mayBacktrackBadly(pattern, 4)) return true;
  try {
    return new RegExp(pattern, ignoreCase ? 'im' : 'm').test(subject);
  } catch {
    return true;
  }
}

/** A POSIX basic regular expression as an extended one: `\|`, `\(`, `\)`, `\{`, `\}`, `\+`, `\?` are the operators, the bare signs are text. */
function basicToExtended(pattern: string): string {
  let out = '';
  for (let i = 0; i < pattern.length; i++) {
    const char = pattern[i]!;
    if (char === '\\' && i + 1 < pattern.length) {
      const next = pattern[++i]!;
      out += '|(){}+?'.includes(next) ? next : `\\${next}`;
    } else out += '|(){}+?'.includes(char) ? `\\${char}` : char;
  }
  return out;
}

/** `find ROOT… [EXPRESSION]`: the file is among what it prints when its expression may select it (workflows/find-selection.ts). */
function findFinds(invocation: ShellInvocation, file: string): boolean {
  return findMaySelect(invocation.args, invocation.cwd, file, 'print');
}

/**
 * `fd [PATTERN] [ROOT…]` (its command after `-x`/`-X` left out): the file is among what it finds
 * when a root holds it, the pattern (a regular expression, or a glob with `-g`) matches its name,
 * and, without `-H`/`-u`, no name on the way down starts with a dot.
 */
function fdFinds(invocation: ShellInvocation, file: string): boolean {
  const execAt = invocation.args.findIndex((arg) => /^(?:-x|-X|--exec|--exec-batch)$/.test(arg));
  const args = execAt === -1 ? invocation.args : invocation.args.slice(0, execAt);
  const hidden = args.some((arg) => /^(?:--hidden|--unrestricted|-[a-zA-Z]*[Hu][a-zA-Z]*)$/.test(arg));
  const glob = args.some((arg) => arg === '-g' || arg === '--glob');
  const operands = args.filter((arg, i) => !arg.startsWith('-') && !/^-(?:e|t|E|d|c|j|S|o|-extension|-type|-exclude|-max-depth|-min-depth|-color|-threads|-size|-owner|-changed-within|-changed-before|-base-directory|-search-path)$/.test(args[i - 1] ?? ''));
  const [pattern = '', ...rootArgs] = operands;
  const roots = rootArgs.length > 0 ? rootArgs.map((root) => resolveAgainst(invocation.cwd, root)) : [invocation.cwd];
  const name = file.slice(file.lastIndexOf('/') + 1);
  const matchesName = pattern === '' || (glob ? segmentMatches(pattern, name) : regexTest(pattern, name, !/[A-Z]/.test(pattern)));
  return matchesName && roots.some((root) => (file === root || isBelow(file, root)) && (hidden || !file.slice(root.length + 1).split('/').some((part) => part.startsWith('.'))));
}

/** `ls -A` and `ls -a`, in a cluster or spelled out: dot names are listed. */
const LISTS_DOT_NAMES = /^(?:-[a-zA-Z1]*[aA][a-zA-Z1]*|--all|--almost-all)$/;

/** `ls -A` in the folder that holds the file (`.claude`, `.gobby` in the project): only dot names matter here, other names `ls` lists are named by the command. */
function lsLists(invocation: ShellInvocation, file: string): boolean {
  if (!invocation.args.some((arg) => LISTS_DOT_NAMES.test(arg))) return false;
  const named = invocation.args.filter((arg) => !arg.startsWith('-')).map((arg) => resolveAgainst(invocation.cwd, arg));
  return (named.length > 0 ? named : [invocation.cwd]).includes(file.slice(0, file.lastIndexOf('/')) || '/');
}

/**
 * `locate PATTERN…` over every path of the system: a pattern without wildcards matches anywhere
 * in the path (`-b`: in the name), one with them the whole path, `-r` a regular expression.
 */
function locateFinds(args: readonly string[], file: string): boolean {
  const { options, operands } = parse(args, { short: 'dlnr', long: ['database', 'limit', 'regexp'] });
  const ignoreCase = has(options, '-i', '--ignore-case');
  const subject = has(options, '-b', '--basename') ? file.slice(file.lastIndexOf('/') + 1) : file;
  const regexes = valuesOf(options, '-r', '--regexp');
  if (regexes.some((pattern) => regexTest(pattern, subject, ignoreCase))) return true;
  const folded = ignoreCase ? subject.toLowerCase() : subject;
  return operands.some((operand) => {
    const pattern = ignoreCase ? operand.toLowerCase() : operand;
    if (has(options, '--regex')) return regexTest(operand, subject, ignoreCase);
    return /[*?[]/.test(pattern) ? wholePathMatches(pattern, folded) || globMatches(pattern, folded) : folded.includes(pattern);
  });
}
